import Foundation
import PureVision
import PureVisionMediaPipe
import PureVisionTestSupport
import Testing

/// `PureVisionMediaPipe.PoseLandmarker` gives exactly PureVision's poses (visibility, presence and masks included) in
/// MediaPipe's types, in all three running modes, with MediaPipe's defaults and connection set.
@Suite struct PoseLandmarkerCompatTests {
    static func expectSame(
        _ compat: PureVisionMediaPipe.PoseLandmarkerResult, _ native: PureVision.PoseLandmarkerResult, timestamp: Int,
        _ what: String
    ) {
        #expect(compat.timestampInMilliseconds == timestamp, "\(what)")
        #expect(sameLandmarks(compat.landmarks, native.landmarks), "\(what): landmarks")
        #expect(sameLandmarks(compat.worldLandmarks, native.worldLandmarks), "\(what): world landmarks")
        #expect(
            compat.landmarks.allSatisfy {
                $0.count == 33 && $0.allSatisfy { $0.visibility != nil && $0.presence != nil }
            },
            "\(what): the pose model gives visibility and presence")
        let masks = native.segmentationMasks ?? []
        #expect(compat.segmentationMasks.count == masks.count, "\(what): masks")
        for (mask, expected) in zip(compat.segmentationMasks, masks) {
            #expect(mask.dataType == .float32 && mask.width == expected.width && mask.height == expected.height)
            #expect(floats(of: mask) == expected.values, "\(what): mask values")
        }
    }

    static func options(_ mode: PureVision.RunningMode) -> PureVisionMediaPipe.PoseLandmarkerOptions {
        let options = PureVisionMediaPipe.PoseLandmarkerOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.poseBundle
        options.runningMode = mode
        return options
    }

    @Test func defaultsAreMediaPipes() {
        let options = PureVisionMediaPipe.PoseLandmarkerOptions()
        #expect(options.runningMode == .image && options.numPoses == 1)
        #expect(
            options.minPoseDetectionConfidence == 0.5 && options.minPosePresenceConfidence == 0.5
                && options.minTrackingConfidence == 0.5)
        #expect(!options.shouldOutputSegmentationMasks && options.poseLandmarkerLiveStreamDelegate == nil)
        #expect(options.baseOptions.modelAssetPath == "" && options.baseOptions.delegate == .CPU)
    }

    @Test func imageModeWithMasksEqualsNative() throws {
        let options = Self.options(.image)
        options.numPoses = 2
        options.shouldOutputSegmentationMasks = true
        let landmarker = try PureVisionMediaPipe.PoseLandmarker(options: options)
        let native = try PureVision.PoseLandmarker(
            options: .init(
                baseOptions: .init(modelAssetPath: CompatFixtures.poseBundle), numPoses: 2,
                outputSegmentationMasks: true))
        var poses = 0
        for name in CompatFixtures.posePhotos {
            let path = CompatFixtures.photo(name)
            let result = try landmarker.detect(image: try MPImage(contentsOfFile: path))
            Self.expectSame(result, try native.detect(image: try PixelImage(contentsOfFile: path)), timestamp: 0, name)
            #expect(result.segmentationMasks.count == result.landmarks.count, "\(name): one mask per pose")
            poses += result.landmarks.count
        }
        #expect(poses >= CompatFixtures.posePhotos.count, "the photos show people: the test compares something")
    }

    @Test func withoutMasksTheListIsEmpty() throws {
        let path = CompatFixtures.photo(CompatFixtures.posePhotos[0])
        let landmarker = try PureVisionMediaPipe.PoseLandmarker(modelPath: CompatFixtures.poseBundle)
        let native = try PureVision.PoseLandmarker(modelPath: CompatFixtures.poseBundle)
        let result = try landmarker.detect(image: try MPImage(contentsOfFile: path))
        #expect(result.segmentationMasks.isEmpty && !result.landmarks.isEmpty)
        Self.expectSame(
            result, try native.detect(image: try PixelImage(contentsOfFile: path)), timestamp: 0, "no masks")
    }

    @Test func videoModeEqualsNative() throws {
        let landmarker = try PureVisionMediaPipe.PoseLandmarker(options: Self.options(.video))
        let native = try PureVision.PoseLandmarker(
            options: .init(baseOptions: .init(modelAssetPath: CompatFixtures.poseBundle), runningMode: .video))
        for (index, name) in CompatFixtures.poseFrames.enumerated() {
            let path = CompatFixtures.photo(name)
            Self.expectSame(
                try landmarker.detect(
                    videoFrame: try MPImage(contentsOfFile: path), timestampInMilliseconds: index * 33),
                try native.detect(
                    videoFrame: try PixelImage(contentsOfFile: path), timestampInMilliseconds: index * 33),
                timestamp: index * 33, name)
        }
        let frame = try MPImage(contentsOfFile: CompatFixtures.photo(CompatFixtures.poseFrames[0]))
        #expect(throws: VisionTaskError.self, "image mode call on a video landmarker") {
            try landmarker.detect(image: frame)
        }
        #expect(throws: VisionTaskError.self, "a timestamp not after the previous one") {
            try landmarker.detect(videoFrame: frame, timestampInMilliseconds: 0)
        }
    }

    /// Collects what the delegate receives.
    final class Recorder: PoseLandmarkerLiveStreamDelegate, @unchecked Sendable {
        let lock = NSLock()
        var received: [(result: PureVisionMediaPipe.PoseLandmarkerResult?, timestamp: Int, error: (any Error)?)] = []
        var count: Int { lock.withLock { received.count } }

        func poseLandmarker(
            _ poseLandmarker: PureVisionMediaPipe.PoseLandmarker,
            didFinishDetection result: PureVisionMediaPipe.PoseLandmarkerResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            lock.withLock { received.append((result, timestampInMilliseconds, error)) }
        }
    }

    @Test func liveStreamDelegateGetsTheVideoResults() throws {
        let recorder = Recorder()
        let options = Self.options(.liveStream)
        options.poseLandmarkerLiveStreamDelegate = recorder
        let landmarker = try PureVisionMediaPipe.PoseLandmarker(options: options)
        let native = try PureVision.PoseLandmarker(
            options: .init(baseOptions: .init(modelAssetPath: CompatFixtures.poseBundle), runningMode: .video))
        // One frame at a time, so none is dropped and the tracking sees what video mode sees.
        for (index, name) in CompatFixtures.poseFrames.enumerated() {
            try landmarker.detectAsync(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(name)), timestampInMilliseconds: index * 33)
            #expect(waitUntil { recorder.count == index + 1 }, "result \(index) delivered")
        }
        #expect(throws: VisionTaskError.self, "a video call on a live-stream landmarker") {
            try landmarker.detect(
                videoFrame: try MPImage(contentsOfFile: CompatFixtures.photo(CompatFixtures.poseFrames[0])),
                timestampInMilliseconds: 1000)
        }
        landmarker.close()
        let received = recorder.lock.withLock { recorder.received }
        #expect(received.map(\.timestamp) == CompatFixtures.poseFrames.indices.map { $0 * 33 })
        for (index, name) in CompatFixtures.poseFrames.enumerated() where index < received.count {
            let expected = try native.detect(
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
        options.poseLandmarkerLiveStreamDelegate = recorder
        #expect(throws: VisionTaskError.self, "a delegate in image mode") {
            try PureVisionMediaPipe.PoseLandmarker(options: options)
        }
        recorder = nil
        #expect(options.poseLandmarkerLiveStreamDelegate == nil, "the options hold the delegate weakly")
        options.runningMode = .liveStream
        #expect(throws: VisionTaskError.self, "no delegate in live-stream mode") {
            try PureVisionMediaPipe.PoseLandmarker(options: options)
        }
        options.runningMode = .image
        options.numPoses = 0
        #expect(throws: VisionTaskError.self, "numPoses 0") { try PureVisionMediaPipe.PoseLandmarker(options: options) }
    }

    @Test func connectionsAreMediaPipes() {
        let connections = PureVisionMediaPipe.PoseLandmarker.poseLandmarks
        #expect(connections.count == 35)
        #expect(
            connections.map { [Int($0.start), Int($0.end)] } == PoseConnection.poseLandmarks.map { [$0.start, $0.end] })
        #expect(Set(connections.flatMap { [$0.start, $0.end] }) == Set(0..<33), "every landmark is connected")
        #expect(
            connections.prefix(4).map { [$0.start, $0.end] } == [[0, 1], [1, 2], [2, 3], [3, 7]],
            "MediaPipe's order: the face first")
    }
}
