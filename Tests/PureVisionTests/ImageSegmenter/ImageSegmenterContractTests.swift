import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Options, metadata handling, refusals and the running-mode contract of `ImageSegmenter`.
@Suite struct ImageSegmenterContractTests {
    static let directory = Fixtures.testFile("PureVisionTests/Fixtures/segmenter")
    static let selfie = BaseOptions(modelAssetPath: Fixtures.model("selfie_segmenter.tflite"))

    static func photo(_ name: String = "fr_obama.png") throws -> PixelImage {
        try PixelImage(contentsOfFile: directory + "/" + name)
    }

    static var root: [String: Any] {
        guard let data = FileManager.default.contents(atPath: directory + "/segmenter.json"),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return root
    }

    @Test func defaultsAreMediaPipes() {
        let options = ImageSegmenterOptions(baseOptions: Self.selfie)
        #expect(options.outputCategoryMask == false)
        #expect(options.outputConfidenceMasks == true)
        #expect(options.displayNamesLocale == "en")
        #expect(options.runningMode == .image)
    }

    @Test func defaultOptionsGiveConfidenceMasksOnly() throws {
        let segmenter = try ImageSegmenter(modelPath: Fixtures.model("selfie_segmenter.tflite"))
        let result = try segmenter.segment(image: try Self.photo())
        #expect(result.categoryMask == nil)
        #expect(result.confidenceMasks?.count == 1)
        #expect(segmenter.labels == ["selfie"])
    }

