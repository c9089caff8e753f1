import Foundation
import PureVision

/// The completion of `ObjectDetector.process(_:completion:)`: ML Kit's `ObjectDetectionCallback`, the objects or an
/// error.
public typealias ObjectDetectionCallback = ([Object]?, (any Error)?) -> Void

/// ML Kit's `ObjectDetector` (`MLKObjectDetector`) over PureVision's `ObjectDetector` (see `ObjectDetectorOptions`
/// for the model, its labels and which detections are reported).
///
/// In `.stream` mode the objects get tracking IDs from PureVision's `FaceTracker`, the IoU tracker the face layer
/// uses (ML Kit's own tracker is not published): each frame's boxes are matched to the previous frame's from the
/// largest overlap down, each box at most once, when their intersection over union is at least 0.3; a matched object
/// keeps its predecessor's ID, any other gets a new one (IDs count up from 0 and are never reused), and an object
/// absent from one frame loses its ID, as ML Kit's do when they leave the view.
///
/// As in ML Kit, creating a detector cannot fail: the model loads on first use, and a problem (e.g. the model not
/// found, see `ObjectDetectorOptions.modelDirectory`) is reported by `results(in:)` or `process(_:completion:)`.
/// Calls are serialised; in `.stream` mode each call is the next frame of the stream.
public final class ObjectDetector: Sendable {
    private let core: DetectorCore<ObjectStream, [Object]>

    private init(options: PureVision.ObjectDetectorOptions, tracking: Bool, labelled: Bool) {
        core = DetectorCore(
            label: "ObjectDetector",
            makeTask: { () throws(VisionTaskError) in
                ObjectStream(
                    detector: try PureVision.ObjectDetector(options: options), tracker: tracking ? FaceTracker() : nil,
                    labelled: labelled)
            },
            run: { stream, image throws(VisionTaskError) in try stream.objects(in: image) })
    }

    /// ML Kit's `ObjectDetector.objectDetector(options:)`. The options are read now; later changes have no effect.
    public static func objectDetector(options: ObjectDetectorOptions) -> ObjectDetector {
        ObjectDetector(
            options: options.native, tracking: options.detectorMode == .stream,
            labelled: options.shouldEnableClassification)
    }

    /// ML Kit's `ObjectDetector.objectDetector()`: default options.
    public static func objectDetector() -> ObjectDetector { objectDetector(options: ObjectDetectorOptions()) }

    /// ML Kit's `results(in:)`: the objects in `image`, synchronously, best first.
    /// - Throws: `VisionTaskError` when the model cannot be loaded or the image cannot be read.
    public func results(in image: VisionImage) throws -> [Object] { try core.results(in: image) }

    /// ML Kit's `process(_:completion:)`: analyses `image` on the detector's own serial queue and calls `completion`
    /// on the main queue with the objects (best first) or the error, as ML Kit does.
    public func process(_ image: VisionImage, completion: @escaping ObjectDetectionCallback) {
        core.process(image, completion: completion)
    }

    /// ML Kit's `process(_:) async` (Swift's form of `process(_:completion:)`): the objects of `image`, computed on the
    /// detector's own serial queue.
    /// - Throws: what `results(in:)` throws.
    public func process(_ image: VisionImage) async throws -> [Object] { try await core.process(image) }
}

/// The native detector and, in stream mode, the tracker carrying IDs from frame to frame.
private final class ObjectStream {
    let detector: PureVision.ObjectDetector
    var tracker: FaceTracker?
    let labelled: Bool

    init(detector: PureVision.ObjectDetector, tracker: FaceTracker?, labelled: Bool) {
        self.detector = detector
        self.tracker = tracker
        self.labelled = labelled
    }

    func objects(in image: PixelImage) throws(VisionTaskError) -> [Object] {
        let detections = try detector.detect(image: image).detections
        let ids: [Int?] = tracker?.update(detections.map(\.boundingBox.pixelRect)) ?? detections.map { _ in nil }
        return zip(detections, ids).map { detection, id in Object(detection, labelled: labelled, trackingID: id) }
    }
}

extension BoundingBox {
    /// The same box as a `PixelRect`, the tracker's type.
    fileprivate var pixelRect: PixelRect {
        PixelRect(originX: Float(originX), originY: Float(originY), width: Float(width), height: Float(height))
    }
}
