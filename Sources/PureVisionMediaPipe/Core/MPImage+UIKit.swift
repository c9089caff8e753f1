// Apple platforms with UIKit only. Not compiled by the project's Linux CI: written against the documented SDK API
// (UIImage) and unverified by a build.
#if canImport(UIKit)
    import PureVision
    import UIKit

    extension MPImage {
        /// MediaPipe's orientation type: `UIImage.Orientation`.
        public typealias Orientation = UIImage.Orientation

        /// MediaPipe's `MPImage(uiImage:)`: the image's pixels with its `imageOrientation`.
        /// - Throws: `VisionTaskError` for an image without a `CGImage` (e.g. `CIImage`-backed) or a mirrored orientation.
        public convenience init(uiImage: UIImage) throws {
            try self.init(uiImage: uiImage, orientation: uiImage.imageOrientation)
        }

        /// MediaPipe's `MPImage(uiImage:orientation:)`: the image's pixels, drawn once into RGBA, with `orientation`.
        /// - Throws: `VisionTaskError` for an image without a `CGImage` or a mirrored orientation.
        public convenience init(uiImage: UIImage, orientation: UIImage.Orientation) throws {
            guard let cgImage = uiImage.cgImage else {
                throw VisionTaskError.invalidOption(name: "uiImage", reason: "the UIImage has no CGImage")
            }
            let image: PixelImage
            do { image = try PixelImage(cgImage: cgImage) } catch { throw VisionTaskError.image(error) }
            try self.init(pixelImage: image, orientation: ImageOrientation(orientation), pixelOwner: nil)
        }
    }
#endif
