import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// The image manifests the golden scripts write beside their photos (`faces/images.json`, `hands/images.json`,
/// `hands/video/frames.json`, `classifier/images.json`): every listed file is the one the goldens were made from
/// (its SHA-256), and our decoder gives PIL's pixels for it (the SHA-256 of the RGB bytes) — the premise of every
/// parity suite that compares JPEG inputs with MediaPipe's runs on PIL's decode. PNGs also decode as MediaPipe's own
/// loader does.
@Suite struct FixtureImageDigestTests {
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        let file: String
        let width: Int
        let height: Int
        let fileSHA256: String
        let pilRGBSHA256: String
        let mediapipeRGBSHA256: String
        var directory = ""
        var testDescription: String { "\(directory)/\(file)" }

        enum CodingKeys: String, CodingKey {
            case file, width, height
            case fileSHA256 = "file_sha256"
            case pilRGBSHA256 = "pil_rgb_sha256"
            case mediapipeRGBSHA256 = "mediapipe_rgb_sha256"
        }
    }

    struct Manifest: Decodable {
        let images: [Entry]?
        let frames: [Entry]?
    }

    /// (manifest, the folder its file names are relative to)
    static let manifests = [
        ("faces/images.json", "faces"), ("hands/images.json", "hands"), ("hands/video/frames.json", "hands"),
        ("classifier/images.json", "classifier"),
    ]

    static func entries() throws -> [Entry] {
        try manifests.flatMap { manifest, directory in
            let data = try Fixtures.bytes(atPath: Fixtures.testFile("PureVisionTests/Fixtures/\(manifest)"))
            let decoded = try JSONDecoder().decode(Manifest.self, from: Data(data))
            return (decoded.images ?? decoded.frames ?? []).map { entry in
                var entry = entry
                entry.directory = directory
                return entry
            }
        }
    }

    static let all: [Entry] = (try? entries()) ?? []

    @Test func everyManifestIsRead() throws {
        let entries = try Self.entries()
        #expect(entries.filter { $0.directory == "faces" }.count == 34)
        #expect(entries.filter { $0.directory == "hands" }.count == 31 + 48)
        #expect(entries.filter { $0.directory == "classifier" }.count == 14)
    }

    @Test(arguments: all)
    func fileAndDecodeMatchTheManifest(_ entry: Entry) throws {
        let path = Fixtures.testFile("PureVisionTests/Fixtures/\(entry.directory)/\(entry.file)")
        #expect(SHA256.hexDigest(try Fixtures.bytes(atPath: path)) == entry.fileSHA256, "file bytes")
        let image = try PixelImage(contentsOfFile: path).converted(to: .rgb8)
        try #require(image.width == entry.width && image.height == entry.height)
        let rgb = image.ownedCopy().withUnsafePixels { Array($0) }
        let digest = SHA256.hexDigest(rgb)
        #expect(digest == entry.pilRGBSHA256, "our decode differs from PIL's")
        if entry.file.hasSuffix(".png") {
            #expect(digest == entry.mediapipeRGBSHA256, "our decode differs from MediaPipe's loader")
        }
    }
}
