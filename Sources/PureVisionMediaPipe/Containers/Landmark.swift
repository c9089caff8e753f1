import Foundation
import PureVision

/// A landmark normalized to the image (x, y in [0, 1] inside it; z a relative depth on the scale of x):
/// MediaPipe's `NormalizedLandmark` (`MPPNormalizedLandmark`).
///
/// `visibility` and `presence` are `NSNumber?` as in MediaPipe: nil when the model does not estimate them (the hand
/// and face models do not; the pose model does).
public final class NormalizedLandmark: @unchecked Sendable {
    // @unchecked: every stored property is an immutable value; NSNumber is immutable.
    /// x, normalized by the image width.
    public let x: Float
    /// y, normalized by the image height.
    public let y: Float
    /// Depth, smaller is closer to the camera, roughly on the scale of `x`.
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

    /// The same point as PureVision's landmark, with its visibility and presence when the model gives them (pose).
    convenience init(_ native: PureVision.NormalizedLandmark) {
        self.init(
            x: native.x, y: native.y, z: native.z, visibility: native.visibility.map { NSNumber(value: $0) },
            presence: native.presence.map { NSNumber(value: $0) })
    }
}

/// A landmark in metres around a model-specific origin (for hands, near the hand's centre): MediaPipe's `Landmark`
/// (`MPPLandmark`). `visibility` and `presence` as in `NormalizedLandmark`.
public final class Landmark: @unchecked Sendable {
    // @unchecked: every stored property is an immutable value; NSNumber is immutable.
    /// x, in metres.
    public let x: Float
    /// y, in metres.
    public let y: Float
    /// z, in metres.
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

    /// The same point as PureVision's world landmark, with its visibility and presence when the model gives them.
    convenience init(_ native: PureVision.Landmark) {
        self.init(
            x: native.x, y: native.y, z: native.z, visibility: native.visibility.map { NSNumber(value: $0) },
            presence: native.presence.map { NSNumber(value: $0) })
    }
}
