import Foundation
import PureVision

/// ML Kit's `FaceLandmarkType` (`MLKFaceLandmarkType`), also Firebase's: `.mouthBottom`, `.mouthLeft`,
/// `.mouthRight`, `.leftEye`, `.rightEye`, `.leftEar`, `.rightEar`, `.leftCheek`, `.rightCheek`, `.noseBase`.
/// PureVision's own enumeration, with the same cases.
public typealias FaceLandmarkType = PureVision.FaceLandmarkType
/// ML Kit's `FaceContourType` (`MLKFaceContourType`), also Firebase's: `.face`, the eyebrows, eyes, lips, nose
/// and cheeks. PureVision's own enumeration, with the same cases.
public typealias FaceContourType = PureVision.FaceContourType

/// A point in pixels of the upright image: ML Kit's `VisionPoint` (`MLKVisionPoint`), also Firebase's
/// `VisionPoint` (whose `x` and `y` were `NSNumber`; here they are `CGFloat`, as in current ML Kit). A pose
/// landmark's position is its subclass `Vision3DPoint`.
public class VisionPoint: @unchecked Sendable {
    // @unchecked: not final (`Vision3DPoint` extends it, as in ML Kit); every stored property is an immutable `let`.
    /// x, in pixels, to the right.
    public let x: CGFloat
    /// y, in pixels, down.
    public let y: CGFloat

    /// Creates a point.
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }

    /// The same point as PureVision's.
    convenience init(_ native: PureVision.VisionPoint) { self.init(x: CGFloat(native.x), y: CGFloat(native.y)) }
}

/// One face landmark: ML Kit's `FaceLandmark` (`MLKFaceLandmark`), Firebase's `VisionFaceLandmark`.
public final class FaceLandmark: Sendable {
    /// Which landmark.
    public let type: FaceLandmarkType
    /// Where, in pixels of the upright image.
    public let position: VisionPoint

    /// The same landmark as PureVision's.
    init(_ native: PureVision.FaceLandmark) {
        type = native.type
        position = VisionPoint(native.position)
    }
}

/// One face contour: ML Kit's `FaceContour` (`MLKFaceContour`), Firebase's `VisionFaceContour`.
public final class FaceContour: Sendable {
    /// Which contour.
    public let type: FaceContourType
    /// Its points, in pixels of the upright image, in ML Kit's order.
    public let points: [VisionPoint]

    /// The same contour as PureVision's.
    init(_ native: PureVision.FaceContour) {
        type = native.type
        points = native.points.map(VisionPoint.init)
    }
}

/// One detected face: ML Kit's `Face` (`MLKFace`), Firebase's `VisionFace`, over PureVision's `Face`.
///
/// Each value the options turned off has its `has…` property false and reads 0, as in ML Kit. "Left" and "right"
/// are the subject's.
public final class Face: Sendable {
    /// PureVision's face (also the 468 mesh landmarks, `native.meshLandmarks`).
    public let native: PureVision.Face
    /// The face's bounding rectangle in pixels of the upright image.
    public let frame: CGRect
    /// The landmarks reported (`landmarkMode == .all`; ML Kit reports those visible at the head's yaw).
    public let landmarks: [FaceLandmark]
    /// The contours reported (`contourMode == .all`).
    public let contours: [FaceContour]

    /// Wraps PureVision's face.
    init(_ native: PureVision.Face) {
        self.native = native
        frame = CGRect(
            x: CGFloat(native.frame.originX), y: CGFloat(native.frame.originY), width: CGFloat(native.frame.width),
            height: CGFloat(native.frame.height))
        landmarks = (native.landmarks ?? []).map(FaceLandmark.init)
        contours = (native.contours ?? []).map(FaceContour.init)
    }

    /// Whether `headEulerAngleX` was computed.
    public var hasHeadEulerAngleX: Bool { native.headEulerAngleX != nil }
    /// Up/down rotation in degrees, positive looking up; 0 when not computed.
    public var headEulerAngleX: CGFloat { CGFloat(native.headEulerAngleX ?? 0) }
    /// Whether `headEulerAngleY` was computed.
    public var hasHeadEulerAngleY: Bool { native.headEulerAngleY != nil }
    /// Left/right rotation in degrees; 0 when not computed.
    public var headEulerAngleY: CGFloat { CGFloat(native.headEulerAngleY ?? 0) }
    /// Whether `headEulerAngleZ` was computed.
    public var hasHeadEulerAngleZ: Bool { native.headEulerAngleZ != nil }
    /// In-plane rotation in degrees, positive counter-clockwise; 0 when not computed.
    public var headEulerAngleZ: CGFloat { CGFloat(native.headEulerAngleZ ?? 0) }
    /// Whether `smilingProbability` was computed (`classificationMode == .all`).
    public var hasSmilingProbability: Bool { native.smilingProbability != nil }
    /// Smile score in [0, 1]; 0 when not computed.
    public var smilingProbability: CGFloat { CGFloat(native.smilingProbability ?? 0) }
    /// Whether `leftEyeOpenProbability` was computed.
    public var hasLeftEyeOpenProbability: Bool { native.leftEyeOpenProbability != nil }
    /// Score in [0, 1] that the subject's left eye is open; 0 when not computed.
    public var leftEyeOpenProbability: CGFloat { CGFloat(native.leftEyeOpenProbability ?? 0) }
    /// Whether `rightEyeOpenProbability` was computed.
    public var hasRightEyeOpenProbability: Bool { native.rightEyeOpenProbability != nil }
    /// Score in [0, 1] that the subject's right eye is open; 0 when not computed.
    public var rightEyeOpenProbability: CGFloat { CGFloat(native.rightEyeOpenProbability ?? 0) }
    /// Whether the face has a tracking ID (`isTrackingEnabled`).
    public var hasTrackingID: Bool { native.trackingID != nil }
    /// The tracking ID; 0 when there is none.
    public var trackingID: Int { native.trackingID ?? 0 }

    /// The landmark of `type`, when it was reported (ML Kit's `landmark(ofType:)`).
    public func landmark(ofType type: FaceLandmarkType) -> FaceLandmark? { landmarks.first { $0.type == type } }

    /// The contour of `type`, when it was reported (ML Kit's `contour(ofType:)`).
    public func contour(ofType type: FaceContourType) -> FaceContour? { contours.first { $0.type == type } }
}
