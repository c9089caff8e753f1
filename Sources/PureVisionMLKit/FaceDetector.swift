import Foundation
import PureVision

/// The completion of `FaceDetector.process(_:completion:)`: ML Kit's `FaceDetectionCallback`, the faces or an error.
public typealias FaceDetectionCallback = ([Face]?, (any Error)?) -> Void

/// ML Kit's `FaceDetector` (`MLKFaceDetector`) over PureVision's `FaceAnalyzer`; Firebase ML Vision's
/// `VisionFaceDetector` is the same class.
///
/// As in ML Kit, creating a detector cannot fail: the models load on first use, and a problem (e.g. models not
/// found, see `FaceDetectorOptions.modelDirectory`) is reported by `results(in:)` or `process(_:completion:)`.
/// Calls are serialised.
public final class FaceDetector: Sendable {
    private let core: DetectorCore<FaceAnalyzer, [Face]>

    private init(options: FaceAnalyzerOptions) {
        core = DetectorCore(
            label: "FaceDetector", makeTask: { () throws(VisionTaskError) in try FaceAnalyzer(options: options) },
            run: { analyzer, image throws(VisionTaskError) in try analyzer.results(in: image).map(Face.init) })
    }

    /// ML Kit's `FaceDetector.faceDetector(options:)`. The options are read now; later changes have no effect.
    public static func faceDetector(options: FaceDetectorOptions) -> FaceDetector {
        FaceDetector(options: options.native)
    }

    /// ML Kit's `FaceDetector.faceDetector()`: default options.
    public static func faceDetector() -> FaceDetector { faceDetector(options: FaceDetectorOptions()) }

    /// ML Kit's `results(in:)`: the faces in `image`, synchronously, best first.
    /// - Throws: `VisionTaskError` when the models cannot be loaded or the image cannot be read.
    public func results(in image: VisionImage) throws -> [Face] { try core.results(in: image) }

    /// ML Kit's `process(_:completion:)`: analyses `image` on the detector's own serial queue and calls
    /// `completion` on the main queue with the faces (best first) or the error, as ML Kit does.
    ///
    /// The main queue must be serviced for the completion to run: an app's run loop does that; a command-line
    /// program calls `dispatchMain()` (and `exit` in its last completion) or runs `RunLoop.main` until done.
    public func process(_ image: VisionImage, completion: @escaping FaceDetectionCallback) {
        core.process(image, completion: completion)
    }

    /// ML Kit's `process(_:) async` (Swift's form of `process(_:completion:)`): the faces of `image`, computed on the
    /// detector's own serial queue.
    /// - Throws: what `results(in:)` throws.
    public func process(_ image: VisionImage) async throws -> [Face] { try await core.process(image) }
}
