import Foundation
import PureVision
import PureVisionMediaPipe
import PureVisionTestSupport
import Testing

/// `PureVisionMediaPipe.HandLandmarker` gives exactly PureVision's results, in MediaPipe's types, in all three
/// running modes; its live-stream delegate is held weakly and is called once per processed frame.
@Suite struct HandLandmarkerCompatTests {
    static func expectSame(
        _ compat: PureVisionMediaPipe.HandLandmarkerResult, _ native: PureVision.HandLandmarkerResult,
        timestamp: Int, _ what: String
    ) {
        #expect(compat.timestampInMilliseconds == timestamp, "\(what)")
        #expect(compat.landmarks.count == native.landmarks.count, "\(what): hand count")
        #expect(compat.worldLandmarks.count == native.worldLandmarks.count, "\(what)")
        #expect(compat.handedness == native.handedness, "\(what): handedness")
        for (hand, nativeHand) in zip(compat.landmarks, native.landmarks) {
            #expect(hand.count == 21 && nativeHand.count == 21, "\(what)")
            for (point, nativePoint) in zip(hand, nativeHand) {
                #expect(point.x == nativePoint.x && point.y == nativePoint.y && point.z == nativePoint.z, "\(what)")
                #expect(point.visibility == nil && point.presence == nil, "\(what): the hand model has neither")
            }
        }
        for (hand, nativeHand) in zip(compat.worldLandmarks, native.worldLandmarks) {
            for (point, nativePoint) in zip(hand, nativeHand) {
                #expect(point.x == nativePoint.x && point.y == nativePoint.y && point.z == nativePoint.z, "\(what)")
            }
        }
    }

    @Test func imageModeEqualsNative() throws {
        let options = PureVisionMediaPipe.HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.handBundle
        options.numHands = 2
        let landmarker = try PureVisionMediaPipe.HandLandmarker(options: options)
        let native = try PureVision.HandLandmarker(
            options: .init(baseOptions: .init(modelAssetPath: CompatFixtures.handBundle), numHands: 2))
        var handsFound = 0
        for name in CompatFixtures.handPhotos {
            let path = CompatFixtures.photo(name)
            let result = try landmarker.detect(image: try MPImage(contentsOfFile: path))
            let expected = try native.detect(image: try PixelImage(contentsOfFile: path))
            Self.expectSame(result, expected, timestamp: 0, name)
            handsFound += result.landmarks.count
        }
        #expect(handsFound >= CompatFixtures.handPhotos.count, "the photos show hands: the test compares something")
    }

    @Test func orientationIsApplied() throws {
        let path = CompatFixtures.photo("hands/hand_dst.jpg")
        let landmarker = try PureVisionMediaPipe.HandLandmarker(modelPath: CompatFixtures.handBundle)
        let native = try PureVision.HandLandmarker(modelPath: CompatFixtures.handBundle)
        var rotated = try PixelImage(contentsOfFile: path)
        rotated.orientation = .right
        let result = try landmarker.detect(image: try MPImage(contentsOfFile: path, orientation: .right))
        Self.expectSame(result, try native.detect(image: rotated), timestamp: 0, "orientation .right")
        #expect(throws: VisionTaskError.self) { try MPImage(contentsOfFile: path, orientation: .leftMirrored) }
    }

