// Apple platforms with UIKit only. Not compiled by the project's Linux CI: type-checked for iOS
// (`tools/platforms/ios.sh`), unverified by a build.
#if canImport(UIKit)
    import UIKit

    extension ImageOrientation {
        /// The PureVision orientation of a `UIImage.Orientation` (the cases correspond one to one; an unknown future
        /// case reads as `.up`). The MediaPipe and ML Kit layers take UIKit's orientation through it.
        package init(_ orientation: UIImage.Orientation) {
            switch orientation {
            case .up: self = .up
            case .down: self = .down
            case .left: self = .left
            case .right: self = .right
            case .upMirrored: self = .upMirrored
            case .downMirrored: self = .downMirrored
            case .leftMirrored: self = .leftMirrored
            case .rightMirrored: self = .rightMirrored
            @unknown default: self = .up
            }
        }
    }

    extension UIImage.Orientation {
        /// The `UIImage.Orientation` of a PureVision orientation.
        package init(_ orientation: ImageOrientation) {
            switch orientation {
            case .up: self = .up
            case .down: self = .down
            case .left: self = .left
            case .right: self = .right
            case .upMirrored: self = .upMirrored
            case .downMirrored: self = .downMirrored
            case .leftMirrored: self = .leftMirrored
            case .rightMirrored: self = .rightMirrored
            }
        }
    }
#endif
