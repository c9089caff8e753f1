import Foundation
import PureVision

/// Options of an `ObjectDetector`: ML Kit's `ObjectDetectorOptions` (`MLKObjectDetectorOptions`), with its defaults.
///
/// ML Kit's detector and its five coarse classes ("Fashion good", "Food", "Home good", "Place", "Plant") are not
/// published. PureVision runs MediaPipe's `efficientdet_lite0.tflite`, a COCO detector: its labels are COCO's 80
/// classes ("person", "cup", "dog" …). Objects are the native detector's detections scoring at least 0.3, at most
/// five, as in ML Kit, or only the best with `shouldEnableMultipleObjects` false. ML Kit's threshold is not published
/// either; 0.3 keeps the clearly visible objects of the test photos (a second person, a cup) that 0.5 drops.
public final class ObjectDetectorOptions {
    /// `.stream` (the default) gives objects tracking IDs kept from frame to frame; `.singleImage` analyses each
    /// image on its own, without tracking IDs.
    public var detectorMode: ObjectDetectorMode = .stream
    /// Report up to five objects instead of only the most prominent one. Default false.
    public var shouldEnableMultipleObjects: Bool = false
    /// Give each object its labels. Default false (`labels` is empty).
    public var shouldEnableClassification: Bool = false
    /// Beyond ML Kit (whose model ships inside the SDK): the directory holding `efficientdet_lite0.tflite`. Nil (the
    /// default) looks, in order, in the `PUREVISION_MODEL_DIRECTORY` environment variable, the main bundle's resources
    /// when they hold the file, and `Models` under the current directory.
    public var modelDirectory: String?

    /// The model file these options run.
    static let modelFile = "efficientdet_lite0.tflite"
    /// The lowest score of a reported object.
    static let scoreThreshold: Float = 0.3
    /// The most objects reported with `shouldEnableMultipleObjects` (ML Kit's five).
    static let maxObjectCount = 5

    /// Creates options with ML Kit's defaults.
    public init() {}

    /// PureVision's options for these values (image mode: the ML Kit layer tracks the objects itself).
    var native: PureVision.ObjectDetectorOptions {
        PureVision.ObjectDetectorOptions(
            baseOptions: BaseOptions(modelAssetPath: ModelLocation.path(of: Self.modelFile, in: modelDirectory)),
            maxResults: shouldEnableMultipleObjects ? Self.maxObjectCount : 1, scoreThreshold: Self.scoreThreshold)
    }
}
