import Foundation
import PureVision

/// An image given to a vision task: MediaPipe's `MPImage` (`MPPImage`).
///
/// Everywhere it is made from a file (`init(contentsOfFile:)`) or from PureVision's `PixelImage`; on Apple
/// platforms also from a `UIImage`, a `CVPixelBuffer` or a `CMSampleBuffer` (see `MPImage+UIKit.swift` and
/// `MPImage+CoreVideo.swift`). `orientation` says how the stored pixels are to be turned upright, as
/// `UIImage.Orientation` does (PureVision's `ImageOrientation` has the same cases); tasks apply it, and refuse the
/// mirrored orientations with an error, as MediaPipe does.
public final class MPImage: Sendable {
    /// The pixels, with `orientation` set.
    public let pixelImage: PixelImage
    /// What keeps borrowed pixels valid (a locked `CVPixelBuffer`), or nil when the image owns its pixels.
    let pixelOwner: (any Sendable & AnyObject)?

    /// The stored width in pixels (MediaPipe reports `CGFloat`).
    public var width: CGFloat { CGFloat(pixelImage.width) }
    /// The stored height in pixels.
    public var height: CGFloat { CGFloat(pixelImage.height) }
    /// How the stored pixels are meant to be displayed; tasks rotate by it before processing.
    public var orientation: ImageOrientation { pixelImage.orientation }

    /// Wraps a PureVision image; its own `orientation` is replaced by `orientation`.
    /// - Throws: `VisionTaskError.image(.mirroredOrientation)` for a mirrored orientation, as MediaPipe does.
    public convenience init(pixelImage: PixelImage, orientation: ImageOrientation) throws {
        try self.init(pixelImage: pixelImage, orientation: orientation, pixelOwner: nil)
    }

    /// The designated initializer: `pixelOwner` keeps borrowed pixels valid for the image's lifetime.
    init(pixelImage: PixelImage, orientation: ImageOrientation, pixelOwner: (any Sendable & AnyObject)?) throws {
        guard !orientation.isMirrored else { throw VisionTaskError.image(.mirroredOrientation(orientation)) }
        var image = pixelImage
        image.orientation = orientation
        self.pixelImage = image
        self.pixelOwner = pixelOwner
    }

    /// Wraps a PureVision image with its own orientation.
    /// - Throws: `VisionTaskError.image(.mirroredOrientation)` when that orientation is mirrored.
    public convenience init(pixelImage: PixelImage) throws {
        try self.init(pixelImage: pixelImage, orientation: pixelImage.orientation)
    }

    /// Decodes a PNG or JPEG file (PureVision's `PixelImage(contentsOfFile:)`), orientation `.up`.
    /// MediaPipe's iOS API has no such initializer (it takes a `UIImage`); it is how a program on Linux loads one.
    /// - Throws: `ImageError` for a missing or undecodable file.
    public convenience init(contentsOfFile path: String, orientation: ImageOrientation = .up) throws {
        try self.init(pixelImage: try PixelImage(contentsOfFile: path), orientation: orientation)
    }
}

#if !canImport(UIKit)
    extension MPImage {
        /// The orientation type of the initializers that take one from the platform: `UIImage.Orientation` where UIKit
        /// exists (as in MediaPipe), PureVision's `ImageOrientation` (the same cases) elsewhere.
        public typealias Orientation = ImageOrientation
    }

    extension ImageOrientation {
        /// The same orientation (the identity where `MPImage.Orientation` is `ImageOrientation`).
        init(_ orientation: MPImage.Orientation) { self = orientation }
    }
#endif
