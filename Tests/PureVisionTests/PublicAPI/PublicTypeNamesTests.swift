import Foundation
import PureVisionTestSupport
import Testing

/// An app imports PureVision beside SwiftUI, UIKit, AppKit, CoreGraphics, CoreImage, AVFoundation, Vision and the
/// Objective-C runtime. A public type or module of ours with the name of one of theirs makes the app's unqualified
/// name ambiguous (SwiftUI's `Image`, Objective-C's `Category`), so no module may declare one.
@Suite struct PublicTypeNamesTests {
    /// Unprefixed type names those frameworks declare (their prefixed names — `CG…`, `UI…`, `NS…`, `VN…`, `AV…`,
    /// `CI…` — cannot collide with ours). MacTypes (`Point`, `Rect`, `Size` …) comes with Foundation on Apple.
    static let appleNames: Set<String> = [
        // SwiftUI
        "Alignment", "Anchor", "Angle", "Animation", "App", "Axis", "Binding", "Button", "Canvas", "Capsule", "Circle",
        "Color", "ColorScheme", "ContentMode", "Divider", "Edge", "EdgeInsets", "Ellipse", "Environment", "Font",
        "Form", "Gesture", "Gradient", "Grid", "GridRow", "Group", "Image", "Label", "Layout", "Link", "List",
        "Material", "Menu", "Namespace", "Path", "Picker", "ProgressView", "Rectangle", "Scene", "ScrollView",
        "Section", "Shape", "Slider", "Spacer", "State", "Stepper", "Tab", "TabView", "Table", "Text", "TextField",
        "Toggle", "Transaction", "UnitPoint", "View", "Visibility", "Window",
        // Objective-C runtime and MacTypes
        "Category", "Class", "Ivar", "Method", "Protocol", "Selector", "SEL", "IMP", "Point", "Rect", "Size",
        "Style", "Handle", "Fixed",
    ]

    /// Modules of this package: every one carries the project's prefix.
    @Test func everyModuleCarriesTheProjectPrefix() throws {
        let manifest = try String(
            contentsOf: Fixtures.packageRoot().appendingPathComponent("Package.swift"), encoding: .utf8)
        let names = Self.matches(
            of: #"\.(?:target|testTarget|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#, in: manifest)
        #expect(names.count >= 10, "found \(names.count) targets in Package.swift")
        for name in names {
            #expect(name.hasPrefix("PureVision") || name.hasPrefix("CPureVision"), "target \(name) lacks the prefix")
        }
    }

    /// Every top-level public type of every Swift module in `Sources/`, and none with an Apple framework's name.
    @Test func noPublicTypeRepeatsAnAppleFrameworkName() throws {
        let sources = Fixtures.packageRoot().appendingPathComponent("Sources")
        let declaration =
            #"(?m)^(?:public|open)\s+(?:final\s+)?(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)"#
        var typesByModule: [String: [String]] = [:]
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let module = file.path.dropFirst(sources.path.count + 1).split(separator: "/").first.map(String.init) ?? ""
            let text = try String(contentsOf: file, encoding: .utf8)
            typesByModule[module, default: []] += Self.matches(of: declaration, in: text)
        }
        #expect(typesByModule["PureVision"]?.contains("HandLandmarker") == true, "the scan found no task types")
        #expect(typesByModule["PureVisionImage"]?.contains("PixelImage") == true, "the scan found no image type")
        for (module, types) in typesByModule {
            for name in types where Self.appleNames.contains(name) {
                Issue.record("\(module).\(name) has the name of an Apple framework type")
            }
        }
    }

    private static func matches(of pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
