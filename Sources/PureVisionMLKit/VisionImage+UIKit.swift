// Apple platforms with UIKit only. Not compiled by the project's Linux CI: written against the documented SDK API
// (UIImage) and unverified by a build.
#if canImport(UIKit)
    import PureVision
    import UIKit

    extension VisionImage {
        /// ML Kit's orientation type: `UIImage.Orientation`.
        public typealias Orientation = UIImage.Orientation

        /// ML Kit's `VisionImage(image:)`: the image's pixels, drawn once into RGBA. As in ML Kit, `orientation` starts
        /// as `.up`: set it (e.g. to `image.imageOrientation`). An image without a `CGImage` is reported by the detector.
        public convenience init(image: UIImage) {
            guard let cgImage = image.cgImage else {
                self.init(source: .failure(.invalidOption(name: "image", reason: "the UIImage has no CGImage")))
                return
            }
            do {
                self.init(source: .success(try PixelImage(cgImage: cgImage)))
            } catch {
                self.init(source: .failure(.image(error)))
            }
        }
    }

#endif
