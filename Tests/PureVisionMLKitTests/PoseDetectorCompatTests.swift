import Foundation
import PureVision
import PureVisionMLKit
import PureVisionTestSupport
import Testing

/// `PureVisionMLKit.PoseDetector` gives the native `PoseLandmarker`'s poses (one pose, BlazePose full), in pixels of
/// the upright image: image mode for `.singleImage`, video mode (tracking, smoothing) for `.stream`.
@Suite struct PoseDetectorCompatTests {
    static let photos = ["pose/basketball_scale50.png", "pose/obama_scale50.png", "pose/composite_two.png"]
    static let frames = (0..<6).map { String(format: "pose/video/single_%03d.png", $0) }
    static let frameInterval = 33

    static func options(_ mode: PoseDetectorMode, accurate: Bool = false) -> PoseDetectorOptions {
        let options = accurate ? AccuratePoseDetectorOptions() : PoseDetectorOptions()
        options.detectorMode = mode
        options.modelDirectory = MLKitFixtures.modelDirectory
        options.streamFrameInterval = frameInterval
        return options
    }

    static func native(_ mode: RunningMode) throws -> PoseLandmarker {
        try PoseLandmarker(
            options: PoseLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("pose_landmarker_full.task")),
                runningMode: mode))
    }

    /// The native image-mode result, from a synchronous context (an async one would pick the async overload).
    static func nativeResult(_ image: PixelImage) throws -> PoseLandmarkerResult {
        try native(.image).detect(image: image)
    }

    /// The poses are the native ones: same count, every landmark at the native position in pixels (z in the scale of
    /// x) with the native visibility as its in-frame likelihood.
    static func expectSame(_ poses: [Pose], _ native: PoseLandmarkerResult, on image: PixelImage, _ what: String) {
        #expect(poses.count == native.landmarks.count, "\(what)")
        let width = CGFloat(image.width)
        let height = CGFloat(image.height)
        for (pose, landmarks) in zip(poses, native.landmarks) {
            #expect(pose.landmarks.count == 33 && landmarks.count == 33, "\(what)")
            for (type, expected) in zip(PoseLandmarkType.allCases, landmarks) {
                let landmark = pose.landmark(ofType: type)
                #expect(landmark.type == type)
                let position = landmark.position
                #expect(
                    position.x == CGFloat(expected.x) * width && position.y == CGFloat(expected.y) * height
                        && position.z == CGFloat(expected.z) * width, "\(what): \(type)")
                #expect(landmark.inFrameLikelihood == expected.visibility, "\(what): \(type)")
            }
        }
    }

    @Test func landmarkTypesAreBlazePosesThirtyThree() {
        #expect(PoseLandmarkType.allCases.count == 33)
        #expect(PoseLandmarkType.allCases.map(\.native) == PoseLandmarkName.allCases)
        #expect(PoseLandmarkType.allCases.map(\.rawValue) == PoseLandmarkName.allCases.map(\.rawValue))
    }

    @Test func defaultsAreMLKits() {
        #expect(PoseDetectorOptions().detectorMode == .stream && AccuratePoseDetectorOptions().detectorMode == .stream)
    }

    @Test func singleImageEqualsImageMode() throws {
        let native = try Self.native(.image)
        var found = 0
        for accurate in [false, true] {
            let detector = PoseDetector.poseDetector(options: Self.options(.singleImage, accurate: accurate))
            for name in Self.photos {
                let image = try MLKitFixtures.pixels(name)
                let poses = try detector.results(in: try VisionImage(contentsOfFile: MLKitFixtures.photo(name)))
                Self.expectSame(poses, try native.detect(image: image), on: image, name)
                found += poses.count
            }
        }
        #expect(found == 2 * Self.photos.count, "every photo shows a person: the test compares something")
    }

    @Test func orientationIsAppliedFirst() throws {
        let detector = PoseDetector.poseDetector(options: Self.options(.singleImage))
        let native = try Self.native(.image)
        let stored = try MLKitFixtures.pixels("pose/obama_scale50.png")
        let image = VisionImage(pixelImage: stored)
        image.orientation = .right
        var turned = stored
        turned.orientation = .right
        let upright = try turned.applyingOrientation()
        let poses = try detector.results(in: image)
        Self.expectSame(poses, try native.detect(image: upright), on: upright, "right")
        #expect(poses.count == 1, "the turned photo still shows the person: the test compares something")
    }

    @Test func streamTracksAsVideoMode() throws {
        let detector = PoseDetector.poseDetector(options: Self.options(.stream))
        let native = try Self.native(.video)
        for (index, name) in Self.frames.enumerated() {
            let image = try MLKitFixtures.pixels(name)
            let poses = try detector.results(in: try VisionImage(contentsOfFile: MLKitFixtures.photo(name)))
            let expected = try native.detect(videoFrame: image, timestampInMilliseconds: index * Self.frameInterval)
            Self.expectSame(poses, expected, on: image, name)
            #expect(poses.count == 1, "\(name)")
        }
        #expect(native.poseDetectionCount < Self.frames.count, "video mode tracked: the stream is compared with it")
    }

    @Test func processEqualsResults() async throws {
        let detector = PoseDetector.poseDetector(options: Self.options(.singleImage))
        let name = Self.photos[0]
        let image = try VisionImage(contentsOfFile: MLKitFixtures.photo(name))
        let outcome: Processed<[Pose]> = await processed { detector.process(image, completion: $0) }
        #expect(outcome.onMainQueue, "ML Kit calls the completion on the main queue")
        #expect(outcome.error == nil)
        let pixels = try MLKitFixtures.pixels(name)
        Self.expectSame(outcome.output ?? [], try Self.nativeResult(pixels), on: pixels, "process")
        #expect(outcome.output?.count == 1)
        Self.expectSame(try await detector.process(image), try Self.nativeResult(pixels), on: pixels, "async")
    }
}
