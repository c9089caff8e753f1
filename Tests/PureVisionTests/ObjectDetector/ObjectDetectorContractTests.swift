import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// The ObjectDetector's contract beyond the bundled model: a tiny SSD model with other metadata (sigmoid scores,
/// other scales, French display names) against MediaPipe, bad models and options as typed errors, and the running
/// modes. Models and goldens: `tools/make_detector_models.py`.
@Suite struct ObjectDetectorContractTests {
    static let directory = Fixtures.testFile("PureVisionTests/Fixtures/detector")

    static func options(_ model: String) -> ObjectDetectorOptions {
        ObjectDetectorOptions(baseOptions: BaseOptions(modelAssetPath: directory + "/" + model))
    }

    static func modelError(_ options: ObjectDetectorOptions) -> VisionTaskError? {
        do {
            _ = try ObjectDetector(options: options)
            return nil
        } catch {
            return error
        }
    }

    /// The tiny two-output model (anchors, decoding and suppression here).
    @Test func tinyModelMatchesMediaPipe() throws {
        try Self.expectGoldens("tiny_ssd.json", model: "tiny_ssd.tflite")
    }

    /// The tiny model ending in TFLite_Detection_PostProcess (two classes per detection).
    @Test func tinyModelWithInModelSuppressionMatchesMediaPipe() throws {
        try Self.expectGoldens("tiny_ssd_postprocess.json", model: "tiny_ssd_postprocess.tflite")
    }

