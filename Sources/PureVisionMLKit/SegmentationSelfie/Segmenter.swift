import Foundation
import PureVision

/// The completion of `Segmenter.process(_:completion:)`: ML Kit's `SegmentationCallback`, the mask or an error.
public typealias SegmentationCallback = (SegmentationMask?, (any Error)?) -> Void

/// ML Kit's selfie `Segmenter` (`MLKSegmenter`) over PureVision's `SelfieSegmenter`.
///
/// As in ML Kit, creating a segmenter cannot fail: the model loads on first use, and a problem (e.g. the model not
/// found, see `SelfieSegmenterOptions.modelDirectory`) is reported by `results(in:)` or `process(_:completion:)`.
/// Calls are serialised.
public final class Segmenter: Sendable {
    private let core: DetectorCore<SelfieStream, SegmentationMask>

    private init(options: PureVision.SelfieSegmenterOptions) {
        core = DetectorCore(
            label: "Segmenter",
            makeTask: { () throws(VisionTaskError) in
                SelfieStream(segmenter: try SelfieSegmenter(options: options), clock: StreamClock())
            },
            run: { stream, image throws(VisionTaskError) in try stream.mask(of: image) })
    }

    /// ML Kit's `Segmenter.segmenter(options:)`. The options are read now; later changes have no effect.
    public static func segmenter(options: SelfieSegmenterOptions) -> Segmenter { Segmenter(options: options.native) }

    /// ML Kit's `results(in:)`: the mask of `image`, synchronously.
    /// - Throws: `VisionTaskError` when the model cannot be loaded or the image cannot be read.
    public func results(in image: VisionImage) throws -> SegmentationMask { try core.results(in: image) }

    /// ML Kit's `process(_:completion:)`: segments `image` on the segmenter's own serial queue and calls `completion`
    /// on the main queue with the mask or the error, as ML Kit does.
    public func process(_ image: VisionImage, completion: @escaping SegmentationCallback) {
        core.process(image, completion: completion)
    }

    /// ML Kit's `process(_:) async` (Swift's form of `process(_:completion:)`): the mask of `image`, computed on the
    /// detector's own serial queue.
    /// - Throws: what `results(in:)` throws.
    public func process(_ image: VisionImage) async throws -> SegmentationMask { try await core.process(image) }
}

/// The native segmenter and, in stream mode, the clock that times its frames.
private struct SelfieStream {
    let segmenter: SelfieSegmenter
    let clock: StreamClock

    func mask(of image: PixelImage) throws(VisionTaskError) -> SegmentationMask {
        let native =
            segmenter.options.segmenterMode == .stream
            ? try segmenter.process(image, timestampInMilliseconds: clock.next())
            : try segmenter.process(image)
        return try SegmentationMask(native)
    }
}
