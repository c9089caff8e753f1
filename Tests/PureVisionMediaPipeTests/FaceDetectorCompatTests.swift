import Foundation
import PureVision
import PureVisionMediaPipe
import PureVisionTestSupport
import Testing

/// `PureVisionMediaPipe.FaceDetector` gives exactly PureVision's detections as MediaPipe's `Detection` (a `CGRect`
/// box, keypoints with a `CGPoint` location), and its live-stream delegate.
@Suite struct FaceDetectorCompatTests {
    static func expectSame(
        _ compat: PureVisionMediaPipe.FaceDetectorResult, _ native: PureVision.FaceDetectorResult, timestamp: Int,
        _ what: String
    ) {
        #expect(compat.timestampInMilliseconds == timestamp)
        #expect(compat.detections.count == native.detections.count, "\(what)")
        for (detection, expected) in zip(compat.detections, native.detections) {
            let box = expected.boundingBox
            #expect(
                detection.boundingBox
                    == CGRect(x: box.originX, y: box.originY, width: box.width, height: box.height), "\(what)")
            #expect(detection.categories == expected.categories, "\(what)")
            #expect(detection.keypoints?.count == 6 && expected.keypoints.count == 6, "\(what)")
            for (point, expectedPoint) in zip(detection.keypoints ?? [], expected.keypoints) {
                #expect(point.location == CGPoint(x: CGFloat(expectedPoint.x), y: CGFloat(expectedPoint.y)), "\(what)")
                #expect(point.label == nil && point.score == 0, "\(what): BlazeFace keypoints have no label or score")
            }
        }
    }

    @Test func imageModeEqualsNative() throws {
        let detector = try PureVisionMediaPipe.FaceDetector(modelPath: CompatFixtures.faceModel)
        let native = try PureVision.FaceDetector(modelPath: CompatFixtures.faceModel)
        var faces = 0
        for name in CompatFixtures.facePhotos {
            let path = CompatFixtures.photo(name)
            let result = try detector.detect(image: try MPImage(contentsOfFile: path))
            Self.expectSame(result, try native.detect(image: try PixelImage(contentsOfFile: path)), timestamp: 0, name)
            faces += result.detections.count
        }
        #expect(faces >= CompatFixtures.facePhotos.count, "the photos show faces: the test compares something")
    }

    @Test func optionsReachTheDetector() throws {
        let options = PureVisionMediaPipe.FaceDetectorOptions()
        #expect(options.minDetectionConfidence == 0.5 && options.minSuppressionThreshold == 0.3)
        options.baseOptions.modelAssetPath = CompatFixtures.faceModel
        options.baseOptions.delegate = .GPU
        options.minDetectionConfidence = 0.9
        options.runningMode = .video
        let detector = try PureVisionMediaPipe.FaceDetector(options: options)
        let native = try PureVision.FaceDetector(
            options: .init(
                baseOptions: .init(modelAssetPath: CompatFixtures.faceModel), runningMode: .video,
                minDetectionConfidence: 0.9))
        for (index, name) in CompatFixtures.facePhotos.enumerated() {
            let path = CompatFixtures.photo(name)
            Self.expectSame(
                try detector.detect(videoFrame: try MPImage(contentsOfFile: path), timestampInMilliseconds: index),
                try native.detect(videoFrame: try PixelImage(contentsOfFile: path), timestampInMilliseconds: index),
                timestamp: index, name)
        }
    }

    final class Recorder: FaceDetectorLiveStreamDelegate, @unchecked Sendable {
        let lock = NSLock()
        var received: [(result: PureVisionMediaPipe.FaceDetectorResult?, timestamp: Int)] = []
        var count: Int { lock.withLock { received.count } }

        func faceDetector(
            _ faceDetector: PureVisionMediaPipe.FaceDetector,
            didFinishDetection result: PureVisionMediaPipe.FaceDetectorResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {
            lock.withLock { received.append((result, timestampInMilliseconds)) }
        }
    }

    @Test func liveStreamDelegateGetsTheResults() throws {
        let recorder = Recorder()
        let options = PureVisionMediaPipe.FaceDetectorOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.faceModel
        options.runningMode = .liveStream
        options.faceDetectorLiveStreamDelegate = recorder
        let detector = try PureVisionMediaPipe.FaceDetector(options: options)
        let native = try PureVision.FaceDetector(modelPath: CompatFixtures.faceModel)
        for (index, name) in CompatFixtures.facePhotos.enumerated() {
            try detector.detectAsync(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(name)), timestampInMilliseconds: index)
            #expect(waitUntil { recorder.count == index + 1 }, "result \(index) delivered")
        }
        detector.close()
        let received = recorder.lock.withLock { recorder.received }
        #expect(received.map(\.timestamp) == [0, 1, 2])
        for (index, name) in CompatFixtures.facePhotos.enumerated() where index < received.count {
            guard let result = received[index].result else {
                Issue.record("\(name): no result")
                continue
            }
            Self.expectSame(
                result, try native.detect(image: try PixelImage(contentsOfFile: CompatFixtures.photo(name))),
                timestamp: index, name)
        }
    }
}
