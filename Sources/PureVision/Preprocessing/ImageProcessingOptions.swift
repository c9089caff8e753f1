import PureVisionImage

/// A rectangle given by its edges, in normalized image coordinates: MediaPipe's `RectF`.
public struct RectF: Sendable, Hashable {
    /// Left edge, as a fraction of the image width.
    public var left: Float
    /// Top edge, as a fraction of the image height.
    public var top: Float
    /// Right edge, as a fraction of the image width.
    public var right: Float
    /// Bottom edge, as a fraction of the image height.
    public var bottom: Float

    /// Creates a rect from its four edges.
    public init(left: Float, top: Float, right: Float, bottom: Float) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }
}

/// What part of an image a vision task looks at, and how it is turned: MediaPipe's `ImageProcessingOptions`.
///
/// `regionOfInterest` (nil: the whole image) must have left < right, top < bottom and every edge in [0, 1].
/// `rotationDegrees` is clockwise and must be a multiple of 90: the task processes the image as if it had been
/// rotated by that much first (e.g. 90 for a photo whose top is on the left).
public struct ImageProcessingOptions: Sendable, Hashable {
    /// The region to process, in the stored image's normalized coordinates; nil for the whole image.
    public var regionOfInterest: RectF?
    /// Clockwise rotation in degrees; a multiple of 90 (negative values allowed).
    public var rotationDegrees: Int

    /// Creates options; nothing is validated until they are used.
    public init(regionOfInterest: RectF? = nil, rotationDegrees: Int = 0) {
        self.regionOfInterest = regionOfInterest
        self.rotationDegrees = rotationDegrees
    }

    /// Checks the options as MediaPipe does: the rotation first, then the region of interest.
    /// - Parameter roiAllowed: false for tasks that refuse a region of interest.
    /// - Throws: `PreprocessingError.rotationNotMultipleOf90`, `.regionOfInterestNotSupported`,
    ///   `.regionOfInterestNotOrdered` or `.regionOfInterestOutOfRange`.
    public func validate(roiAllowed: Bool = true) throws(PreprocessingError) {
        guard rotationDegrees % 90 == 0 else { throw .rotationNotMultipleOf90(degrees: rotationDegrees) }
        guard let roi = regionOfInterest else { return }
        guard roiAllowed else { throw .regionOfInterestNotSupported }
        let edges = [roi.left, roi.top, roi.right, roi.bottom]
        guard edges.allSatisfy(\.isFinite) else { throw .regionOfInterestOutOfRange(roi) }
        guard roi.left < roi.right, roi.top < roi.bottom else { throw .regionOfInterestNotOrdered(roi) }
        guard roi.left >= 0, roi.top >= 0, roi.right <= 1, roi.bottom <= 1 else {
            throw .regionOfInterestOutOfRange(roi)
        }
    }

    /// The rect MediaPipe crops for these options on an image of `imageWidth` × `imageHeight` stored pixels.
    ///
    /// The total clockwise rotation is `rotationDegrees` plus the orientation's (`ImageOrientation.rotationDegrees`);
    /// the rect rotation is `−total·π/180` (computed in Double, stored as Float). The ROI gives the centre
    /// `((l+r)/2, (t+b)/2)` and size `(r−l, b−t)`, no ROI the whole image. When the total is an odd multiple of 90 the
    /// normalized width and height swap and rescale, `w' = h·H/W`, `h' = w·W/H`, because ImageToTensor scales the rect
    /// by the image size before rotating it. As in MediaPipe 0.10.14's Python API, that arithmetic is done in Double
    /// on the Float inputs and rounded to Float once.
    ///
    /// MediaPipe's iOS runner (`MPPVisionTaskRunner.mm`) has no `rotationDegrees` option: it takes the rotation from
    /// the orientation alone (Up 0, Right −270, Down −180, Left −90, converted as `deg·π/−180`, which is the same
    /// value as `−deg·π/180`) and swaps the size by the same rule. Adding the two is this API's extension of that:
    /// an image with orientation `.up` gives exactly the C++/Python result, and `rotationDegrees` 0 gives exactly
    /// the iOS one.
    /// - Throws: as `validate(roiAllowed:)`, or `.mirroredOrientation` for a mirrored orientation.
    public func normalizedRect(
        imageWidth: Int, imageHeight: Int, orientation: ImageOrientation = .up, roiAllowed: Bool = true
    ) throws(PreprocessingError) -> NormalizedRect {
        try validate(roiAllowed: roiAllowed)
        let total = rotationDegrees + (try orientation.rotationDegrees())
        var xCenter = 0.5
        var yCenter = 0.5
        var width = 1.0
        var height = 1.0
        if let roi = regionOfInterest {
            xCenter = (Double(roi.left) + Double(roi.right)) / 2
            yCenter = (Double(roi.top) + Double(roi.bottom)) / 2
            width = Double(roi.right) - Double(roi.left)
            height = Double(roi.bottom) - Double(roi.top)
        }
        if total % 180 != 0 {
            (width, height) = (
                height * Double(imageHeight) / Double(imageWidth), width * Double(imageWidth) / Double(imageHeight)
            )
        }
        return NormalizedRect(
            xCenter: Float(xCenter), yCenter: Float(yCenter), width: Float(width), height: Float(height),
            rotation: Float(Double(-total) * Double.pi / 180))
    }
}

extension ImageOrientation {
    /// The orientation as a rotation in `ImageProcessingOptions.rotationDegrees` units, with MediaPipe iOS's values:
    /// `.up` 0, `.right` −270 (the same turn as +90 clockwise), `.down` −180, `.left` −90.
    /// - Throws: `PreprocessingError.mirroredOrientation` for the four mirrored orientations.
    public func rotationDegrees() throws(PreprocessingError) -> Int {
        switch self {
        case .up: 0
        case .right: -270
        case .down: -180
        case .left: -90
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: throw .mirroredOrientation(self)
        }
    }
}

extension ImageProcessingOptions {
    /// The rect a task processes in `image`: `processing`'s region of interest and rotation combined with the
    /// image's orientation (`normalizedRect(imageWidth:imageHeight:orientation:roiAllowed:)`), with its errors
    /// reported as the task errors MediaPipe gives (mirrored orientation, a refused region of interest).
    static func imageRect(
        of image: PixelImage, processing: ImageProcessingOptions?, roiAllowed: Bool
    ) throws(VisionTaskError) -> NormalizedRect {
        do throws(PreprocessingError) {
            return try (processing ?? ImageProcessingOptions()).normalizedRect(
                imageWidth: image.width, imageHeight: image.height, orientation: image.orientation,
                roiAllowed: roiAllowed)
        } catch {
            throw FaceDetectionPipeline.taskError(error)
        }
    }
}
