import Foundation
import PureVision
import PureVisionImage
import PureVisionTFLite
import PureVisionTestSupport
import Testing

/// Errors, running modes and API shape of the pose landmarker on the real bundle.
@Suite struct PoseLandmarkerContractTests {
    static let bundle = Fixtures.model("pose_landmarker_full.task")

    static func photo() throws -> PixelImage {
        try PixelImage(contentsOfFile: Fixtures.testFile("PureVisionTests/Fixtures/pose/basketball_scale50.png"))
    }

    static func options(_ mode: RunningMode = .image) -> PoseLandmarkerOptions {
        PoseLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: bundle), runningMode: mode)
    }

    static func entries() throws -> (detector: [UInt8], landmarks: [UInt8]) {
        let archive = try ZipArchive(bytes: try Fixtures.bytes(atPath: bundle))
        return (
            Array(try archive.data(named: "pose_detector.tflite")),
            Array(try archive.data(named: "pose_landmarks_detector.tflite"))
        )
    }

    static func refusal(_ bytes: [UInt8]) -> VisionTaskError? {
        var options = options()
        options.baseOptions = BaseOptions(modelAssetBuffer: bytes)
        do {
            _ = try PoseLandmarker(options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func bundleWithAMissingEntryNamesIt() throws {
        let (detector, landmarks) = try Self.entries()
        let withoutLandmarks = Self.refusal(StoredZip.archive([("pose_detector.tflite", detector)]))
        #expect("\(withoutLandmarks.map { "\($0)" } ?? "accepted")".contains("pose_landmarks_detector.tflite"))
        let withoutDetector = Self.refusal(StoredZip.archive([("pose_landmarks_detector.tflite", landmarks)]))
        #expect("\(withoutDetector.map { "\($0)" } ?? "accepted")".contains("pose_detector.tflite"))
        // A bare model is not a bundle.
        #expect(Self.refusal(detector) != nil)
        var options = Self.options()
        options.baseOptions = BaseOptions(modelAssetPath: "/nonexistent/pose_landmarker.task")
        #expect(throws: VisionTaskError.self) { try PoseLandmarker(options: options) }
    }

    @Test func anotherTasksBundleIsRefused() throws {
        let hands = try Fixtures.bytes(atPath: Fixtures.model("hand_landmarker.task"))
        let error = try #require(Self.refusal(hands))
        #expect("\(error)".contains("pose_detector.tflite"))
    }

    @Test func modelsOfTheWrongShapeAreRefused() throws {
        let (detector, landmarks) = try Self.entries()
        let palm = try Fixtures.bytes(atPath: Fixtures.model("palm_detection_full.tflite"))
        let hand = try Fixtures.bytes(atPath: Fixtures.model("hand_landmark_full.tflite"))
        let wrongDetector = try #require(
            Self.refusal(
                StoredZip.archive([("pose_detector.tflite", palm), ("pose_landmarks_detector.tflite", landmarks)])))
        #expect("\(wrongDetector)".contains("224"))
        let wrongLandmarks = try #require(
            Self.refusal(
                StoredZip.archive([("pose_detector.tflite", detector), ("pose_landmarks_detector.tflite", hand)])))
        #expect("\(wrongLandmarks)".contains("pose landmark model"))
        // The two entries swapped.
        #expect(
            Self.refusal(
                StoredZip.archive([("pose_detector.tflite", landmarks), ("pose_landmarks_detector.tflite", detector)]))
                != nil)
    }

    @Test func optionsOutOfRangeAreRejected() {
        for mutate: (inout PoseLandmarkerOptions) -> Void in [
            { $0.numPoses = 0 }, { $0.minPoseDetectionConfidence = -0.1 }, { $0.minPosePresenceConfidence = 1.5 },
            { $0.minTrackingConfidence = -1 }, { $0.minPoseDetectionConfidence = .nan },
        ] {
            var options = Self.options(.video)
            mutate(&options)
            #expect(throws: VisionTaskError.self) { try PoseLandmarker(options: options) }
        }
    }

    @Test func defaultsAreMediaPipes() {
        let options = Self.options()
        #expect(options.runningMode == .image)
        #expect(options.numPoses == 1)
        #expect(options.minPoseDetectionConfidence == 0.5)
        #expect(options.minPosePresenceConfidence == 0.5)
        #expect(options.minTrackingConfidence == 0.5)
        #expect(options.outputSegmentationMasks == false)
        #expect(PoseConnection.poseLandmarks.count == 35)
        #expect(PoseLandmarkName.allCases.count == 33)
    }

    @Test func masksDecodeOnlyWithMatchingSizes() throws {
        let mask = PoseSegmentationMask(width: 2, height: 2, values: [0, 0.25, 0.5, 1])
        let data = try JSONEncoder().encode(mask)
        #expect(try JSONDecoder().decode(PoseSegmentationMask.self, from: data) == mask)
        for text in [
            #"{"width":3,"height":2,"values":[0,0.25,0.5,1]}"#, #"{"width":-1,"height":-4,"values":[0,0.25,0.5,1]}"#,
            #"{"width":4611686018427387904,"height":4,"values":[]}"#,
        ] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(PoseSegmentationMask.self, from: Data(text.utf8))
            }
        }
        #expect(PoseSegmentationMask(width: 1 << 40, height: 1 << 40, values: []).values.isEmpty)
        #expect(PoseSegmentationMask(width: 2, height: 1, values: [1]).values == [1, 0])
    }

    @Test func wrongModeCallsAreErrors() throws {
        let image = try Self.photo()
        let landmarker = try PoseLandmarker(options: Self.options(.video))
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
        var live = Self.options(.liveStream)
        #expect(throws: VisionTaskError.self) { try PoseLandmarker(options: live) }
        live.runningMode = .image
        live.resultHandler = { _ in }
        #expect(throws: VisionTaskError.self) { try PoseLandmarker(options: live) }
    }

    /// The synchronous forms (an `async` test would pick the `async` overloads).
    static func detectNow(_ landmarker: PoseLandmarker, _ image: PixelImage, timestamp: Int? = nil) throws
        -> PoseLandmarkerResult
    {
        if let timestamp { return try landmarker.detect(videoFrame: image, timestampInMilliseconds: timestamp) }
        return try landmarker.detect(image: image)
    }

    @Test func asyncFormsMatchTheSynchronousOnes() async throws {
        let image = try Self.photo()
        let still = try PoseLandmarker(options: Self.options())
        let expected = try Self.detectNow(still, image)
        #expect(expected.landmarks.count == 1)
        let asynchronous = try await still.detect(image: image)
        #expect(asynchronous == expected)

        let video = try PoseLandmarker(options: Self.options(.video))
        let reference = try PoseLandmarker(options: Self.options(.video))
        for t in [0, 40, 80] {
            let a = try await video.detect(videoFrame: image, timestampInMilliseconds: t)
            let b = try Self.detectNow(reference, image, timestamp: t)
            #expect(a == b)
        }
        #expect(video.poseDetectionCount == 1)
    }

    @Test func liveStreamDeliversEveryFrameInOrder() async throws {
        let image = try Self.photo()
        let log = PoseEventLog()
        var options = Self.options(.liveStream)
        options.resultHandler = { log.append($0.timestampInMilliseconds) }
        let landmarker = try PoseLandmarker(options: options)
        let stream = landmarker.liveStreamResults()
        for t in 0..<6 { try landmarker.detectAsync(image: image, timestampInMilliseconds: t) }
        landmarker.close()
        #expect(log.all == Array(0..<6))
        var streamed: [Int] = []
        var poses = 0
        for await event in stream {
            streamed.append(event.timestampInMilliseconds)
            if case .result(let result, _, _) = event { poses += result.landmarks.count }
        }
        #expect(streamed == Array(0..<6))
        #expect(poses >= 1)
    }
}

final class PoseEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    func append(_ value: Int) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }
    var all: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
