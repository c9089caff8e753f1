import Foundation
import PureVision

extension CGRect {
    /// The region of interest for PureVision: nil for `CGRect.zero` (MediaPipe's "whole image"), else the rect's
    /// edges as normalized coordinates.
    var regionOfInterest: RectF? {
        guard self != .zero else { return nil }
        return RectF(left: Float(minX), top: Float(minY), right: Float(maxX), bottom: Float(maxY))
    }
}

extension CGRect {
    /// The processing options of a call taking a region of interest: nil for `CGRect.zero` (the whole image).
    var processingOptions: ImageProcessingOptions? {
        regionOfInterest.map { ImageProcessingOptions(regionOfInterest: $0) }
    }
}
