import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// The int8 classifier (`efficientnet_lite0_int8`, no metadata, normalization and labels from the options) against
/// LiteRT on the same quantized input (`tools/make_int8_goldens.py`): top 5 equal, and every dequantized score
/// identical (the int8 kernels match LiteRT's bit for bit; the preprocessing and quantization of the input too).
@Suite struct Int8ClassifierTests {
    static let directory = Fixtures.testFile("PureVisionTests/Fixtures/classifier")

    static func goldens() throws -> [String: Any] {
        let data = try Fixtures.bytes(atPath: directory + "/classifier_efficientnet_int8.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
    }

    static func classifier(labels: String? = nil) throws -> ImageClassifier {
        try ImageClassifier(
            options: ImageClassifierOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("efficientnet_lite0_int8.tflite")),
                inputNormalization: InputNormalization(mean: 127, std: 128), labelsFilePath: labels))
    }

    @Test(arguments: [
        "gcompris_polar_bear.png", "opencvdoc_orange.png", "opencvdoc_space_shuttle.png", "skimage_chelsea.png",
        "skimage_coffee.png",
    ])
    func topFiveEqualsLiteRT(_ name: String) throws {
        let results = try #require(try Self.goldens()["results"] as? [[String: Any]])
        let golden = try #require(results.first { $0["image"] as? String == name })
        let outputScale = Float(
            try #require((try Self.goldens()["output_quantization"] as? [String: Any])?["scale"] as? Double))
        let expectedTop = try #require(golden["top5"] as? [[String: Any]]).compactMap { $0["index"] as? Int }
        let raw = try #require(golden["output_int8"] as? [Int])
        let image = try PixelImage(contentsOfFile: Self.directory + "/" + name)
        let result = try Self.classifier().classify(image: image)
        let categories = try #require(result.classifications.first?.categories)
        #expect(categories.count == 1000)
        #expect(Array(categories.prefix(5).map(\.index)) == expectedTop, "\(name)")
        var identical = 0
        var worst: Float = 0
        for category in categories {
            let expected = outputScale * Float(raw[category.index] - -128)
            if category.score == expected { identical += 1 }
            worst = max(worst, abs(category.score - expected))
        }
        #expect(identical == 1000, "\(name): \(identical) of 1000 scores identical, worst difference \(worst)")
    }

    @Test func labelsFromAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("int8_labels_\(getpid()).txt").path
        let names = (0..<1000).map { "class \($0)" }
        try names.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let image = try PixelImage(contentsOfFile: Self.directory + "/opencvdoc_orange.png")
        let top = try #require(
            try Self.classifier(labels: path).classify(image: image).classifications.first?.categories.first)
        #expect(top.categoryName == "class \(top.index)")

        try names.prefix(10).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: VisionTaskError.self) { _ = try Self.classifier(labels: path) }
    }
}
