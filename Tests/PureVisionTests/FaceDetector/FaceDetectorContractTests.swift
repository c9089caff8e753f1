import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// The running-mode contract and the error paths, on the real face detector.
@Suite struct FaceDetectorContractTests {
    static let model = Fixtures.model("face_detection_short_range.tflite")

    static func photo() throws -> PixelImage {
        try PixelImage(contentsOfFile: Fixtures.testFile("PureVisionTests/Fixtures/faces/astronaut_scale50.png"))
    }

    static func detector(
        _ mode: RunningMode, handler: (@Sendable (LiveStreamEvent<FaceDetectorResult>) -> Void)? = nil
    ) throws -> FaceDetector {
        try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: model), runningMode: mode, resultHandler: handler))
    }

    @Test func wrongModeCallsAreErrors() throws {
        let image = try Self.photo()
        let imageMode = try Self.detector(.image)
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .video, actual: .image)) {
            try imageMode.detect(videoFrame: image, timestampInMilliseconds: 0)
        }
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .liveStream, actual: .image)) {
            try imageMode.detectAsync(image: image, timestampInMilliseconds: 0)
        }
        let videoMode = try Self.detector(.video)
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .image, actual: .video)) {
            try videoMode.detect(image: image)
        }
    }

    @Test func videoTimestampsMustIncrease() throws {
        let image = try Self.photo()
        let detector = try Self.detector(.video)
        let first = try detector.detect(videoFrame: image, timestampInMilliseconds: 33)
        #expect(first.detections.count == 1)
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 33, given: 33)) {
            try detector.detect(videoFrame: image, timestampInMilliseconds: 33)
        }
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 33, given: 0)) {
            try detector.detect(videoFrame: image, timestampInMilliseconds: 0)
        }
        // The same frame gives the same answer in every mode.
        let second = try detector.detect(videoFrame: image, timestampInMilliseconds: 66)
        #expect(second == first)
        #expect(try Self.detector(.image).detect(image: image) == first)
    }

    @Test func optionsAreValidated() {
        #expect(throws: VisionTaskError.self) {
            try FaceDetector(
                options: FaceDetectorOptions(
                    baseOptions: BaseOptions(modelAssetPath: Self.model), minDetectionConfidence: 1.5))
        }
        #expect(throws: VisionTaskError.self) {
            try FaceDetector(
                options: FaceDetectorOptions(
                    baseOptions: BaseOptions(modelAssetPath: Self.model), minSuppressionThreshold: -0.1))
        }
        #expect(throws: VisionTaskError.self) { try Self.detector(.liveStream, handler: nil) }
        #expect(throws: VisionTaskError.self) { try Self.detector(.image, handler: { _ in }) }
        #expect(throws: VisionTaskError.self) { try FaceDetector(modelPath: "/nonexistent.tflite") }
        #expect(throws: VisionTaskError.self) {
            try FaceDetector(modelPath: Fixtures.model("hand_landmark_full.tflite"))
        }
    }

    @Test func rejectsRegionOfInterestRotationAndMirroring() throws {
        let detector = try Self.detector(.image)
        var image = try Self.photo()
        #expect(throws: VisionTaskError.regionOfInterestNotSupported) {
            try detector.detect(
                image: image,
                imageProcessingOptions: ImageProcessingOptions(
                    regionOfInterest: RectF(left: 0, top: 0, right: 0.5, bottom: 0.5)))
        }
        #expect(throws: VisionTaskError.self) {
            try detector.detect(image: image, imageProcessingOptions: ImageProcessingOptions(rotationDegrees: 45))
        }
        image.orientation = .upMirrored
        #expect(throws: VisionTaskError.image(.mirroredOrientation(.upMirrored))) { try detector.detect(image: image) }
    }

    /// A burst of 100 frames as fast as they come: each is answered or reported dropped, in timestamp order.
    @Test func liveStreamBurstOf100Frames() async throws {
        let image = try Self.photo()
        let events = EventLog()
        let detector = try Self.detector(.liveStream, handler: { events.append($0) })
        let stream = detector.liveStreamResults()
        for t in 0..<100 { try detector.detectAsync(image: image, timestampInMilliseconds: t * 33) }
        detector.close()
        let delivered = events.all
        #expect(delivered.map(\.timestampInMilliseconds) == (0..<100).map { $0 * 33 })
        var answered = 0
        for event in delivered {
            switch event {
            case .result(let result, _, _):
                answered += 1
                #expect(result.detections.count == 1)
            case .dropped: break
            case .failed(let error, let t): Issue.record("frame \(t) failed: \(error)")
            }
        }
        #expect(answered >= 2)
        var streamed = 0
        for await _ in stream { streamed += 1 }
        #expect(streamed == 100)
    }

    @Test func asyncDetect() async throws {
        let image = try Self.photo()
        let detector = try Self.detector(.image)
        let result = try await detector.detect(image: image)
        #expect(result.detections.count == 1)
    }

    /// A caller-owned pixel buffer with a padded stride gives the same detections as the decoded image.
    @Test func wrappedPixelBuffers() throws {
        let image = try Self.photo()
        let rgb = image.converted(to: .rgb8)
        let stride = rgb.width * 3 + 17
        var padded = [UInt8](repeating: 0, count: stride * rgb.height)
        rgb.withUnsafePixels { source in
            for row in 0..<rgb.height {
                for i in 0..<(rgb.width * 3) { padded[row * stride + i] = source[row * rgb.bytesPerRow + i] }
            }
        }
        let detector = try Self.detector(.image)
        let expected = try detector.detect(image: rgb)
        let result = try padded.withUnsafeBytes { bytes in
            let wrapped = try PixelImage.wrapping(
                unsafePixels: bytes.baseAddress!, width: rgb.width, height: rgb.height, format: .rgb8,
                bytesPerRow: stride)
            return try detector.detect(image: wrapped)
        }
        #expect(result == expected)
    }
}

/// Thread-safe collection of live-stream events.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [LiveStreamEvent<FaceDetectorResult>] = []
    func append(_ event: LiveStreamEvent<FaceDetectorResult>) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }
    var all: [LiveStreamEvent<FaceDetectorResult>] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}