    @Test func categoryOnlyGivesNoConfidenceMasks() throws {
        let segmenter = try ImageSegmenter(
            options: ImageSegmenterOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("deeplab_v3.tflite")), outputCategoryMask: true,
                outputConfidenceMasks: false))
        let result = try segmenter.segment(image: try Self.photo("skimage_chelsea.png"))
        #expect(result.confidenceMasks == nil)
        #expect(result.categoryMask?.width == 160)
        #expect(segmenter.labels.count == 21 && segmenter.labels[8] == "cat")
    }

    @Test func neitherMaskIsAnError() {
        // MediaPipe 0.10.14 (Python) refuses it too; its message is in segmenter.json "errors".
        #expect((Self.root["errors"] as? [String: Any])?["no_output"] as? String != nil)
        #expect(
            throws: VisionTaskError.invalidOption(
                name: "outputConfidenceMasks",
                reason: "At least one of `outputConfidenceMasks` and `outputCategoryMask` must be set.")
        ) {
            _ = try ImageSegmenter(
                options: ImageSegmenterOptions(
                    baseOptions: Self.selfie, outputCategoryMask: false, outputConfidenceMasks: false))
        }
    }

    @Test func regionOfInterestIsRefusedAsInMediaPipe() throws {
        let recorded = (Self.root["errors"] as? [String: Any])?["region_of_interest"] as? String ?? ""
        #expect(recorded.contains(VisionTaskError.regionOfInterestNotSupported.description))
        let segmenter = try ImageSegmenter(options: ImageSegmenterOptions(baseOptions: Self.selfie))
        let options = ImageProcessingOptions(regionOfInterest: RectF(left: 0.1, top: 0.1, right: 0.9, bottom: 0.9))
        #expect(throws: VisionTaskError.regionOfInterestNotSupported) {
            _ = try segmenter.segment(image: try Self.photo(), imageProcessingOptions: options)
        }
        #expect(throws: VisionTaskError.self) {
            _ = try segmenter.segment(image: try Self.photo(), imageProcessingOptions: .init(rotationDegrees: 45))
        }
    }

    /// No metadata: input range [0, 1], no labels, no activation; at the tensor's own size the confidence masks
    /// are the raw output (LiteRT's, from the golden script) class by class.
    @Test func modelWithoutMetadataRunsWithIndicesOnly() throws {
        let tiny = Self.root["tiny_nometa"] as? [String: Any] ?? [:]
        let segmenter = try ImageSegmenter(
            options: ImageSegmenterOptions(
                baseOptions: BaseOptions(modelAssetPath: Self.directory + "/" + (tiny["model"] as? String ?? "")),
                outputCategoryMask: true))
        #expect(segmenter.labels.isEmpty)
        #expect(segmenter.classCount == 4)
        let result = try segmenter.segment(image: try Self.photo(tiny["image"] as? String ?? ""))
        let expected = try Fixtures.numpy(atPath: Self.directory + "/" + (tiny["output"] as? String ?? ""))
        #expect(expected.shape.dimensions == [8, 8, 4])
        let masks = try #require(result.confidenceMasks)
        #expect(masks.count == 4)
        let values = expected.floats
        for (c, mask) in masks.enumerated() {
            #expect(mask.width == 8 && mask.height == 8)
            for p in 0..<64 {
                #expect(abs(mask.values[p] - values[p * 4 + c]) <= 1e-5, "class \(c) pixel \(p)")
            }
        }
        let category = try #require(result.categoryMask)
        for p in 0..<64 {
            let scores = (0..<4).map { values[p * 4 + $0] }
            let best = scores.indices.max { scores[$0] < scores[$1] } ?? 0
            #expect(Int(category.values[p]) == best || scores[Int(category.values[p])] == scores[best])
        }
    }

    /// A `.task` bundle, a classifier (rank-2 output) and a model with an unknown custom operator. (A detector
    /// whose last output happens to be `[1, N, 1]` is image-like to MediaPipe's shape check too, and runs.)
    @Test func refusesOtherKindsOfModels() {
        let unknownCustom = Fixtures.testFile("PureVisionEngineTests/Fixtures/ops/custom_op.tflite")
        for path in [
            Fixtures.model("hand_landmarker.task"), Fixtures.model("efficientnet_lite0.tflite"), unknownCustom,
        ] {
            #expect(throws: VisionTaskError.self, "\(path)") { _ = try ImageSegmenter(modelPath: path) }
        }
        #expect(throws: VisionTaskError.self) { _ = try ImageSegmenter(modelPath: Self.directory + "/missing.tflite") }
    }

    // MARK: Running modes

    @Test func videoModeMatchesImageMode() throws {
        let image = try Self.photo()
        let still = try ImageSegmenter(
            options: ImageSegmenterOptions(baseOptions: Self.selfie, outputCategoryMask: true))
        let expected = try still.segment(image: image)
        let video = try ImageSegmenter(
            options: ImageSegmenterOptions(baseOptions: Self.selfie, runningMode: .video, outputCategoryMask: true))
        let first = try video.segment(videoFrame: image, timestampInMilliseconds: 10)
        #expect(first.timestampInMilliseconds == 10)
        #expect(first.categoryMask == expected.categoryMask)
        #expect(first.confidenceMasks == expected.confidenceMasks)
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 10, given: 10)) {
            _ = try video.segment(videoFrame: image, timestampInMilliseconds: 10)
        }
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .image, actual: .video)) {
            _ = try video.segment(image: image)
        }
    }

    /// The synchronous call (inside an `async` function the async overload would be chosen).
    static func segmentNow(_ segmenter: ImageSegmenter, _ image: PixelImage) throws -> ImageSegmenterResult {
        try segmenter.segment(image: image)
    }

    @Test func asyncFormsAndLiveStream() async throws {
        let image = try Self.photo()
        let still = try ImageSegmenter(options: ImageSegmenterOptions(baseOptions: Self.selfie))
        let expected = try Self.segmentNow(still, image)
        let asyncResult = try await still.segment(image: image, imageProcessingOptions: nil)
        #expect(asyncResult == expected)

        let live = try ImageSegmenter(
            options: ImageSegmenterOptions(
                baseOptions: Self.selfie, runningMode: .liveStream, resultHandler: { _ in }))
        let stream = live.liveStreamResults()
        try live.segmentAsync(image: image, timestampInMilliseconds: 1)
        live.close()
        var events: [LiveStreamEvent<ImageSegmenterResult>] = []
        for await event in stream { events.append(event) }
        #expect(events.count == 1)
        if case .result(let result, _, let timestamp) = events.first {
            #expect(timestamp == 1)
            #expect(result.confidenceMasks == expected.confidenceMasks)
        } else {
            Issue.record("expected a result, got \(events)")
        }
    }
}
