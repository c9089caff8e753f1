/// What the options of the tasks that filter a classifier's categories share, with MediaPipe's defaults: the
/// fields of MediaPipe's `ClassifierOptions` that `ImageClassifierOptions` and `ObjectDetectorOptions` each declare
/// (`MPPImageClassifierOptions`, `MPPObjectDetectorOptions`).
///
/// A base class on purpose, for those two options classes only (its own initializer is `TaskOptions`'s `init()`);
/// create the task's own options class.
public class ClassifierTaskOptions: RunningModeTaskOptions {
    /// The locale of the display names, when the model has localized labels. Default `"en"`.
    public var displayNamesLocale: String = "en"
    /// The most categories per head (`ImageClassifier`) or detections (`ObjectDetector`) reported, best first; a
    /// negative value keeps all. Default −1.
    public var maxResults: Int = -1
    /// Categories (`ImageClassifier`) or detections (`ObjectDetector`) scoring below this are dropped. Default 0:
    /// as in MediaPipe iOS, which always sends its own threshold, it replaces a threshold in the model's metadata.
    public var scoreThreshold: Float = 0
    /// Only these category names are kept (exclusive with `categoryDenylist`). Default empty.
    public var categoryAllowlist: [String] = []
    /// These category names are dropped (exclusive with `categoryAllowlist`). Default empty.
    public var categoryDenylist: [String] = []
}
