// Apple platforms with UIKit only. Not compiled by the project's Linux CI: type-checked for iOS
// (`tools/platforms/ios.sh`), unverified by a build.
#if canImport(UIKit)
    import UIKit

    extension ImageOrientation {
        /// The PureVision orientations in the order of `UIImage.Orientation`'s raw values, 0 (`.up`) to 7
        /// (`.rightMirrored`): the cases correspond one to one, and both conversions read this one table.
        fileprivate static let uiKitOrder: [ImageOrientation] = [
            .up, .down, .left, .right, .upMirrored, .downMirrored, .leftMirrored, .rightMirrored,
        ]

        /// The PureVision orientation of a `UIImage.Orientation` (an unknown future case reads as `.up`). The
        /// MediaPipe and ML Kit layers take UIKit's orientation through it.
        package init(_ orientation: UIImage.Orientation) {
            let index = orientation.rawValue
            self = Self.uiKitOrder.indices.contains(index) ? Self.uiKitOrder[index] : .up
        }
    }

    extension UIImage.Orientation {
        /// The `UIImage.Orientation` of a PureVision orientation.
        package init(_ orientation: ImageOrientation) {
            self = UIImage.Orientation(rawValue: ImageOrientation.uiKitOrder.firstIndex(of: orientation) ?? 0) ?? .up
        }
    }
#endif
