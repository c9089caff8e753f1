import Foundation
import PureVision
import PureVisionImage
import PureVisionTFLite
import PureVisionTestSupport
import Testing

/// Bad bundles (typed errors naming the entry), options, running modes and the async / live-stream forms, on the real
/// gesture recognizer bundles.
@Suite struct GestureRecognizerContractTests {
    static let bundle = Fixtures.model("gesture_recognizer.task")
    static let customBundle = Fixtures.model("gesture_recognizer_custom.task")
    static let wrongClassifier = Fixtures.testFile(
        "PureVisionTests/Fixtures/gestures/classifier_5_outputs_8_labels.tflite")

    static func photo() throws -> PixelImage {
        try PixelImage(contentsOfFile: Fixtures.testFile("PureVisionTests/Fixtures/hands/hand_dst_scale50.png"))
    }

    static func options(_ mode: RunningMode = .image, buffer: [UInt8]? = nil) -> GestureRecognizerOptions {
        GestureRecognizerOptions(
            baseOptions: buffer.map { BaseOptions(modelAssetBuffer: $0) } ?? BaseOptions(modelAssetPath: bundle),
            runningMode: mode)
    }

    /// The entries of the official bundle: the nested hand landmarker bundle and the gesture bundle's models.
    static func parts() throws -> (hand: [UInt8], embedder: [UInt8], canned: [UInt8]) {
        let outer = try ZipArchive(bytes: try Fixtures.bytes(atPath: bundle))
        let inner = try outer.nestedArchive(named: "hand_gesture_recognizer.task")
        return (
            Array(try outer.data(named: "hand_landmarker.task")),
            Array(try inner.data(named: "gesture_embedder.tflite")),
            Array(try inner.data(named: "canned_gesture_classifier.tflite"))
        )
    }

    /// A bundle laid out as MediaPipe's (leading bytes before each ZIP included) from the given gesture entries.
    static func bundle(hand: [UInt8], gestureEntries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        let inner = [0, 0, 0] + StoredZip.archive(gestureEntries)
        return [0, 0] + StoredZip.archive([("hand_landmarker.task", hand), ("hand_gesture_recognizer.task", inner)])
    }

