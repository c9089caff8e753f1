import Foundation
import PureVision
import PureVisionCore
import PureVisionImage
import PureVisionTestSupport
import Testing

/// `purevision segment`: runs the built CLI (next to the test bundle) on a fixture photo and checks its JSON line
/// and the files `--out` writes against the task's own result.
@Suite struct SegmentCommandTests {
    static let directory = Fixtures.testFile("PureVisionTests/Fixtures/segmenter")

    /// The `purevision` executable built alongside the tests.
    static var executable: String? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Fixtures.packageRoot().appendingPathComponent(".build/release"),
        ]
        return candidates.map { $0.appendingPathComponent("purevision").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(executable, "purevision is not built"))
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.packageRoot()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func jsonLineAndOutputFiles() throws {
        let photo = Self.directory + "/fr_obama.png"
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("purevision-segment-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let (status, output) = try Self.run(["segment", photo, "--json", "--out", out, "--background", "#00FF00"])
        #expect(status == 0)

        let segmenter = try ImageSegmenter(
            options: ImageSegmenterOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("selfie_segmenter.tflite")),
                outputCategoryMask: true))
        let image = try PixelImage(contentsOfFile: photo)
        let result = try segmenter.segment(image: image)
        let category = try #require(result.categoryMask)
        let person = category.values.filter { $0 == 0 }.count

        let line = try #require(output.split(separator: "\n").first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(json["image"] as? String == photo)
        #expect(json["width"] as? Int == image.width && json["height"] as? Int == image.height)
        #expect(json["labels"] as? [String] == ["selfie"])
        #expect(json["categoryPixelCounts"] as? [Int] == [person])

        let written = try PixelImage(contentsOfFile: out + "/fr_obama_category.png")
        #expect(written.width == image.width && written.height == image.height)
        #expect(written.converted(to: .gray8).withUnsafePixels { Array($0) } == category.values)
        let confidence = try Fixtures.numpy(atPath: out + "/fr_obama_confidence.npy")
        #expect(confidence.shape.dimensions == [image.height, image.width, 1])
        #expect(confidence.floats == result.confidenceMasks?.first?.values)
        let composite = try PixelImage(contentsOfFile: out + "/fr_obama_background.png").converted(to: .rgb8)
        // A pixel the model is sure is background is the fill colour.
        let masks = try #require(result.confidenceMasks)
        let index = try #require(masks[0].values.firstIndex { $0 < 0.001 })
        let pixel = composite.withUnsafePixels { raw in
            (0..<3).map { raw[(index / image.width) * composite.bytesPerRow + (index % image.width) * 3 + $0] }
        }
        #expect(pixel == [0, 255, 0])
    }

    @Test func refusesBadArguments() throws {
        #expect(try Self.run(["segment"]).status != 0)
        #expect(try Self.run(["segment", Self.directory + "/fr_obama.png", "--background", "#12"]).status != 0)
    }
}
