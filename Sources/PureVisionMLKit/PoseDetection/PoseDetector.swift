import Foundation
import PureVision

/// The completion of `PoseDetector.process(_:completion:)`: ML Kit's `PoseDetectionCallback`, the poses or an error.
public typealias PoseDetectionCallback = ([Pose]?, (any Error)?) -> Void

/// ML Kit's `PoseDetector` (`MLKPoseDetector`) over PureVision's `PoseLandmarker`.
///
/// As in ML Kit, creating a detector cannot fail: the model loads on first use, and a problem (e.g. the model not
/// found, see `PoseDetectorOptions.modelDirectory`) is reported by `results(in:)` or `process(_:completion:)`.
/// Calls are serialised; in `.stream` mode each call is the next frame of the stream.
public final class PoseDetector: Sendable {
    private let core: DetectorCore<PoseStream, [Pose]>

    private init(options: PoseLandmarkerOptions, frameInterval: Int?) {
        core = DetectorCore(
            label: "PoseDetector",
            makeTask: { () throws(VisionTaskError) in
                PoseStream(
                    landmarker: try PoseLandmarker(options: options), clock: StreamClock(frameInterval: frameInterval))
            },
            run: { stream, image throws(VisionTaskError) in try stream.poses(in: image) })
    }

    /// ML Kit's `PoseDetector.poseDetector(options:)`, for `PoseDetectorOptions` or `AccuratePoseDetectorOptions`.
    /// The options are read now; later changes have no effect.
    public static func poseDetector(options: PoseDetectorOptions) -> PoseDetector {
        PoseDetector(options: options.native, frameInterval: options.streamFrameInterval)
    }

    /// ML Kit's `results(in:)`: the pose in `image` (none or one), synchronously.
    /// - Throws: `VisionTaskError` when the model cannot be loaded or the image cannot be read.
    public func results(in image: VisionImage) throws -> [Pose] { try core.results(in: image) }

    /// ML Kit's `process(_:completion:)`: analyses `image` on the detector's own serial queue and calls `completion`
    /// on the main queue with the poses or the error, as ML Kit does.
    public func process(_ image: VisionImage, completion: @escaping PoseDetectionCallback) {
        core.process(image, completion: completion)
    }

    /// ML Kit's `process(_:) async` (Swift's form of `process(_:completion:)`): the poses of `image`, computed on the
    /// detector's own serial queue.
    /// - Throws: what `results(in:)` throws.
    public func process(_ image: VisionImage) async throws -> [Pose] { try await core.process(image) }
}

/// The native landmarker and, in stream mode, the clock that times its frames.
private struct PoseStream {
    let landmarker: PoseLandmarker
    let clock: StreamClock

    func poses(in image: PixelImage) throws(VisionTaskError) -> [Pose] {
        let result =
            landmarker.options.runningMode == .video
            ? try landmarker.detect(videoFrame: image, timestampInMilliseconds: clock.next())
            : try landmarker.detect(image: image)
        return try result.landmarks.map { landmarks throws(VisionTaskError) in
            guard landmarks.count == PoseLandmarkType.allCases.count else {
                throw .model(
                    "a pose has \(PoseLandmarkType.allCases.count) landmarks; the model gave \(landmarks.count)")
            }
            return Pose(native: landmarks, width: image.width, height: image.height)
        }
    }
}
