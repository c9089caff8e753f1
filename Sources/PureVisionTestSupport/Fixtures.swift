import Foundation
import PureVisionCore

/// Locates the package's files from a test source file, so tests find `Models/` and fixtures without bundles.
public enum Fixtures {
    /// The package root: the nearest ancestor of `filePath` that holds `Package.swift`.
    public static func packageRoot(from filePath: String = #filePath) -> URL {
        var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return url
    }

    /// The path of a bundled model, e.g. `model("palm_detection_full.tflite")`.
    public static func model(_ name: String) -> String {
        packageRoot().appendingPathComponent("Models").appendingPathComponent(name).path
    }

    /// A path below `Tests/`.
    public static func testFile(_ relativePath: String) -> String {
        packageRoot().appendingPathComponent("Tests").appendingPathComponent(relativePath).path
    }

    /// Reads a whole file, throwing (so the test fails) when it is missing.
    public static func bytes(atPath path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw FixtureError.missing(path) }
        return [UInt8](data)
    }

    /// Reads a `.npy` fixture.
    public static func numpy(atPath path: String) throws -> Tensor {
        try NumpyFile.decode(bytes(atPath: path))
    }
}

/// A fixture that a test needs is absent: the test fails, it never skips.
public enum FixtureError: Error, CustomStringConvertible {
    case missing(String)

    public var description: String { "missing fixture: \(path)" }
    private var path: String {
        switch self {
        case .missing(let p): p
        }
    }
}
