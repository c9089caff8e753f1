import Foundation
import PureVision
import PureVisionMediaPipe
import PureVisionTestSupport
import Testing

/// `PureVisionMediaPipe.GestureRecognizer` gives exactly PureVision's gestures and hands in MediaPipe's types, in all
/// three running modes; MediaPipe's `ClassifierOptions` reach the classifiers as MediaPipe sends them.
@Suite struct GestureRecognizerCompatTests {
    static func expectSame(
        _ compat: PureVisionMediaPipe.GestureRecognizerResult, _ native: PureVision.GestureRecognizerResult,
        timestamp: Int, _ what: String
    ) {
        #expect(compat.timestampInMilliseconds == timestamp, "\(what)")
        #expect(compat.gestures == native.gestures, "\(what): gestures")
        #expect(compat.handedness == native.handedness, "\(what): handedness")
        #expect(sameLandmarks(compat.landmarks, native.landmarks), "\(what): landmarks")
        #expect(sameLandmarks(compat.worldLandmarks, native.worldLandmarks), "\(what): world landmarks")
    }

    static func options(_ mode: PureVision.RunningMode) -> PureVisionMediaPipe.GestureRecognizerOptions {
        let options = PureVisionMediaPipe.GestureRecognizerOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.gestureBundle
        options.runningMode = mode
        return options
    }

    static func nativeOptions(
        _ mode: PureVision.RunningMode, numHands: Int = 1, canned: GestureClassifierOptions = .init()
    ) -> PureVision.GestureRecognizerOptions {
        .init(
            baseOptions: .init(modelAssetPath: CompatFixtures.gestureBundle), runningMode: mode, numHands: numHands,
            cannedGesturesClassifierOptions: canned)
    }

