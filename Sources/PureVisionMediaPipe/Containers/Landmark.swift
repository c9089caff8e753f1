import Foundation
import PureVision

/// What MediaPipe's two landmark classes have alike: x, y and z, and the model's visibility and presence, which are
/// `NSNumber?` as in MediaPipe: nil when the model does not estimate them (the hand and face models do not; the pose
/// model does).
///
/// A base class on purpose, for `NormalizedLandmark` (normalized to the image) and `Landmark` (in metres) only;
/// create one of those.
public class LandmarkPoint: @unchecked Sendable {
    // @unchecked: every stored property is an immutable value; NSNumber is immutable. (Swift checks only final
    // classes.)
    /// x: normalized by the image width (`NormalizedLandmark`), or in metres (`Landmark`).
    public let x: Float
    /// y: normalized by the image height (`NormalizedLandmark`), or in metres (`Landmark`).
    public let y: Float
    /// Depth, smaller is closer to the camera: roughly on the scale of `x` (`NormalizedLandmark`), or in metres
    /// (`Landmark`).
    public let z: Float
    /// How likely the landmark is visible (not occluded), when the model says; nil otherwise.
    public let visibility: NSNumber?
    /// How likely the landmark is present in the image, when the model says; nil otherwise.
    public let presence: NSNumber?

    /// Creates a landmark, as MediaPipe's `init(x:y:z:visibility:presence:)`.
    public init(x: Float, y: Float, z: Float, visibility: NSNumber?, presence: NSNumber?) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }

    /// A landmark at PureVision's coordinates, with the visibility and presence the model gives, if any (pose).
    convenience init(x: Float, y: Float, z: Float, visibility: Float?, presence: Float?) {
        self.init(
            x: x, y: y, z: z, visibility: visibility.map { NSNumber(value: $0) },
            presence: presence.map { NSNumber(value: $0) })
    }
}

/// A landmark normalized to the image (x, y in [0, 1] inside it; z a relative depth on the scale of x):
/// MediaPipe's `NormalizedLandmark` (`MPPNormalizedLandmark`).
public final class NormalizedLandmark: LandmarkPoint, @unchecked Sendable {
    // @unchecked: as `LandmarkPoint`'s, restated (Swift requires it); it adds no stored property.
    /// The same point as PureVision's landmark, with its visibility and presence when the model gives them (pose).
    convenience init(_ native: PureVision.NormalizedLandmark) {
        self.init(x: native.x, y: native.y, z: native.z, visibility: native.visibility, presence: native.presence)
    }
}

/// A landmark in metres around a model-specific origin (for hands, near the hand's centre): MediaPipe's `Landmark`
/// (`MPPLandmark`).
public final class Landmark: LandmarkPoint, @unchecked Sendable {
    // @unchecked: as `LandmarkPoint`'s, restated (Swift requires it); it adds no stored property.
    /// The same point as PureVision's world landmark, with its visibility and presence when the model gives them.
    convenience init(_ native: PureVision.Landmark) {
        self.init(x: native.x, y: native.y, z: native.z, visibility: native.visibility, presence: native.presence)
    }
}
