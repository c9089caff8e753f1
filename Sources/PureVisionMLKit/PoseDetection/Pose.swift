import Foundation
import PureVision

/// A point in pixels of the upright image with a depth: ML Kit's `Vision3DPoint` (`MLKVision3DPoint`), a
/// `VisionPoint` with `z`.
public final class Vision3DPoint: VisionPoint, @unchecked Sendable {
    // @unchecked: as `VisionPoint`, every stored property is an immutable `let`.
    /// Depth, in the scale of `x` (pixels), smaller towards the camera; the hips' midpoint is at about 0.
    public let z: CGFloat

    /// Creates a point.
    public init(x: CGFloat, y: CGFloat, z: CGFloat) {
        self.z = z
        super.init(x: x, y: y)
    }
}

/// One body landmark of a pose: ML Kit's `PoseLandmark` (`MLKPoseLandmark`).
public final class PoseLandmark: Sendable {
    /// Which landmark.
    public let type: PoseLandmarkType
    /// Where, in pixels of the upright image; `z` is the depth in the same scale as `x`.
    public let position: Vision3DPoint
    /// How likely the landmark is in the image and not hidden, in [0, 1]: the native landmark's `visibility`.
    public let inFrameLikelihood: Float

    /// The landmark of `type` from the native landmark normalized to an image of `width` × `height` pixels.
    init(type: PoseLandmarkType, native: NormalizedLandmark, width: Int, height: Int) {
        self.type = type
        position = Vision3DPoint(
            x: CGFloat(native.x) * CGFloat(width), y: CGFloat(native.y) * CGFloat(height),
            z: CGFloat(native.z) * CGFloat(width))
        inFrameLikelihood = native.visibility ?? 0
    }
}

/// One detected pose: ML Kit's `Pose` (`MLKPose`), its 33 landmarks.
public final class Pose: Sendable {
    /// The 33 landmarks, in `PoseLandmarkType` order.
    public let landmarks: [PoseLandmark]

    /// The pose from the native landmarks of one pose, on an image of `width` × `height` pixels.
    init(native: [NormalizedLandmark], width: Int, height: Int) {
        landmarks = zip(PoseLandmarkType.allCases, native).map { type, landmark in
            PoseLandmark(type: type, native: landmark, width: width, height: height)
        }
    }

    /// The landmark of `type` (ML Kit's `landmark(ofType:)`): every pose has all 33.
    public func landmark(ofType type: PoseLandmarkType) -> PoseLandmark {
        // `landmarks` holds one landmark per type in `rawValue` order (the native task always returns 33).
        landmarks[type.rawValue]
    }
}