    /// Expects `VisionTaskError.model` whose message names every one of `names`.
    static func expectModelError(
        _ buffer: [UInt8], naming names: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try GestureRecognizer(options: options(buffer: buffer))
            Issue.record("the bundle was accepted", sourceLocation: sourceLocation)
        } catch {
            guard case .model(let message) = error else {
                Issue.record("\(error) is not a model error", sourceLocation: sourceLocation)
                return
            }
            for name in names {
                #expect(message.contains(name), "\(message) does not name \(name)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func rebuiltBundleWorksAndTheCustomClassifierIsOptional() throws {
        let (hand, embedder, canned) = try Self.parts()
        let rebuilt = Self.bundle(
            hand: hand,
            gestureEntries: [("gesture_embedder.tflite", embedder), ("canned_gesture_classifier.tflite", canned)])
        let recognizer = try GestureRecognizer(options: Self.options(buffer: rebuilt))
        #expect(!recognizer.hasCustomClassifier)
        let official = try GestureRecognizer(modelPath: Self.bundle)
        #expect(try recognizer.recognize(image: try Self.photo()) == official.recognize(image: try Self.photo()))
        #expect(try GestureRecognizer(modelPath: Self.customBundle).hasCustomClassifier)
    }

    @Test func bundleWithoutTheClassifierNamesIt() throws {
        let (hand, embedder, _) = try Self.parts()
        Self.expectModelError(
            Self.bundle(hand: hand, gestureEntries: [("gesture_embedder.tflite", embedder)]),
            naming: ["canned_gesture_classifier.tflite", "hand_gesture_recognizer.task"])
        let (_, _, canned) = try Self.parts()
        Self.expectModelError(
            Self.bundle(hand: hand, gestureEntries: [("canned_gesture_classifier.tflite", canned)]),
            naming: ["gesture_embedder.tflite"])
    }

    @Test func classifierWithTheWrongOutputSizeIsRefused() throws {
        let (hand, embedder, _) = try Self.parts()
        let wrong = try Fixtures.bytes(atPath: Self.wrongClassifier)
        Self.expectModelError(
            Self.bundle(
                hand: hand,
                gestureEntries: [("gesture_embedder.tflite", embedder), ("canned_gesture_classifier.tflite", wrong)]),
            naming: ["canned_gesture_classifier.tflite", "5 classes", "8 labels"])
        // A custom classifier of that shape is refused the same way, and so is a model that does not take the
        // embedder's 128 values (the palm detector).
        let (_, _, canned) = try Self.parts()
        Self.expectModelError(
            Self.bundle(
                hand: hand,
                gestureEntries: [
                    ("gesture_embedder.tflite", embedder), ("canned_gesture_classifier.tflite", canned),
                    ("custom_gesture_classifier.tflite", wrong),
                ]),
            naming: ["custom_gesture_classifier.tflite", "5 classes"])
        let palm = Array(try ZipArchive(bytes: hand).data(named: "hand_detector.tflite"))
        Self.expectModelError(
            Self.bundle(
                hand: hand,
                gestureEntries: [("gesture_embedder.tflite", embedder), ("canned_gesture_classifier.tflite", palm)]),
            naming: ["canned_gesture_classifier.tflite", "128"])
        // The embedder in the classifier's place, and a classifier in the embedder's.
        Self.expectModelError(
            Self.bundle(
                hand: hand,
                gestureEntries: [("gesture_embedder.tflite", canned), ("canned_gesture_classifier.tflite", canned)]),
            naming: ["gesture_embedder.tflite"])
    }

    @Test func damagedNestedZipNamesTheEntry() throws {
        // A flipped byte inside the nested archive: the outer entry's checksum catches it.
        var damaged = try Fixtures.bytes(atPath: Self.bundle)
        let outer = try ZipArchive(bytes: damaged)
        let entry = try #require(outer.entries.first { $0.name == "hand_gesture_recognizer.task" })
        damaged[entry.dataRange.lowerBound + 1000] ^= 0x5A
        Self.expectModelError(damaged, naming: ["hand_gesture_recognizer.task", "CRC-32"])

        // A nested archive cut short (consistent outer checksum): no end of central directory record.
        let (hand, embedder, canned) = try Self.parts()
        let inner =
            [0, 0, 0]
            + StoredZip.archive([
                ("gesture_embedder.tflite", embedder), ("canned_gesture_classifier.tflite", canned),
            ])
        let truncated = StoredZip.archive([
            ("hand_landmarker.task", hand), ("hand_gesture_recognizer.task", Array(inner.dropLast(30))),
        ])
        Self.expectModelError(truncated, naming: ["hand_gesture_recognizer.task", "malformed zip"])

        // A damaged nested hand landmarker bundle: its own missing entry is named.
        let brokenHand = StoredZip.archive([
            ("hand_detector.tflite", Array(try ZipArchive(bytes: hand).data(named: "hand_detector.tflite")))
        ])
        Self.expectModelError(
            StoredZip.archive([("hand_landmarker.task", brokenHand), ("hand_gesture_recognizer.task", inner)]),
            naming: ["hand_landmarker.task", "hand_landmarks_detector.tflite"])

        // Not a ZIP at all.
        Self.expectModelError(Array(repeating: 7, count: 100), naming: ["gesture recognizer bundle"])
    }

    @Test func anotherTasksBundleNamesTheMissingEntry() throws {
        // The hand landmarker's bundle, and a classifier whose appended labels ZIP holds labels.txt only.
        for other in ["hand_landmarker.task", "efficientnet_lite0.tflite"] {
            Self.expectModelError(
                try Fixtures.bytes(atPath: Fixtures.model(other)), naming: ["hand_landmarker.task"])
        }
        // A bundle that has the hand landmarker but no gesture models.
        let (hand, _, _) = try Self.parts()
        Self.expectModelError(
            StoredZip.archive([("hand_landmarker.task", hand)]), naming: ["hand_gesture_recognizer.task"])
    }

    @Test func optionsOutOfRangeAreRejected() throws {
        for mutate: (inout GestureRecognizerOptions) -> Void in [
            { $0.numHands = 0 }, { $0.minHandDetectionConfidence = -0.1 }, { $0.minHandPresenceConfidence = 1.5 },
            { $0.minTrackingConfidence = 0 }, { $0.cannedGesturesClassifierOptions.maxResults = 0 },
            { $0.customGesturesClassifierOptions.scoreThreshold = .nan },
            {
                $0.cannedGesturesClassifierOptions.categoryAllowlist = ["Thumb_Up"]
                $0.cannedGesturesClassifierOptions.categoryDenylist = ["None"]
            },
        ] {
            var options = Self.options()
            mutate(&options)
            #expect(throws: VisionTaskError.self) { try GestureRecognizer(options: options) }
        }
        // The Model Maker bundle's canned classifier has no labels, so it cannot be filtered by name.
        var options = Self.options()
        options.baseOptions = BaseOptions(modelAssetPath: Self.customBundle)
        options.cannedGesturesClassifierOptions.categoryAllowlist = ["Thumb_Up"]
        #expect {
            try GestureRecognizer(options: options)
        } throws: { error in
            guard case VisionTaskError.invalidOption(let name, let reason) = error else { return false }
            return name == "categoryAllowlist" && reason.contains("canned_gesture_classifier.tflite")
        }
    }