    static func expectGoldens(_ file: String, model: String) throws {
        let data = try #require(FileManager.default.contents(atPath: Self.directory + "/" + file))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let runs = try #require(root["runs"] as? [[String: Any]])
        #expect(runs.count == 4)
        let image = try PixelImage(contentsOfFile: Self.directory + "/tiny_ssd_input.png")
        for run in runs {
            let o = run["options"] as? [String: Any] ?? [:]
            var options = Self.options(model)
            if let k = o["max_results"] as? Int { options.maxResults = k }
            if let t = o["score_threshold"] as? Double { options.scoreThreshold = Float(t) }
            if let l = o["display_names_locale"] as? String { options.displayNamesLocale = l }
            options.categoryAllowlist = o["category_allowlist"] as? [String] ?? []
            options.categoryDenylist = o["category_denylist"] as? [String] ?? []
            let ours = try ObjectDetector(options: options).detect(image: image).detections
            let reference = run["detections"] as? [[String: Any]] ?? []
            try #require(ours.count == reference.count, "\(o): \(ours.count) vs \(reference.count) detections")
            for (mine, theirs) in zip(ours, reference) {
                let box = theirs["box"] as? [Int] ?? []
                #expect(
                    [
                        mine.boundingBox.originX, mine.boundingBox.originY, mine.boundingBox.width,
                        mine.boundingBox.height,
                    ] == box, "\(o)")
                let categories = theirs["categories"] as? [[String: Any]] ?? []
                try #require(mine.categories.count == categories.count)
                for (c, t) in zip(mine.categories, categories) {
                    #expect(abs(c.score - Float(t["score"] as? Double ?? -1)) <= 1e-6, "\(o)")
                    #expect(c.categoryName == t["category_name"] as? String)
                    #expect(c.displayName == t["display_name"] as? String)
                }
                #expect(mine.keypoints.isEmpty)
            }
        }
    }

    @Test func labelsComeFromTheScoreTensor() throws {
        let detector = try ObjectDetector(modelPath: Fixtures.model("efficientdet_lite0.tflite"))
        #expect(detector.labels.names.count == 90)
        #expect(detector.labels.names.first == "person")
    }

    @Test func missingDetectorMetadataIsNamed() {
        #expect(
            Self.modelError(Self.options("tiny_ssd_no_detector_metadata.tflite"))
                == .missingMetadata(field: "DETECTOR_METADATA"))
        #expect(
            Self.modelError(Self.options("tiny_ssd_no_metadata.tflite")) == .missingMetadata(field: "TFLITE_METADATA"))
    }

    @Test func malformedDetectorMetadataIsAModelError() {
        guard case .model(let message) = Self.modelError(Self.options("tiny_ssd_malformed_detector_metadata.tflite"))
        else {
            Issue.record("expected a model error")
            return
        }
        #expect(message.contains("DETECTOR_METADATA"))
    }

    @Test func anchorsThatDoNotMatchAreRefused() {
        for model in ["tiny_ssd_anchor_count.tflite", "tiny_ssd_box_count.tflite"] {
            guard case .model(let message) = Self.modelError(Self.options(model)) else {
                Issue.record("\(model): expected a model error")
                continue
            }
            #expect(message.contains("anchors"), "\(model): \(message)")
        }
    }

    @Test func anotherTasksModelIsRefused() {
        // A classifier (one output), a face detector (two outputs, metadata without box properties), a bundle.
        guard
            case .model = Self.modelError(
                ObjectDetectorOptions(
                    baseOptions: BaseOptions(modelAssetPath: Fixtures.model("efficientnet_lite0.tflite"))))
        else {
            Issue.record("classifier accepted")
            return
        }
        #expect(
            Self.modelError(
                ObjectDetectorOptions(
                    baseOptions: BaseOptions(modelAssetPath: Fixtures.model("face_detection_short_range.tflite"))))
                == .missingMetadata(field: "BoundingBoxProperties of output 'raw boxes/keypoints'"))
        #expect(
            Self.modelError(
                ObjectDetectorOptions(baseOptions: BaseOptions(modelAssetPath: Fixtures.model("hand_landmarker.task"))))
                != nil)
    }

    @Test func invalidOptionsAreRefused() {
        var options = Self.options("tiny_ssd.tflite")
        options.maxResults = 0
        #expect(Self.modelError(options)?.description.contains("maxResults") == true)
        options = Self.options("tiny_ssd.tflite")
        options.categoryAllowlist = ["red"]
        options.categoryDenylist = ["blue"]
        #expect(Self.modelError(options)?.description.contains("mutually exclusive") == true)
    }

    @Test func regionOfInterestIsRefusedAndZeroSizedToo() throws {
        let detector = try ObjectDetector(options: Self.options("tiny_ssd.tflite"))
        let image = try PixelImage(contentsOfFile: Self.directory + "/tiny_ssd_input.png")
        #expect(throws: VisionTaskError.regionOfInterestNotSupported) {
            try detector.detect(
                image: image,
                imageProcessingOptions: ImageProcessingOptions(
                    regionOfInterest: RectF(left: 0.1, top: 0.1, right: 0.5, bottom: 0.5)))
        }
        #expect(throws: VisionTaskError.self) {
            try detector.detect(
                image: image,
                imageProcessingOptions: ImageProcessingOptions(
                    regionOfInterest: RectF(left: 0.5, top: 0.5, right: 0.5, bottom: 0.5)))
        }
    }

    @Test func videoAndLiveStreamModes() async throws {
        let image = try PixelImage(contentsOfFile: Self.directory + "/tiny_ssd_input.png")
        let reference = try await ObjectDetector(options: Self.options("tiny_ssd.tflite")).detect(image: image)
        var options = Self.options("tiny_ssd.tflite")
        options.runningMode = .video
        let video = try ObjectDetector(options: options)
        let frame = try await video.detect(videoFrame: image, timestampInMilliseconds: 10)
        #expect(frame.detections == reference.detections)
        #expect(frame.timestampInMilliseconds == 10)
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 10, given: 10)) {
            try video.detect(videoFrame: image, timestampInMilliseconds: 10)
        }
        let asyncFrame = try await video.detect(videoFrame: image, timestampInMilliseconds: 20)
        #expect(asyncFrame.detections == reference.detections)
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .image, actual: .video)) {
            try video.detect(image: image)
        }

        options.runningMode = .liveStream
        options.resultHandler = { _ in }
        let live = try ObjectDetector(options: options)
        let stream = live.liveStreamResults()
        try live.detectAsync(image: image, timestampInMilliseconds: 5)
        live.close()
        var events: [LiveStreamEvent<ObjectDetectorResult>] = []
        for await event in stream { events.append(event) }
        #expect(events.count == 1)
        if case .result(let result, _, let timestamp) = events.first {
            #expect(result.detections == reference.detections)
            #expect(timestamp == 5)
            #expect(result.timestampInMilliseconds == 5)
        } else {
            Issue.record("expected a result event")
        }
    }
}
