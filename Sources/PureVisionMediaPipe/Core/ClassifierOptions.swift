import PureVision

/// How a classifier inside a task filters its categories: MediaPipe's `ClassifierOptions` (`MPPClassifierOptions`),
/// as `GestureRecognizerOptions.cannedGesturesClassifierOptions` and `customGesturesClassifierOptions` take it.
///
/// A class with `init()` and mutable properties, with MediaPipe's defaults. As in MediaPipe, setting these options
/// always sends `scoreThreshold` (0 unless changed), which replaces a threshold in the model's metadata; leaving the
/// task's options nil keeps the metadata's threshold.
public final class ClassifierOptions {
    /// The locale of the display names; nil (the default) is MediaPipe's `"en"`.
    public var displayNamesLocale: String?
    /// The most categories kept, best first; a negative value keeps all. Default −1.
    public var maxResults: Int = -1
    /// Categories scoring below this are dropped. Default 0.
    public var scoreThreshold: Float = 0
    /// Only these category names are kept (exclusive with `categoryDenylist`). Default nil.
    public var categoryAllowlist: [String]?
    /// These category names are dropped (exclusive with `categoryAllowlist`). Default nil.
    public var categoryDenylist: [String]?

    /// Creates options with MediaPipe's defaults.
    public init() {}

    /// PureVision's options for these values (a set threshold, as MediaPipe's `copyToProto` always sets one).
    var nativeGestureOptions: GestureClassifierOptions {
        GestureClassifierOptions(
            displayNamesLocale: displayNamesLocale ?? "en", maxResults: maxResults, scoreThreshold: scoreThreshold,
            categoryAllowlist: categoryAllowlist ?? [], categoryDenylist: categoryDenylist ?? [])
    }
}