    @Test func wrongModeCallsAndRegionsOfInterestAreErrors() throws {
        let image = try Self.photo()
        let recognizer = try GestureRecognizer(options: Self.options(.video))
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .image, actual: .video)) {
            try recognizer.recognize(image: image)
        }
        #expect(throws: VisionTaskError.regionOfInterestNotSupported) {
            try recognizer.recognize(
                videoFrame: image, timestampInMilliseconds: 0,
                imageProcessingOptions: ImageProcessingOptions(
                    regionOfInterest: RectF(left: 0.1, top: 0.1, right: 0.9, bottom: 0.9)))
        }
        _ = try recognizer.recognize(videoFrame: image, timestampInMilliseconds: 10)
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 10, given: 10)) {
            try recognizer.recognize(videoFrame: image, timestampInMilliseconds: 10)
        }
        var live = Self.options(.liveStream)
        #expect(throws: VisionTaskError.self) { try GestureRecognizer(options: live) }
        live.resultHandler = { _ in }
        #expect(throws: VisionTaskError.self) {
            try GestureRecognizer(options: Self.options(.image).with(handler: live.resultHandler))
        }
    }

    @Test func handsAndGesturesLineUp() throws {
        let result = try GestureRecognizer(modelPath: Self.bundle).recognize(image: try Self.photo())
        #expect(result.landmarks.count == 1)
        #expect(result.gestures.count == 1)
        #expect(result.gestureHandIndices == [0])
        let hand = try #require(result.hands.first)
        #expect(hand.gestures == result.gestures[0])
        #expect(hand.gestures.first?.index == -1)
        #expect(hand.handedness == result.handedness[0].first)
        // No hand: four empty lists.
        let blank = try PixelImage(
            width: 64, height: 48, format: .rgb8, pixels: Array(repeating: 90, count: 64 * 48 * 3))
        let empty = try GestureRecognizer(modelPath: Self.bundle).recognize(image: blank)
        #expect(
            empty.gestures.isEmpty && empty.handedness.isEmpty && empty.landmarks.isEmpty
                && empty.worldLandmarks.isEmpty)
        // A threshold no class reaches drops the gesture, and with it (MediaPipe's rule) the whole result.
        var options = Self.options()
        options.cannedGesturesClassifierOptions.scoreThreshold = 1.5
        let none = try GestureRecognizer(options: options).recognize(image: try Self.photo())
        #expect(none.gestures.isEmpty && none.landmarks.isEmpty)
    }

    /// The synchronous call, out of an async context (where the async overload would be chosen).
    static func recognizeNow(_ image: PixelImage) throws -> GestureRecognizerResult {
        try GestureRecognizer(modelPath: bundle).recognize(image: image)
    }

    @Test func asyncFormsMatchTheSynchronousOnes() async throws {
        let image = try Self.photo()
        let sync = try Self.recognizeNow(image)
        let asyncImage = try await GestureRecognizer(modelPath: Self.bundle).recognize(image: image)
        #expect(asyncImage == sync)
        let video = try GestureRecognizer(options: Self.options(.video))
        let frame = try await video.recognize(videoFrame: image, timestampInMilliseconds: 5)
        #expect(frame.gestures == sync.gestures && frame.timestampInMilliseconds == 5)
    }

    @Test func liveStreamDeliversEveryFrameInOrderOnTheStream() async throws {
        let image = try Self.photo()
        var options = Self.options(.liveStream)
        options.resultHandler = { _ in }
        let recognizer = try GestureRecognizer(options: options)
        let stream = recognizer.liveStreamResults()
        for t in 0..<8 { try recognizer.recognizeAsync(image: image, timestampInMilliseconds: t) }
        recognizer.close()
        var timestamps: [Int] = []
        var gestures = 0
        for await event in stream {
            timestamps.append(event.timestampInMilliseconds)
            if case .result(let result, _, _) = event { gestures += result.gestures.count }
        }
        #expect(timestamps == Array(0..<8))
        #expect(gestures >= 1)
    }
}

extension GestureRecognizerOptions {
    fileprivate func with(handler: (@Sendable (LiveStreamEvent<GestureRecognizerResult>) -> Void)?) -> Self {
        var copy = self
        copy.resultHandler = handler
        return copy
    }
}
