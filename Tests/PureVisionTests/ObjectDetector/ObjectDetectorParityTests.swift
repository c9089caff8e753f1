import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Parity with MediaPipe Tasks 0.10.14's ObjectDetector and efficientdet_lite0 on the object photos and the photos
/// with people (`detector_efficientdet.json`, made by `tools/make_detector_goldens.py`): default options (every NMS
/// survivor, 1,100–2,300 per photo), max_results 5 + threshold 0.3, rotations, an allowlist and a denylist. MediaPipe
/// runs the model's int8 layers through XNNPACK, and so does the task (`InterpreterOptions.QuantizedArithmetic
/// .xnnpack`): the same detections in the same order, boxes identical to the pixel, scores within 1e-4 (measured:
/// identical, 47 runs).
@Suite struct ObjectDetectorParityTests {
    static let directory = Fixtures.testFile("PureVisionTests/Fixtures/detector")

    struct Row: Sendable, Equatable {
        let box: BoundingBox
        let score: Float
        let name: String
    }

    struct Golden: Sendable, CustomTestStringConvertible {
        let image: String
        let maxResults: Int?
        let scoreThreshold: Float?
        let allowlist: [String]?
        let denylist: [String]?
        let rotationDegrees: Int
        let optionsText: String
        let rows: [Row]
        var testDescription: String { "\(image) \(optionsText)" }
    }

    static let goldens = load("detector_efficientdet.json")

    static func load(_ file: String) -> [Golden] {
        guard let data = FileManager.default.contents(atPath: directory + "/" + file),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let runs = root["runs"] as? [[String: Any]]
        else { return [] }
        return runs.map { entry in
            let o = entry["options"] as? [String: Any] ?? [:]
            let rows = (entry["detections"] as? [[Any]] ?? []).map { r in
                Row(
                    box: BoundingBox(
                        originX: r[0] as? Int ?? -1, originY: r[1] as? Int ?? -1, width: r[2] as? Int ?? -1,
                        height: r[3] as? Int ?? -1),
                    score: Float(r[4] as? Double ?? -1), name: r[5] as? String ?? "")
            }
            return Golden(
                image: entry["image"] as? String ?? "?", maxResults: o["max_results"] as? Int,
                scoreThreshold: (o["score_threshold"] as? Double).map(Float.init),
                allowlist: o["category_allowlist"] as? [String], denylist: o["category_denylist"] as? [String],
                rotationDegrees: o["rotation_degrees"] as? Int ?? 0,
                optionsText: o.keys.sorted().map { "\($0)=\(o[$0] ?? "")" }.joined(separator: " "), rows: rows)
        }
    }

    static func detect(_ golden: Golden, threads: Int = 1) throws -> [Detection] {
        var options = ObjectDetectorOptions(
            baseOptions: BaseOptions(
                modelAssetPath: Fixtures.model("efficientdet_lite0.tflite"), threadCount: threads))
        if let k = golden.maxResults { options.maxResults = k }
        if let t = golden.scoreThreshold { options.scoreThreshold = t }
        options.categoryAllowlist = golden.allowlist ?? []
        options.categoryDenylist = golden.denylist ?? []
        let detector = try ObjectDetector(options: options)
        let image = try PixelImage(contentsOfFile: directory + "/" + golden.image)
        let processing =
            golden.rotationDegrees == 0 ? nil : ImageProcessingOptions(rotationDegrees: golden.rotationDegrees)
        return try detector.detect(image: image, imageProcessingOptions: processing).detections
    }

    @Test func goldensArePresent() {
        #expect(Self.goldens.count == 9 * 5 + 2)
        #expect(Self.goldens.filter { $0.optionsText.isEmpty }.allSatisfy { $0.rows.count > 1000 })
    }

    /// Exact parity with MediaPipe itself.
    @Test(arguments: goldens)
    func matchesMediaPipe(_ golden: Golden) throws {
        try Self.check(golden, threads: 1)
    }

    /// The same on 2 threads for the default options (no result limit), where the model's last operators and the
    /// box decoding are split over the threads.
    @Test(arguments: goldens.filter { $0.optionsText.isEmpty })
    func matchesMediaPipeOnTwoThreads(_ golden: Golden) throws {
        try Self.check(golden, threads: 2)
    }

    static func check(_ golden: Golden, threads: Int) throws {
        let ours = try Self.detect(golden, threads: threads)
        #expect(ours.count == golden.rows.count, "\(golden.testDescription)")
        var worst: Float = 0
        for (i, (detection, row)) in zip(ours, golden.rows).enumerated() {
            let category = try #require(detection.categories.first)
            let same =
                detection.boundingBox == row.box && category.categoryName == row.name
                && detection.categories.count == 1 && abs(category.score - row.score) <= 1e-4
            worst = max(worst, abs(category.score - row.score))
            guard same else {
                Issue.record(
                    "\(golden.testDescription): detection \(i) is \(detection.boundingBox) \(category), MediaPipe \(row)"
                )
                return
            }
        }
        #expect(worst <= 1e-6, "\(golden.testDescription): largest score error \(worst)")
    }
}