    @Test func defaultsAreMediaPipes() {
        let options = PureVisionMediaPipe.GestureRecognizerOptions()
        #expect(options.runningMode == .image && options.numHands == 1)
        #expect(
            options.minHandDetectionConfidence == 0.5 && options.minHandPresenceConfidence == 0.5
                && options.minTrackingConfidence == 0.5)
        #expect(options.cannedGesturesClassifierOptions == nil && options.customGesturesClassifierOptions == nil)
        #expect(options.gestureRecognizerLiveStreamDelegate == nil)
        let classifier = ClassifierOptions()
        #expect(classifier.displayNamesLocale == nil && classifier.maxResults == -1 && classifier.scoreThreshold == 0)
        #expect(classifier.categoryAllowlist == nil && classifier.categoryDenylist == nil)
    }

    @Test func imageModeEqualsNative() throws {
        let options = Self.options(.image)
        options.numHands = 2
        let recognizer = try PureVisionMediaPipe.GestureRecognizer(options: options)
        let native = try PureVision.GestureRecognizer(options: Self.nativeOptions(.image, numHands: 2))
        var gestures = 0
        for name in CompatFixtures.handPhotos {
            let path = CompatFixtures.photo(name)
            let result = try recognizer.recognize(image: try MPImage(contentsOfFile: path))
            Self.expectSame(
                result, try native.recognize(image: try PixelImage(contentsOfFile: path)), timestamp: 0, name)
            #expect(result.gestures.allSatisfy { $0.count == 1 && $0[0].index == -1 }, "\(name): MediaPipe's index")
            gestures += result.gestures.count
        }
        #expect(gestures >= CompatFixtures.handPhotos.count, "the photos show hands: the test compares something")
    }

    @Test func classifierOptionsReachTheCannedClassifier() throws {
        let options = Self.options(.image)
        options.numHands = 2
        let canned = ClassifierOptions()
        canned.scoreThreshold = 0.6
        canned.categoryDenylist = ["None"]
        options.cannedGesturesClassifierOptions = canned
        let recognizer = try PureVisionMediaPipe.GestureRecognizer(options: options)
        let native = try PureVision.GestureRecognizer(
            options: Self.nativeOptions(
                .image, numHands: 2, canned: GestureClassifierOptions(scoreThreshold: 0.6, categoryDenylist: ["None"])))
        for name in CompatFixtures.handPhotos {
            let path = CompatFixtures.photo(name)
            let result = try recognizer.recognize(image: try MPImage(contentsOfFile: path))
            Self.expectSame(
                result, try native.recognize(image: try PixelImage(contentsOfFile: path)), timestamp: 0, name)
            #expect(result.gestures.joined().allSatisfy { $0.categoryName != "None" && $0.score >= 0.6 }, "\(name)")
        }
        canned.categoryAllowlist = ["Victory"]
        #expect(throws: VisionTaskError.self, "an allowlist and a denylist") {
            try PureVisionMediaPipe.GestureRecognizer(options: options)
        }
    }

    @Test func videoModeEqualsNative() throws {
        let recognizer = try PureVisionMediaPipe.GestureRecognizer(options: Self.options(.video))
        let native = try PureVision.GestureRecognizer(options: Self.nativeOptions(.video))
        for (index, name) in CompatFixtures.videoFrames.enumerated() {
            let path = CompatFixtures.photo(name)
            Self.expectSame(
                try recognizer.recognize(
                    videoFrame: try MPImage(contentsOfFile: path), timestampInMilliseconds: index * 33),
                try native.recognize(
                    videoFrame: try PixelImage(contentsOfFile: path), timestampInMilliseconds: index * 33),
                timestamp: index * 33, name)
        }
        #expect(throws: VisionTaskError.self, "image mode call on a video recognizer") {
            try recognizer.recognize(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(CompatFixtures.videoFrames[0])))
        }
    }

    /// Collects what the delegate receives.
    final class Recorder: GestureRecognizerLiveStreamDelegate, @unchecked Sendable {
        let lock = NSLock()
        var received: [(result: PureVisionMediaPipe.GestureRecognizerResult?, timestamp: Int, error: (any Error)?)] =
            []
        var count: Int { lock.withLock { received.count } }

        func gestureRecognizer(
            _ gestureRecognizer: PureVisionMediaPipe.GestureRecognizer,
            didFinishGestureRecognition result: PureVisionMediaPipe.GestureRecognizerResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            lock.withLock { received.append((result, timestampInMilliseconds, error)) }
        }
    }

    @Test func liveStreamDelegateGetsTheVideoResults() throws {
        let recorder = Recorder()
        let options = Self.options(.liveStream)
        options.gestureRecognizerLiveStreamDelegate = recorder
        let recognizer = try PureVisionMediaPipe.GestureRecognizer(options: options)
        let native = try PureVision.GestureRecognizer(options: Self.nativeOptions(.video))
        let frames = Array(CompatFixtures.videoFrames.prefix(6))
        // One frame at a time, so none is dropped and the tracking sees what video mode sees.
        for (index, name) in frames.enumerated() {
            try recognizer.recognizeAsync(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(name)), timestampInMilliseconds: index * 33)
            #expect(waitUntil { recorder.count == index + 1 }, "result \(index) delivered")
        }
        recognizer.close()
        let received = recorder.lock.withLock { recorder.received }
        #expect(received.map(\.timestamp) == frames.indices.map { $0 * 33 })
        for (index, name) in frames.enumerated() where index < received.count {
            let expected = try native.recognize(
                videoFrame: try PixelImage(contentsOfFile: CompatFixtures.photo(name)),
                timestampInMilliseconds: index * 33)
            #expect(received[index].error == nil)
            if let result = received[index].result {
                Self.expectSame(result, expected, timestamp: index * 33, name)
            } else {
                Issue.record("frame \(index): no result")
            }
        }
    }

    @Test func delegateIsHeldWeaklyAndRequiredOnlyInLiveStream() throws {
        let options = Self.options(.image)
        var recorder: Recorder? = Recorder()
        options.gestureRecognizerLiveStreamDelegate = recorder
        #expect(throws: VisionTaskError.self, "a delegate in image mode") {
            try PureVisionMediaPipe.GestureRecognizer(options: options)
        }
        recorder = nil
        #expect(options.gestureRecognizerLiveStreamDelegate == nil, "the options hold the delegate weakly")
        options.runningMode = .liveStream
        #expect(throws: VisionTaskError.self, "no delegate in live-stream mode") {
            try PureVisionMediaPipe.GestureRecognizer(options: options)
        }
        #expect(throws: VisionTaskError.self, "a hand landmarker bundle is not a gesture bundle") {
            try PureVisionMediaPipe.GestureRecognizer(modelPath: CompatFixtures.handBundle)
        }
    }
}
