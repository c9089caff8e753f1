import Foundation
import PureVision

extension CGRect {
    /// The processing options of a call taking a region of interest: nil for `CGRect.zero` (MediaPipe's "whole
    /// image"), else the rect's edges as a normalized region of interest.
    var processingOptions: ImageProcessingOptions? {
        guard self != .zero else { return nil }
        return ImageProcessingOptions(
            regionOfInterest: RectF(left: Float(minX), top: Float(minY), right: Float(maxX), bottom: Float(maxY)))
    }
}
