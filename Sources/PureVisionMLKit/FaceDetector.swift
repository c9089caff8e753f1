import Dispatch
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
public final class FaceDetector: @unchecked Sendable {
    // @unchecked: `analyzer` is created once, under `lock`; everything else is immutable.
    private let options: FaceAnalyzerOptions
    private let lock = NSLock()
    private var analyzer: Result<FaceAnalyzer, VisionTaskError>?
    private let queue = DispatchQueue(label: "PureVisionMLKit.FaceDetector")

    private init(options: FaceAnalyzerOptions) { self.options = options }

    /// ML Kit's `FaceDetector.faceDetector(options:)`. The options are read now; later changes have no effect.
    public static func faceDetector(options: FaceDetectorOptions) -> FaceDetector {
        FaceDetector(options: options.native)
    }

    /// ML Kit's `FaceDetector.faceDetector()`: default options.
    public static func faceDetector() -> FaceDetector { faceDetector(options: FaceDetectorOptions()) }

    /// ML Kit's `results(in:)`: the faces in `image`, synchronously, best first.
    /// - Throws: `VisionTaskError` when the models cannot be loaded or the image cannot be read.
    public func results(in image: VisionImage) throws -> [Face] {
        let pixels = try image.uprightPixels()
        return try faces(in: pixels)
    }

    /// ML Kit's `process(_:completion:)`: analyses `image` on the detector's own serial queue and calls
    /// `completion` on the main queue with the faces (best first) or the error, as ML Kit does.
    ///
    /// The main queue must be serviced for the completion to run: an app's run loop does that; a command-line
    /// program calls `dispatchMain()` (and `exit` in its last completion) or runs `RunLoop.main` until done.
    public func process(_ image: VisionImage, completion: @escaping FaceDetectionCallback) {
        // The image is read now, so that later changes to it (or its orientation) do not affect this call.
        let pixels: Result<PixelImage, VisionTaskError>
        do throws(VisionTaskError) { pixels = .success(try image.uprightPixels()) } catch { pixels = .failure(error) }
        let callback = MainQueueCallback(completion)
        queue.async {
            let outcome = pixels.flatMap { image in Result { () throws(VisionTaskError) in try self.faces(in: image) } }
            DispatchQueue.main.async {
                switch outcome {
                case .success(let faces): callback.completion(faces, nil)
                case .failure(let error): callback.completion(nil, error)
                }
            }
        }
    }

    private func faces(in image: PixelImage) throws(VisionTaskError) -> [Face] {
        try loadedAnalyzer().results(in: image).map(Face.init)
    }

    private func loadedAnalyzer() throws(VisionTaskError) -> FaceAnalyzer {
        lock.lock()
        defer { lock.unlock() }
        if let analyzer { return try analyzer.get() }
        let loaded: Result<FaceAnalyzer, VisionTaskError>
        do throws(VisionTaskError) { loaded = .success(try FaceAnalyzer(options: options)) } catch {
            loaded = .failure(error)
        }
        analyzer = loaded
        return try loaded.get()
    }
}

/// Carries a completion closure to the main queue, where it is called once.
private struct MainQueueCallback: @unchecked Sendable {
    // @unchecked: ML Kit's callback type is not `@Sendable`; the closure is only ever called on the main queue.
    let completion: FaceDetectionCallback

    init(_ completion: @escaping FaceDetectionCallback) { self.completion = completion }
}
