import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Option semantics, metadata handling and the running-mode contract of `ImageClassifier`, on efficientnet_lite0
/// and on the tiny models of `tools/make_classifier_goldens.py` (`classifier_tiny.json`).
@Suite struct ImageClassifierContractTests {
    static let directory = Fixtures.testFile("PureVisionTests/Fixtures/classifier")
    static let efficientnet = BaseOptions(modelAssetPath: Fixtures.model("efficientnet_lite0.tflite"))

    static var tiny: [String: Any] {
        guard let data = FileManager.default.contents(atPath: directory + "/classifier_tiny.json"),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return root
    }

    static func image(_ name: String) throws -> PixelImage { try PixelImage(contentsOfFile: directory + "/" + name) }

    static func tinyOptions(_ model: String) -> ImageClassifierOptions {
        ImageClassifierOptions(baseOptions: BaseOptions(modelAssetPath: directory + "/" + model))
    }

    static func expectInvalidOption(
        _ name: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected invalidOption(\(name))", sourceLocation: sourceLocation)
        } catch let VisionTaskError.invalidOption(actual, _) {
            #expect(actual == name, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected invalidOption(\(name)), got \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Options

    @Test(arguments: [0])
    func maxResultsZeroIsAnError(_ value: Int) {
        Self.expectInvalidOption("maxResults") {
            _ = try ImageClassifier(options: ImageClassifierOptions(baseOptions: Self.efficientnet, maxResults: value))
        }
    }

    @Test func allowlistAndDenylistTogetherIsAnError() {
        Self.expectInvalidOption("categoryAllowlist") {
            _ = try ImageClassifier(
                options: ImageClassifierOptions(
                    baseOptions: Self.efficientnet, categoryAllowlist: ["tabby"], categoryDenylist: ["tench"]))
        }
    }

    @Test func listsNeedLabels() {
        var options = Self.tinyOptions("tiny_nometa.tflite")
        options.categoryDenylist = ["a"]
        Self.expectInvalidOption("categoryDenylist") { _ = try ImageClassifier(options: options) }
        // MediaPipe says the same for a model without labels (recorded by the golden script).
        #expect((Self.tiny["uint8_allowlist_error"] as? String)?.contains("requires labels") == true)
    }

    @Test(arguments: [-1, -7])
    func negativeMaxResultsKeepsAll(_ value: Int) throws {
        let classifier = try ImageClassifier(
            options: ImageClassifierOptions(baseOptions: Self.efficientnet, maxResults: value))
        let head = try #require(try classifier.classify(image: Self.image("skimage_coffee.png")).classifications.first)
        #expect(head.categories.count == 1000)
        #expect(zip(head.categories, head.categories.dropFirst()).allSatisfy { $0.score >= $1.score })
    }

    @Test(arguments: [Float(0.05), 0.1, 0.3])
    func thresholdDropsOnlyLowerScores(_ threshold: Float) throws {
        let all = try ImageClassifier(options: ImageClassifierOptions(baseOptions: Self.efficientnet))
        let image = try Self.image("skimage_chelsea.png")
        let everything = try #require(try all.classify(image: image).classifications.first).categories
        let filtered = try ImageClassifier(
            options: ImageClassifierOptions(baseOptions: Self.efficientnet, scoreThreshold: threshold))
        let kept = try #require(try filtered.classify(image: image).classifications.first).categories
        #expect(kept == everything.filter { $0.score >= threshold })
        // A threshold equal to a score keeps that category ("<" drops).
        let exact = try ImageClassifier(
            options: ImageClassifierOptions(baseOptions: Self.efficientnet, scoreThreshold: everything[1].score))
        let atScore = try #require(try exact.classify(image: image).classifications.first).categories
        #expect(atScore.map(\.index) == everything.prefix(2).map(\.index))
    }

    @Test func allowlistMatchingNothingAppliesNoFilter() throws {
        let classifier = try ImageClassifier(
            options: ImageClassifierOptions(baseOptions: Self.efficientnet, categoryAllowlist: ["Tabby", "nope"]))
        let head = try #require(try classifier.classify(image: Self.image("skimage_chelsea.png")).classifications.first)
        #expect(head.categories.count == 1000)
    }

    @Test func imageOrientationActsAsRotation() throws {
        let classifier = try ImageClassifier(options: ImageClassifierOptions(baseOptions: Self.efficientnet))
        let upright = try Self.image("skimage_chelsea.png")
        let rotated = try classifier.classify(
            image: upright, imageProcessingOptions: ImageProcessingOptions(rotationDegrees: 90))
        var oriented = upright
        oriented.orientation = .right
        let viaOrientation = try classifier.classify(image: oriented)
        #expect(rotated == viaOrientation)
        var mirrored = upright
        mirrored.orientation = .upMirrored
        #expect(throws: VisionTaskError.self) { try classifier.classify(image: mirrored) }
    }

    @Test func invalidRegionOfInterestIsRefused() throws {
        let classifier = try ImageClassifier(options: ImageClassifierOptions(baseOptions: Self.efficientnet))
        let image = try Self.image("skimage_coffee.png")
        for roi in [RectF(left: 0.5, top: 0, right: 0.4, bottom: 1), RectF(left: 0, top: 0, right: 1.5, bottom: 1)] {
            #expect(throws: VisionTaskError.self) {
                try classifier.classify(
                    image: image, imageProcessingOptions: ImageProcessingOptions(regionOfInterest: roi))
            }
        }
        #expect(throws: VisionTaskError.self) {
            try classifier.classify(image: image, imageProcessingOptions: ImageProcessingOptions(rotationDegrees: 45))
        }
    }

    // MARK: Metadata

    @Test func modelWithoutMetadataGivesIndicesOnly() throws {
        let classifier = try ImageClassifier(options: Self.tinyOptions("tiny_nometa.tflite"))
        let result = try classifier.classify(image: Self.image("tiny_quadrants.png"))
        let head = try #require(result.classifications.first)
        #expect(head.headName == nil)
        let expected = try #require(Self.tiny["nometa_litert_scores"] as? [Double]).map(Float.init)
        #expect(head.categories.count == expected.count)
        for category in head.categories {
            #expect(category.categoryName == nil && category.displayName == nil)
            #expect(abs(category.score - expected[category.index]) <= 1e-5)
        }
        // MediaPipe itself refuses this model (no NormalizationOptions); the golden script recorded why.
        #expect((Self.tiny["nometa_mediapipe_error"] as? String)?.contains("NormalizationOptions") == true)
        #expect(classifier.labels.map(\.names) == [[]])
    }

    /// Labels, French display names, LOG calibration (incl. empty lines and min_score), head name, maxResults and
    /// an allowlist with a display name in it, and a uint8 model, against MediaPipe.
    @Test(arguments: 0..<5)
    func tinyModelsMatchMediaPipe(_ run: Int) throws {
        let runs = try #require(Self.tiny["runs"] as? [[String: Any]])
        let entry = runs[run]
        var options = Self.tinyOptions(try #require(entry["model"] as? String))
        let o = entry["options"] as? [String: Any] ?? [:]
        if let locale = o["display_names_locale"] as? String { options.displayNamesLocale = locale }
        if let k = o["max_results"] as? Int { options.maxResults = k }
        if let list = o["category_allowlist"] as? [String] { options.categoryAllowlist = list }
        let result = try ImageClassifier(options: options).classify(image: Self.image("tiny_quadrants.png"))
        let head = try #require(result.classifications.first)
        let reference = try #require((entry["classifications"] as? [[String: Any]])?.first)
        let name = reference["head_name"] as? String ?? ""
        #expect(head.headName == (name.isEmpty ? nil : name))
        let categories = reference["categories"] as? [[String: Any]] ?? []
        try #require(head.categories.count == categories.count)
        // Equal scores (the calibration's default score) come in an unspecified order in MediaPipe, and a
        // truncation may cut between them: any class with the same score in any run of this model is a match.
        let model = entry["model"] as? String
        let pool = runs.filter { $0["model"] as? String == model }.flatMap { run in
            ((run["classifications"] as? [[String: Any]])?.first?["categories"] as? [[String: Any]]) ?? []
        }
        for (rank, (ours, theirs)) in zip(head.categories, categories).enumerated() {
            let score = Float(theirs["score"] as? Double ?? -1)
            let same = Set(
                pool.filter { Float($0["score"] as? Double ?? -1) == score }.compactMap { $0["index"] as? Int })
            #expect(same.contains(ours.index), "rank \(rank): \(ours.index) not among \(same)")
            #expect(abs(ours.score - score) <= 1e-5, "rank \(rank): \(ours.score) vs \(score)")
            let index = ours.index
            let match =
                categories.first { $0["index"] as? Int == index }
                ?? pool.first { $0["index"] as? Int == index } ?? [:]
            let label = match["category_name"] as? String ?? ""
            let display = match["display_name"] as? String ?? ""
            #expect(ours.categoryName == (label.isEmpty ? nil : label))
            if categories.contains(where: { $0["index"] as? Int == index }) {
                #expect(ours.displayName == (display.isEmpty ? nil : display))
            }
        }
    }

    @Test func labelsOfEfficientnet() throws {
        let heads = try ImageClassifier.labels(of: Self.efficientnet)
        try #require(heads.count == 1)
        #expect(heads[0].headName == "score")
        #expect(heads[0].names.count == 1000)
        #expect(heads[0].names.first == "tench")
        #expect(heads[0].names.last == "toilet tissue")
        #expect(heads[0].displayNames == nil)
        let french = try ImageClassifier.labels(
            of: BaseOptions(modelAssetPath: Self.directory + "/tiny_meta.tflite"), displayNamesLocale: "fr")
        #expect(french.first?.displayNames?.first == "rouge")
    }

    @Test(arguments: [
        ("a\nb\nc", ["a", "b", "c"]), ("a\nb\nc\n", ["a", "b", "c"]), ("a\r\nb\r\nc\r\n", ["a", "b", "c"]),
        ("a\rb\rc", ["a", "b", "c"]), ("a\n\nb\n\n", ["a", "", "b", ""]), ("", []), ("\n", [""]),
        ("a\r\n\r\nb", ["a", "", "b"]),
    ])
    func labelLines(_ text: String, _ expected: [String]) throws {
        #expect(try ClassificationLabels.lines(of: Array(text.utf8), file: "labels.txt") == expected)
    }

    /// An int8 model without normalization metadata cannot be fed until the caller says how to normalize.
    @Test func int8ModelWithoutNormalizationNamesTheOption() {
        do {
            _ = try ImageClassifier(
                options: ImageClassifierOptions(
                    baseOptions: BaseOptions(modelAssetPath: Fixtures.model("efficientnet_lite0_int8.tflite"))))
            Issue.record("an int8-input model without normalization was accepted")
        } catch let VisionTaskError.model(message) {
            #expect(message.contains("int8") && message.contains("inputNormalization"), "\(message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    // MARK: Running modes

    @Test func wrongModeAndTimestamps() throws {
        let image = try Self.image("tiny_quadrants.png")
        let video = try ImageClassifier(
            options: ImageClassifierOptions(
                baseOptions: BaseOptions(modelAssetPath: Self.directory + "/tiny_meta.tflite"), runningMode: .video))
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .image, actual: .video)) {
            try video.classify(image: image)
        }
        let first = try video.classify(videoFrame: image, timestampInMilliseconds: 10)
        #expect(first.timestampInMilliseconds == 10)
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 10, given: 10)) {
            try video.classify(videoFrame: image, timestampInMilliseconds: 10)
        }
        let still = try ImageClassifier(options: Self.tinyOptions("tiny_meta.tflite"))
        let single = try still.classify(image: image)
        #expect(single.timestampInMilliseconds == nil)
        #expect(first.classifications == single.classifications)
        #expect(throws: VisionTaskError.self) {
            try ImageClassifier(
                options: ImageClassifierOptions(
                    baseOptions: BaseOptions(modelAssetPath: Self.directory + "/tiny_meta.tflite"),
                    runningMode: .liveStream))
        }
    }

    static func classifySynchronously(_ image: PixelImage) throws -> ImageClassifierResult {
        try ImageClassifier(options: tinyOptions("tiny_meta.tflite")).classify(image: image)
    }

    @Test func liveStreamAndAsyncForms() async throws {
        let image = try Self.image("tiny_quadrants.png")
        let reference = try Self.classifySynchronously(image)
        let live = try ImageClassifier(
            options: ImageClassifierOptions(
                baseOptions: BaseOptions(modelAssetPath: Self.directory + "/tiny_meta.tflite"),
                runningMode: .liveStream, resultHandler: { _ in }))
        let events = live.liveStreamResults()
        for t in 1...5 { try live.classifyAsync(image: image, timestampInMilliseconds: t) }
        live.close()
        var delivered: [Int] = []
        var answered: [Int] = []
        for await event in events {
            delivered.append(event.timestampInMilliseconds)
            switch event {
            case .result(let result, _, let t):
                answered.append(t)
                #expect(result.classifications == reference.classifications)
                #expect(result.timestampInMilliseconds == t)
            case .dropped: break
            case .failed(let error, let t): Issue.record("frame \(t) failed: \(error)")
            }
        }
        #expect(delivered == [1, 2, 3, 4, 5])
        // A frame may be dropped for a newer one, but the first and the newest are always answered.
        #expect(answered.first == 1 && answered.last == 5, "answered frames \(answered)")
        let asyncImage = try ImageClassifier(options: Self.tinyOptions("tiny_meta.tflite"))
        #expect(try await asyncImage.classify(image: image) == reference)
    }
}
