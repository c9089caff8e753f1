import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Parity with MediaPipe Tasks 0.10.14's ObjectDetector and efficientdet_lite0 on the object photos and the photos
/// with people. Goldens: `tools/make_detector_goldens.py`.
///
/// Two references:
/// - `detector_replay.json`: MediaPipe's own post-processing run on the raw outputs of LiteRT's builtin int8
///   kernels (which PureVision's engine reproduces bit for bit) — default options (every NMS survivor, 1,100–2,300
///   per photo), max_results 5 + threshold 0.3, an allowlist, a denylist: the same detections in the same order,
///   boxes identical to the pixel, scores within 1e-4 (measured: identical).
/// - `detector_efficientdet.json`: MediaPipe itself, whose int8 layers run through XNNPACK; XNNPACK requantizes
///   int8 with a different rounding than LiteRT's builtin kernels, so raw scores move by a few 1/256 steps and boxes
///   by a few pixels. Measured on the max_results 5 + threshold 0.3 runs: same counts and categories in the same
///   order, score error ≤ 8/256, box IoU ≥ 0.859 (one box edge 24 px off); default-option counts within 2.2 %.
///   Held to: same top category, IoU ≥ 0.8, score within 16/256 (2× measured) for every run whose best reference
///   score is at least 0.3 (below it near-equal scores of different boxes can swap places), the threshold-0.3 runs'
///   counts and category order, and default counts within 5 %.
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
    static let replays = load("detector_replay.json")

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

    static func detect(_ golden: Golden) throws -> [Detection] {
        var options = ObjectDetectorOptions(
            baseOptions: BaseOptions(modelAssetPath: Fixtures.model("efficientdet_lite0.tflite")))
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
        #expect(Self.replays.count == 9 * 4)
        #expect(Self.goldens.filter { $0.optionsText.isEmpty }.allSatisfy { $0.rows.count > 1000 })
        #expect(Self.replays.filter { $0.optionsText.isEmpty }.allSatisfy { $0.rows.count > 1000 })
    }

    /// Exact parity with MediaPipe's post-processing on the engine's raw outputs.
    @Test(arguments: replays)
    func matchesMediaPipePostprocessing(_ golden: Golden) throws {
        let ours = try Self.detect(golden)
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

    static func iou(_ a: BoundingBox, _ b: BoundingBox) -> Double {
        let w = max(0, min(a.originX + a.width, b.originX + b.width) - max(a.originX, b.originX))
        let h = max(0, min(a.originY + a.height, b.originY + b.height) - max(a.originY, b.originY))
        let union = a.width * a.height + b.width * b.height - w * h
        return union > 0 ? Double(w * h) / Double(union) : 0
    }

    /// Against MediaPipe itself (XNNPACK int8 arithmetic): the bounds stated above.
    @Test(arguments: goldens)
    func staysCloseToMediaPipe(_ golden: Golden) throws {
        let ours = try Self.detect(golden)
        if golden.optionsText.isEmpty {
            let allowed = golden.rows.count / 20
            #expect(abs(ours.count - golden.rows.count) <= allowed, "\(golden.testDescription): \(ours.count)")
        }
        if golden.scoreThreshold == 0.3 {
            #expect(ours.count == golden.rows.count, "\(golden.testDescription)")
            #expect(ours.map { $0.categories.first?.categoryName ?? "" } == golden.rows.map(\.name))
        }
        guard let best = golden.rows.first, best.score >= 0.3 else { return }
        let mine = try #require(ours.first, "\(golden.testDescription): no detection")
        let category = try #require(mine.categories.first)
        #expect(category.categoryName == best.name, "\(golden.testDescription)")
        #expect(abs(category.score - best.score) <= 16.0 / 256, "\(golden.testDescription): \(category.score)")
        #expect(Self.iou(mine.boundingBox, best.box) >= 0.8, "\(golden.testDescription): \(mine.boundingBox)")
    }
}
