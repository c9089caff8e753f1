import Foundation
import PureVision
import PureVisionMLKit
import PureVisionTestSupport
import Testing

/// `PureVisionMLKit.ImageLabeler` gives the native `ImageClassifier`'s categories (EfficientNet-Lite0, ImageNet
/// labels) scoring at least the threshold, best first.
@Suite struct ImageLabelerCompatTests {
    static let photos = [
        "classifier/skimage_chelsea.png", "classifier/skimage_coffee.png", "classifier/opencvdoc_orange.png",
        "classifier/gcompris_polar_bear.png",
    ]
    static let model = Fixtures.model("efficientnet_lite0.tflite")

    static func native(threshold: Float, maxResults: Int = -1) throws -> ImageClassifier {
        try ImageClassifier(
            options: ImageClassifierOptions(
                baseOptions: BaseOptions(modelAssetPath: model), maxResults: maxResults, scoreThreshold: threshold))
    }

    static func expectSame(_ labels: [ImageLabel], _ native: ImageClassifierResult, _ what: String) {
        let categories = native.classifications.first?.categories ?? []
        #expect(labels.count == categories.count, "\(what)")
        for (label, category) in zip(labels, categories) {
            #expect(label.text == (category.displayName ?? category.categoryName), "\(what)")
            #expect(!label.text.isEmpty && label.confidence == category.score && label.index == category.index)
        }
    }

    @Test func defaultThresholdIsMLKits() throws {
        let options = ImageLabelerOptions()
        #expect(options.confidenceThreshold == nil)
        options.modelDirectory = MLKitFixtures.modelDirectory
        let labeler = ImageLabeler.imageLabeler(options: options)
        let native = try Self.native(threshold: 0.5)
        var labelled = 0
        for name in Self.photos {
            let labels = try labeler.results(in: try VisionImage(contentsOfFile: MLKitFixtures.photo(name)))
            Self.expectSame(labels, try native.classify(image: try MLKitFixtures.pixels(name)), name)
            #expect(labels.allSatisfy { $0.confidence >= 0.5 })
            labelled += labels.count
        }
        #expect(labelled > 0, "some photo has a label above 0.5: the test compares something")
    }

    @Test func thresholdIsTheOptions() throws {
        let options = ImageLabelerOptions()
        options.confidenceThreshold = 0.1
        options.modelDirectory = MLKitFixtures.modelDirectory
        let labeler = ImageLabeler.imageLabeler(options: options)
        let native = try Self.native(threshold: 0.1)
        for name in Self.photos {
            let labels = try labeler.results(in: try VisionImage(contentsOfFile: MLKitFixtures.photo(name)))
            Self.expectSame(labels, try native.classify(image: try MLKitFixtures.pixels(name)), name)
            #expect(!labels.isEmpty, "\(name)")
        }
    }

    @Test func customModelAndMaxResultCount() throws {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: Self.model))
        #expect(options.maxResultCount == 10)
        options.confidenceThreshold = 0
        options.maxResultCount = 3
        let labeler = ImageLabeler.imageLabeler(options: options)
        let native = try Self.native(threshold: 0, maxResults: 3)
        for name in Self.photos {
            let labels = try labeler.results(in: try VisionImage(contentsOfFile: MLKitFixtures.photo(name)))
            Self.expectSame(labels, try native.classify(image: try MLKitFixtures.pixels(name)), name)
            #expect(labels.count == 3)
        }
    }

    @Test func invalidOptionsAreReportedByTheCalls() async throws {
        let image = try VisionImage(contentsOfFile: MLKitFixtures.photo(Self.photos[0]))
        for threshold in [1.5, -0.1, Double.nan] {
            let options = ImageLabelerOptions()
            options.confidenceThreshold = NSNumber(value: threshold)
            options.modelDirectory = MLKitFixtures.modelDirectory
            #expect(throws: VisionTaskError.self) { try ImageLabeler.imageLabeler(options: options).results(in: image) }
        }
        let custom = CustomImageLabelerOptions(localModel: LocalModel(path: Self.model))
        custom.maxResultCount = 0
        let labeler = ImageLabeler.imageLabeler(options: custom)
        #expect(throws: VisionTaskError.invalidOption(name: "maxResultCount", reason: "must be ≥ 1, got 0")) {
            try labeler.results(in: image)
        }
        let outcome: Processed<[ImageLabel]> = await processed { labeler.process(image, completion: $0) }
        #expect(outcome.output == nil && outcome.error?.contains("maxResultCount") == true && outcome.onMainQueue)
    }

    @Test func processEqualsResults() async throws {
        let options = ImageLabelerOptions()
        options.modelDirectory = MLKitFixtures.modelDirectory
        let labeler = ImageLabeler.imageLabeler(options: options)
        let image = try VisionImage(contentsOfFile: MLKitFixtures.photo(Self.photos[0]))
        let outcome: Processed<[ImageLabel]> = await processed { labeler.process(image, completion: $0) }
        #expect(outcome.onMainQueue && outcome.error == nil)
        let synchronous = try labeler.results(in: image)
        #expect(outcome.output?.map(\.text) == synchronous.map(\.text) && !synchronous.isEmpty)
        #expect(outcome.output?.map(\.confidence) == synchronous.map(\.confidence))
        #expect(outcome.output?.map(\.index) == synchronous.map(\.index))
        let awaited = try await labeler.process(image)
        #expect(awaited.map(\.text) == synchronous.map(\.text) && awaited.map(\.index) == synchronous.map(\.index))
        #expect(awaited.map(\.confidence) == synchronous.map(\.confidence))
    }
}
