import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Parity with MediaPipe Tasks 0.10.14's ImageClassifier and efficientnet_lite0 on the object photos and
/// scikit-image samples, with default options and every option MediaPipe was run with. Goldens:
/// `tools/make_classifier_goldens.py`.
///
/// Acceptance (the issue's): the same top-5 categories in the same order, where two categories whose reference
/// scores differ by less than 0.002 may swap, and every stored score within 0.01. The stored categories beyond the
/// top 5 (up to 20) and the category count are checked too.
@Suite struct ImageClassifierParityTests {
    static let directory = Fixtures.testFile("PureVisionTests/Fixtures/classifier")
    /// Measured: at most 2.4e-6 over every run and all 1000 classes; held to that times a safety factor of 8.4.
    static let scoreTolerance: Float = 2e-5

    struct Golden: Sendable, CustomTestStringConvertible {
        let image: String
        let maxResults: Int?
        let scoreThreshold: Float?
        let allowlist: [String]?
        let denylist: [String]?
        let regionOfInterest: [Float]?
        let rotationDegrees: Int
        let optionsText: String
        let categoryCount: Int
        let headName: String
        let categories: [(index: Int, score: Float, name: String)]
        let fullScores: [Float]?
        var testDescription: String { "\(image) \(optionsText)" }
    }

    static var root: [String: Any] {
        guard let data = FileManager.default.contents(atPath: directory + "/classifier_efficientnet.json"),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return root
    }

    static let goldens: [Golden] = (root["results"] as? [[String: Any]] ?? []).compactMap { entry in
        // Every fixture is a PNG, which MediaPipe's loader, PIL and ours decode identically (images.json).
        guard entry["decoder"] as? String == "mediapipe",
            let head = (entry["classifications"] as? [[String: Any]])?.first
        else { return nil }
        let categories = (head["categories"] as? [[String: Any]] ?? []).map { c in
            (
                index: c["index"] as? Int ?? -1, score: Float(c["score"] as? Double ?? -1),
                name: c["category_name"] as? String ?? ""
            )
        }
        let o = entry["options"] as? [String: Any] ?? [:]
        let text = o.keys.sorted().map { "\($0)=\(o[$0] ?? "")" }.joined(separator: " ")
        return Golden(
            image: entry["image"] as? String ?? "?", maxResults: o["max_results"] as? Int,
            scoreThreshold: (o["score_threshold"] as? Double).map(Float.init),
            allowlist: o["category_allowlist"] as? [String], denylist: o["category_denylist"] as? [String],
            regionOfInterest: (o["region_of_interest"] as? [Double])?.map(Float.init),
            rotationDegrees: o["rotation_degrees"] as? Int ?? 0, optionsText: text,
            categoryCount: head["category_count"] as? Int ?? -1, headName: head["head_name"] as? String ?? "",
            categories: categories, fullScores: (entry["full_scores"] as? [Double])?.map(Float.init))
    }

    static func options(for golden: Golden) -> (ImageClassifierOptions, ImageProcessingOptions?) {
        var options = ImageClassifierOptions(
            baseOptions: BaseOptions(modelAssetPath: Fixtures.model("efficientnet_lite0.tflite")))
        if let k = golden.maxResults { options.maxResults = k }
        options.scoreThreshold = golden.scoreThreshold
        options.categoryAllowlist = golden.allowlist ?? []
        options.categoryDenylist = golden.denylist ?? []
        let roi = golden.regionOfInterest.map { RectF(left: $0[0], top: $0[1], right: $0[2], bottom: $0[3]) }
        let rotation = golden.rotationDegrees
        let processing =
            roi == nil && rotation == 0
            ? nil : ImageProcessingOptions(regionOfInterest: roi, rotationDegrees: rotation)
        return (options, processing)
    }

    static func classify(_ golden: Golden) throws -> Classifications {
        let (options, processing) = options(for: golden)
        let classifier = try ImageClassifier(options: options)
        let image = try PixelImage(contentsOfFile: directory + "/" + golden.image)
        let result = try classifier.classify(image: image, imageProcessingOptions: processing)
        try #require(result.classifications.count == 1)
        return result.classifications[0]
    }