    @Test func videoModeEqualsNative() throws {
        let options = PureVisionMediaPipe.HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.handBundle
        options.runningMode = .video
        let landmarker = try PureVisionMediaPipe.HandLandmarker(options: options)
        let native = try PureVision.HandLandmarker(
            options: .init(baseOptions: .init(modelAssetPath: CompatFixtures.handBundle), runningMode: .video))
        for (index, name) in CompatFixtures.videoFrames.enumerated() {
            let path = CompatFixtures.photo(name)
            let timestamp = index * 33
            let result = try landmarker.detect(
                videoFrame: try MPImage(contentsOfFile: path), timestampInMilliseconds: timestamp)
            let expected = try native.detect(
                videoFrame: try PixelImage(contentsOfFile: path), timestampInMilliseconds: timestamp)
            Self.expectSame(result, expected, timestamp: timestamp, name)
        }
        #expect(throws: VisionTaskError.self) {
            try landmarker.detect(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(CompatFixtures.videoFrames[0])))
        }
    }

    /// Collects what the delegate receives.
    final class Recorder: HandLandmarkerLiveStreamDelegate, @unchecked Sendable {
        let lock = NSLock()
        var received: [(result: PureVisionMediaPipe.HandLandmarkerResult?, timestamp: Int, error: (any Error)?)] = []
        var count: Int { lock.withLock { received.count } }

        func handLandmarker(
            _ handLandmarker: PureVisionMediaPipe.HandLandmarker,
            didFinishDetection result: PureVisionMediaPipe.HandLandmarkerResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            lock.withLock { received.append((result, timestampInMilliseconds, error)) }
        }
    }

    @Test func liveStreamDelegateGetsTheVideoResults() throws {
        let recorder = Recorder()
        let options = PureVisionMediaPipe.HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.handBundle
        options.runningMode = .liveStream
        options.handLandmarkerLiveStreamDelegate = recorder
        let landmarker = try PureVisionMediaPipe.HandLandmarker(options: options)
        let native = try PureVision.HandLandmarker(
            options: .init(baseOptions: .init(modelAssetPath: CompatFixtures.handBundle), runningMode: .video))
        // One frame at a time (each sent after the previous result arrived), so no frame is dropped and the tracking
        // sees the frames video mode sees.
        for (index, name) in CompatFixtures.videoFrames.prefix(6).enumerated() {
            let path = CompatFixtures.photo(name)
            try landmarker.detectAsync(image: try MPImage(contentsOfFile: path), timestampInMilliseconds: index * 33)
            #expect(waitUntil { recorder.count == index + 1 }, "result \(index) delivered")
        }
        landmarker.close()
        let received = recorder.lock.withLock { recorder.received }
        #expect(received.map(\.timestamp) == (0..<6).map { $0 * 33 })
        for (index, name) in CompatFixtures.videoFrames.prefix(6).enumerated() where index < received.count {
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

    @Test func droppedFramesAreNotReported() throws {
        let recorder = Recorder()
        let options = PureVisionMediaPipe.HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.handBundle
        options.runningMode = .liveStream
        options.handLandmarkerLiveStreamDelegate = recorder
        let landmarker = try PureVisionMediaPipe.HandLandmarker(options: options)
        let image = try MPImage(contentsOfFile: CompatFixtures.photo("hands/hand_src.jpg"))
        // Sent back to back: while one frame runs, each new one replaces the waiting one, which is dropped.
        for index in 0..<10 { try landmarker.detectAsync(image: image, timestampInMilliseconds: index) }
        landmarker.close()
        let received = recorder.lock.withLock { recorder.received }
        #expect(received.count >= 2 && received.count < 10, "the first and the last frame, not all ten")
        #expect(received.map(\.timestamp) == received.map(\.timestamp).sorted())
        #expect(received.allSatisfy { $0.result != nil && $0.error == nil })
        #expect(received.last?.timestamp == 9, "the last frame sent is never dropped")
    }

    @Test func delegateIsHeldWeaklyAndRequiredOnlyInLiveStream() throws {
        let options = PureVisionMediaPipe.HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.handBundle
        var recorder: Recorder? = Recorder()
        options.handLandmarkerLiveStreamDelegate = recorder
        #expect(throws: VisionTaskError.self, "a delegate in image mode") {
            try PureVisionMediaPipe.HandLandmarker(options: options)
        }
        recorder = nil
        #expect(options.handLandmarkerLiveStreamDelegate == nil, "the options hold the delegate weakly")
        options.runningMode = .liveStream
        #expect(throws: VisionTaskError.self, "no delegate in live-stream mode") {
            try PureVisionMediaPipe.HandLandmarker(options: options)
        }
    }

    @Test func connectionSetsAreMediaPipes() {
        let all = PureVisionMediaPipe.HandLandmarker.handConnections
        #expect(all.count == 21)
        #expect(Set(all.map { [$0.start, $0.end] }).count == 21, "no connection twice")
        #expect(Set(all.flatMap { [$0.start, $0.end] }) == Set(0..<21), "every landmark is connected")
        let task = PureVisionMediaPipe.HandLandmarker.self
        let parts = [
            task.handPalmConnections, task.handThumbConnections, task.handIndexFingerConnections,
            task.handMiddleFingerConnections, task.handRingFingerConnections, task.handPinkyConnections,
        ]
        #expect(parts.map(\.count) == [6, 3, 3, 3, 3, 3])
        // Each finger is a chain from its base landmark 1, 5, 9, 13, 17 to its tip.
        for (finger, base) in zip(parts.dropFirst(), [1, 5, 9, 13, 17] as [UInt]) {
            #expect(
                finger.map(\.start) == [base, base + 1, base + 2]
                    && finger.map(\.end) == [base + 1, base + 2, base + 3])
        }
    }
}
