import Foundation
import PureVision

/// An image given to a face detector: ML Kit's `VisionImage` (`MLKVisionImage`), also Firebase ML Vision's
/// `VisionImage` with its `metadata`.
///
/// Everywhere it is made from a file (`init(contentsOfFile:)`) or PureVision's `PixelImage`; on Apple platforms
/// also from a `UIImage` (`init(image:)`) or a `CMSampleBuffer` (`init(buffer:)`). Faces are reported in the
/// coordinates of the image turned upright by `orientation`.
public final class VisionImage {
    /// The pixels as stored; nil when they could not be read (the error is reported by the detector).
    let source: Result<PixelImage, VisionTaskError>

    /// How the stored pixels are turned to be upright (ML Kit's `orientation`, a `UIImage.Orientation` on Apple
    /// platforms; PureVision's `ImageOrientation`, with the same cases, elsewhere). Default `.up`. The mirrored
    /// orientations are supported.
    public var orientation: VisionImage.Orientation = .up

    /// Firebase ML Vision's image metadata; setting it sets `orientation` from its EXIF-style orientation.
    public var metadata: VisionImageMetadata? {
        didSet { if let metadata { orientation = VisionImage.Orientation(metadata.orientation.imageOrientation) } }
    }

    /// Wraps a PureVision image; `orientation` starts as the image's own.
    public init(pixelImage: PixelImage) {
        source = .success(pixelImage)
        orientation = VisionImage.Orientation(pixelImage.orientation)
    }

    /// The result of reading the pixels, for the platform initializers.
    init(source: Result<PixelImage, VisionTaskError>) { self.source = source }

    /// Decodes a PNG or JPEG file. Beyond ML Kit (whose images come from UIKit): how a program on Linux loads one.
    /// - Throws: `ImageError` for a missing or undecodable file.
    public convenience init(contentsOfFile path: String) throws {
        self.init(pixelImage: try PixelImage(contentsOfFile: path))
    }

    /// The upright pixels to analyse: the stored ones turned (and for mirrored orientations flipped) by
    /// `orientation`.
    func uprightPixels() throws(VisionTaskError) -> PixelImage {
        var image = try source.get()
        let target = ImageOrientation(orientation)
        if target.isMirrored {
            image = image.flippedHorizontally()
            image.orientation = target.unmirrored
        } else {
            image.orientation = target
        }
        do { return try image.applyingOrientation() } catch { throw .image(error) }
    }
}

/// Firebase ML Vision's `VisionImageMetadata` (`FIRVisionImageMetadata`): the image's orientation.
public final class VisionImageMetadata {
    /// The orientation, EXIF-style. Default `.topLeft` (upright).
    public var orientation: VisionDetectorImageOrientation = .topLeft

    /// Creates metadata for an upright image.
    public init() {}
}

/// Firebase ML Vision's `VisionDetectorImageOrientation` (`FIRVisionDetectorImageOrientation`): where the stored
/// image's first row and column are shown, with the EXIF orientation values 1…8.
public enum VisionDetectorImageOrientation: UInt, Sendable, Hashable {
    /// Row 0 at the top, column 0 on the left: upright (`UIImage.Orientation.up`).
    case topLeft = 1
    /// Row 0 at the top, column 0 on the right: mirrored (`.upMirrored`).
    case topRight
    /// Row 0 at the bottom, column 0 on the right: turned 180° (`.down`).
    case bottomRight
    /// Row 0 at the bottom, column 0 on the left: flipped vertically (`.downMirrored`).
    case bottomLeft
    /// Row 0 on the left, column 0 at the top: transposed (`.leftMirrored`).
    case leftTop
    /// Row 0 on the right, column 0 at the top: turned 90° clockwise to display (`.right`).
    case rightTop
    /// Row 0 on the right, column 0 at the bottom: transversed (`.rightMirrored`).
    case rightBottom
    /// Row 0 on the left, column 0 at the bottom: turned 90° counter-clockwise to display (`.left`).
    case leftBottom

    /// The same orientation in `UIImage.Orientation` terms.
    var imageOrientation: ImageOrientation {
        switch self {
        case .topLeft: .up
        case .topRight: .upMirrored
        case .bottomRight: .down
        case .bottomLeft: .downMirrored
        case .leftTop: .leftMirrored
        case .rightTop: .right
        case .rightBottom: .rightMirrored
        case .leftBottom: .left
        }
    }
}

#if !canImport(UIKit)
    extension VisionImage {
        /// The type of `orientation`: `UIImage.Orientation` where UIKit exists (as in ML Kit), PureVision's
        /// `ImageOrientation` (the same cases) elsewhere.
        public typealias Orientation = ImageOrientation
    }

    extension ImageOrientation {
        /// The same orientation: converts between `VisionImage.Orientation` and `ImageOrientation`, which are one type
        /// here (the UIKit file has the two real conversions).
        init(_ orientation: ImageOrientation) { self = orientation }
    }
#endif

extension ImageOrientation {
    /// The orientation without its mirroring: the turn applied after a horizontal flip.
    var unmirrored: ImageOrientation {
        switch self {
        case .upMirrored: .up
        case .downMirrored: .down
        case .leftMirrored: .left
        case .rightMirrored: .right
        default: self
        }
    }
}

extension PixelImage {
    /// A packed copy with each row reversed (same format and orientation).
    ///
    /// With it, a mirrored orientation becomes a flip followed by the unmirrored orientation's turn: e.g.
    /// `.leftMirrored` (EXIF 5, transpose) is the flip then `.left`.
    func flippedHorizontally() -> PixelImage {
        let channels = format.channelCount
        let width = width
        let height = height
        let stride = bytesPerRow
        var output = [UInt8](repeating: 0, count: width * height * channels)
        withUnsafePixels { source in
            output.withUnsafeMutableBufferPointer { out in
                guard let input = source.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                for y in 0..<height {
                    for x in 0..<width {
                        let from = input + y * stride + (width - 1 - x) * channels
                        let to = (y * width + x) * channels
                        for c in 0..<channels { out[to + c] = from[c] }
                    }
                }
            }
        }
        // The copy has the validated size of `self`, so this cannot fail; `self` is returned if it ever did.
        return (try? PixelImage(width: width, height: height, format: format, pixels: output, orientation: orientation))
            ?? self
    }
}
