import Foundation
import PureVision

/// A point normalized to the image, with an optional label and score: MediaPipe's `NormalizedKeypoint`
/// (`MPPNormalizedKeypoint`).
public final class NormalizedKeypoint: Sendable {
    /// x and y, normalized by the image width and height.
    public let location: CGPoint
    /// The keypoint's label, when the model names it (BlazeFace does not).
    public let label: String?
    /// The keypoint's score; 0 when the model gives none, as in MediaPipe.
    public let score: Float

    /// Creates a keypoint, as MediaPipe's `init(location:label:score:)`.
    public init(location: CGPoint, label: String?, score: Float) {
        self.location = location
        self.label = label
        self.score = score
    }
}

/// One detected object: MediaPipe's `Detection` (`MPPDetection`) — categories, a `CGRect` bounding box in pixels
/// of the stored image, and optional normalized keypoints.
public final class Detection: Sendable {
    /// The detection's categories (one for single-class detectors, with the detection score).
    public let categories: [ResultCategory]
    /// The box in pixels of the input image (whole pixels, as MediaPipe computes them).
    public let boundingBox: CGRect
    /// The keypoints, normalized to the image; nil when the detector has none.
    public let keypoints: [NormalizedKeypoint]?

    /// Creates a detection, as MediaPipe's `init(categories:boundingBox:keypoints:)`.
    public init(categories: [ResultCategory], boundingBox: CGRect, keypoints: [NormalizedKeypoint]?) {
        self.categories = categories
        self.boundingBox = boundingBox
        self.keypoints = keypoints
    }

    /// The same detection as PureVision's (integer pixel box, keypoints without labels or scores).
    convenience init(_ native: PureVision.Detection) {
        let box = native.boundingBox
        self.init(
            categories: native.categories,
            boundingBox: CGRect(x: box.originX, y: box.originY, width: box.width, height: box.height),
            keypoints: native.keypoints.isEmpty
                ? nil
                : native.keypoints.map {
                    NormalizedKeypoint(location: CGPoint(x: CGFloat($0.x), y: CGFloat($0.y)), label: nil, score: 0)
                })
    }
}
