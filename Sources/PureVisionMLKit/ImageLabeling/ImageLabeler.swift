import Foundation
import PureVision

/// The completion of `ImageLabeler.process(_:completion:)`: ML Kit's `ImageLabelingCallback`, the labels or an error.
public typealias ImageLabelingCallback = ([ImageLabel]?, (any Error)?) -> Void

/// ML Kit's `ImageLabeler` (`MLKImageLabeler`) over PureVision's `ImageClassifier`: the image's labels scoring at
/// least the threshold, best first (see `ImageLabelerOptions` for the model and its labels).
///
/// As in ML Kit, creating a labeler cannot fail: the model loads on first use, and a problem (a missing or malformed
/// model, an invalid option) is reported by `results(in:)` or `process(_:completion:)`. Calls are serialised.
public final class ImageLabeler: Sendable {
    private let core: DetectorCore<ImageClassifier, [ImageLabel]>

    private init(options: Result<ImageClassifierOptions, VisionTaskError>) {
        core = DetectorCore(
            label: "ImageLabeler",
            makeTask: { () throws(VisionTaskError) in try ImageClassifier(options: try options.get()) },
            run: { classifier, image throws(VisionTaskError) in
                try classifier.classify(image: image).classifications.first?.categories.map(ImageLabel.init) ?? []
            })
    }

    /// ML Kit's `ImageLabeler.imageLabeler(options:)`, for `ImageLabelerOptions` or `CustomImageLabelerOptions`. The
    /// options are read now; later changes have no effect.
    public static func imageLabeler(options: ImageLabelerOptions) -> ImageLabeler {
        ImageLabeler(options: Result { () throws(VisionTaskError) in try options.native() })
    }

    /// ML Kit's `ImageLabeler.imageLabeler()`: default options.
    public static func imageLabeler() -> ImageLabeler { imageLabeler(options: ImageLabelerOptions()) }

    /// ML Kit's `results(in:)`: the labels of `image`, synchronously, best first.
    /// - Throws: `VisionTaskError` when the model cannot be loaded, an option is invalid or the image cannot be read.
    public func results(in image: VisionImage) throws -> [ImageLabel] { try core.results(in: image) }

    /// ML Kit's `process(_:completion:)`: labels `image` on the labeler's own serial queue and calls `completion` on
    /// the main queue with the labels or the error, as ML Kit does.
    public func process(_ image: VisionImage, completion: @escaping ImageLabelingCallback) {
        core.process(image, completion: completion)
    }

    /// ML Kit's `process(_:) async` (Swift's form of `process(_:completion:)`): the labels of `image`, computed on the
    /// detector's own serial queue.
    /// - Throws: what `results(in:)` throws.
    public func process(_ image: VisionImage) async throws -> [ImageLabel] { try await core.process(image) }
}
