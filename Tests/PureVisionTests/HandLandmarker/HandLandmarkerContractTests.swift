import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Errors, running modes and the options beyond MediaPipe, on the real hand landmarker.
@Suite struct HandLandmarkerContractTests {
    static let bundle = Fixtures.model("hand_landmarker.task")

    static func photo() throws -> PixelImage {
        try PixelImage(contentsOfFile: Fixtures.testFile("PureVisionTests/Fixtures/hands/hand_dst_scale50.png"))
    }

    static func options(_ mode: RunningMode = .image) -> HandLandmarkerOptions {
        HandLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: bundle), runningMode: mode)
    }

    @Test func bundleWithAMissingEntryNamesIt() throws {
        let detector = try Fixtures.bytes(atPath: Fixtures.model("palm_detection_full.tflite"))
        let broken = StoredZip.archive([("hand_detector.tflite", detector)])
        var options = Self.options()
        options.baseOptions = BaseOptions(modelAssetBuffer: broken)
        #expect {
            try HandLandmarker(options: options)
        } throws: { error in
            "\(error)".contains("hand_landmarks_detector.tflite")
        }
        options.baseOptions = BaseOptions(modelAssetBuffer: detector)
        #expect(throws: VisionTaskError.self) { try HandLandmarker(options: options) }
        options.baseOptions = BaseOptions(modelAssetPath: "/nonexistent/hand_landmarker.task")
        #expect(throws: VisionTaskError.self) { try HandLandmarker(options: options) }
    }

    @Test func twoSeparateModelFilesWork() throws {
        var options = Self.options()
        options.baseOptions = BaseOptions()
        options.handDetectorModelPath = Fixtures.model("palm_detection_full.tflite")
        options.handLandmarksModelPath = Fixtures.model("hand_landmark_full.tflite")
        let separate = try HandLandmarker(options: options).detect(image: try Self.photo())
        let bundled = try HandLandmarker(options: Self.options()).detect(image: try Self.photo())
        #expect(separate == bundled)
        #expect(separate.landmarks.count == 1)
    }

    @Test func optionsOutOfRangeAreRejected() {
        for mutate: (inout HandLandmarkerOptions) -> Void in [
            { $0.numHands = 0 }, { $0.minHandDetectionConfidence = -0.1 }, { $0.minHandPresenceConfidence = 1.5 },
            { $0.minTrackingConfidence = 0 }, { $0.landmarkSmoothing = OneEuroFilterParameters(minCutoff: -1) },
        ] {
            var options = Self.options(.video)
            mutate(&options)
            #expect(throws: VisionTaskError.self) { try HandLandmarker(options: options) }
        }
    }

    @Test func wrongModeCallsAreErrors() throws {
        let image = try Self.photo()
        let landmarker = try HandLandmarker(options: Self.options(.video))
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .image, actual: .video)) {
            try landmarker.detect(image: image)
        }
        #expect(throws: VisionTaskError.regionOfInterestNotSupported) {
            try landmarker.detect(
                videoFrame: image, timestampInMilliseconds: 0,
                imageProcessingOptions: ImageProcessingOptions(
                    regionOfInterest: RectF(left: 0.1, top: 0.1, right: 0.9, bottom: 0.9)))
        }
        _ = try landmarker.detect(videoFrame: image, timestampInMilliseconds: 10)
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 10, given: 10)) {
            try landmarker.detect(videoFrame: image, timestampInMilliseconds: 10)
        }
    }

    @Test func mirroredInputReportsThePersonsHand() throws {
        let image = try Self.photo()
        let plain = try HandLandmarker(options: Self.options()).detect(image: image)
        var options = Self.options()
        options.isInputMirrored = true
        let mirrored = try HandLandmarker(options: options).detect(image: image)
        #expect(plain.handedness.first?.first?.categoryName == "Left")
        #expect(mirrored.handedness.first?.first?.categoryName == "Right")
        #expect(mirrored.handedness.first?.first?.index == 0)
        #expect(mirrored.handedness.first?.first?.score == plain.handedness.first?.first?.score)
        #expect(mirrored.landmarks == plain.landmarks)
    }

    /// Smoothing is off by default (parity); when on, the first frame passes through unchanged and later frames stay
    /// close to the raw landmarks (the tracked region settles over the first frames, which the filter lags).
    @Test func smoothingIsOptIn() throws {
        let image = try Self.photo()
        var options = Self.options(.video)
        let plain = try HandLandmarker(options: options)
        options.landmarkSmoothing = OneEuroFilterParameters()
        let smoothed = try HandLandmarker(options: options)
        for t in 0..<5 {
            let a = try plain.detect(videoFrame: image, timestampInMilliseconds: 33 * t)
            let b = try smoothed.detect(videoFrame: image, timestampInMilliseconds: 33 * t)
            #expect(a.landmarks.count == b.landmarks.count)
            let difference =
                zip(a.landmarks.first ?? [], b.landmarks.first ?? []).map { (p, q) -> Float in
                    let dx: Float = abs(p.x - q.x)
                    let dy: Float = abs(p.y - q.y)
                    return max(dx, dy)
                }.max() ?? 0
            if t == 0 { #expect(difference == 0) } else { #expect(difference <= 0.05) }
            #expect(a.worldLandmarks == b.worldLandmarks)
        }
    }

    /// Every submitted frame gets one event, in order, through the handler and through `liveStreamResults()`; none
    /// fails, the first and the newest are answered, and every answer finds the hand. The first frame (nothing
    /// tracked yet) equals VIDEO mode's first frame exactly.
    @Test func liveStreamDeliversEveryFrameInOrder() async throws {
        let image = try Self.photo()
        let log = HandEventLog()
        var options = Self.options(.liveStream)
        options.resultHandler = { log.append($0) }
        let landmarker = try HandLandmarker(options: options)
        let stream = landmarker.liveStreamResults()
        for t in 0..<30 { try landmarker.detectAsync(image: image, timestampInMilliseconds: t) }
        landmarker.close()
        let events = log.all
        #expect(events.map(\.timestampInMilliseconds) == Array(0..<30))
        var answered: [Int] = []
        for event in events {
            switch event {
            case .result(let result, _, let t):
                answered.append(t)
                #expect(result.landmarks.count == 1 && result.landmarks.first?.count == 21, "frame \(t)")
            case .dropped: break
            case .failed(let error, let t): Issue.record("frame \(t) failed: \(error)")
            }
        }
        #expect(answered.first == 0 && answered.last == 29, "answered frames \(answered)")
        let video = try HandLandmarker(options: Self.options(.video))
        // A synchronous context, so that the synchronous VIDEO form is the one called.
        let firstVideo = try { () throws -> HandLandmarkerResult in
            try video.detect(videoFrame: image, timestampInMilliseconds: 0)
        }()
        if case .result(let first, _, _) = events.first { #expect(first == firstVideo) }
        var streamed: [Int] = []
        for await event in stream {
            streamed.append(event.timestampInMilliseconds)
            if case .failed(let error, let t) = event { Issue.record("streamed frame \(t) failed: \(error)") }
        }
        #expect(streamed == Array(0..<30), "liveStreamResults() saw other events than the handler")
    }
}

final class HandEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [LiveStreamEvent<HandLandmarkerResult>] = []
    func append(_ value: LiveStreamEvent<HandLandmarkerResult>) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }
    var all: [LiveStreamEvent<HandLandmarkerResult>] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