    /// Checks `ours` against the reference's first `count` categories: same index at every rank, except that two
    /// neighbours whose reference scores differ by less than `swap` may be exchanged. Returns the largest score
    /// error over the matched categories.
    @discardableResult
    static func expectRanking(
        _ ours: [ResultCategory], _ reference: [(index: Int, score: Float, name: String)], count: Int,
        swap: Float = 0.002,
        _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Float {
        var worst: Float = 0
        let n = min(count, reference.count)
        guard ours.count >= n else {
            Issue.record("\(label): \(ours.count) categories, expected at least \(n)", sourceLocation: sourceLocation)
            return .infinity
        }
        for rank in 0..<n {
            let theirs = reference[rank]
            var matched = ours[rank].index == theirs.index
            if !matched {
                // A near tie: the reference's neighbour at this rank may be ours.
                for other in [rank - 1, rank + 1] where reference.indices.contains(other) {
                    if reference[other].index == ours[rank].index, abs(reference[other].score - theirs.score) < swap {
                        matched = true
                    }
                }
            }
            #expect(
                matched, "\(label): rank \(rank) is \(ours[rank].index), MediaPipe \(theirs.index) (\(theirs.name))",
                sourceLocation: sourceLocation)
            if let mine = ours.first(where: { $0.index == theirs.index }) {
                worst = max(worst, abs(mine.score - theirs.score))
                #expect(
                    abs(mine.score - theirs.score) <= 0.01,
                    "\(label): \(theirs.name) score \(mine.score) vs \(theirs.score)", sourceLocation: sourceLocation)
                #expect(mine.categoryName == theirs.name, sourceLocation: sourceLocation)
            }
        }
        return worst
    }

    @Test func goldensArePresent() {
        #expect(Self.goldens.count >= 14 + 3 * 13)
        #expect(Self.goldens.filter { $0.fullScores != nil }.count == 2)
    }

    @Test(arguments: GoldenSample.select(goldens))
    func matchesMediaPipe(_ golden: Golden) throws {
        let head = try Self.classify(golden)
        #expect(head.headIndex == 0)
        #expect(head.headName == golden.headName)
        #expect(head.categories.count == golden.categoryCount, "\(golden.testDescription)")
        // The issue's bar: top 5; the stored top 20 are held to the same rule.
        Self.expectRanking(head.categories, golden.categories, count: 5, golden.testDescription)
        let worst = Self.expectRanking(head.categories, golden.categories, count: 20, golden.testDescription)
        #expect(worst <= Self.scoreTolerance, "\(golden.testDescription): largest score error \(worst)")
        for category in head.categories {
            #expect(category.displayName == nil, "efficientnet_lite0 has no display names")
        }
    }

    /// The whole score vector, on the two images it was recorded for; reports the largest error.
    @Test func fullScoreVectors() throws {
        var worst: Float = 0
        for golden in Self.goldens {
            guard let reference = golden.fullScores else { continue }
            let head = try Self.classify(golden)
            try #require(head.categories.count == 1000)
            for category in head.categories {
                worst = max(worst, abs(category.score - reference[category.index]))
            }
        }
        print("ImageClassifier parity: largest score error over all 1000 classes \(worst)")
        #expect(worst <= Self.scoreTolerance)
    }

    /// MediaPipe's refusals of invalid combinations, recorded by the golden script, are ours too.
    @Test func invalidCombinationsAreRefusedAsMediaPipeDoes() throws {
        let errors = Self.root["errors"] as? [[String: Any]] ?? []
        try #require(errors.count == 2)
        for entry in errors {
            #expect(entry["error"] is String, "MediaPipe refused \(entry["options"] ?? "")")
        }
        let base = BaseOptions(modelAssetPath: Fixtures.model("efficientnet_lite0.tflite"))
        #expect(throws: VisionTaskError.self) {
            try ImageClassifier(options: ImageClassifierOptions(baseOptions: base, maxResults: 0))
        }
        #expect(throws: VisionTaskError.self) {
            try ImageClassifier(
                options: ImageClassifierOptions(
                    baseOptions: base, categoryAllowlist: ["tabby"], categoryDenylist: ["tench"]))
        }
    }
}
