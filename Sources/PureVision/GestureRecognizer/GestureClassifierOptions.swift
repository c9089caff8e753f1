/// How one of the gesture recognizer's classifiers (canned or custom) filters its categories: MediaPipe Tasks'
/// `ClassifierOptions` as `GestureRecognizerOptions` takes it.
///
/// Only the best category of each hand survives MediaPipe's combining step, so `maxResults` and the display-name
/// locale never change which gesture is reported; `scoreThreshold` and the allow / deny lists do.
///
/// `scoreThreshold` nil (the default) is MediaPipe Python 0.10.14's and iOS's behaviour: the model's metadata
/// `ScoreThresholdingOptions` applies if it has one (the Model Maker custom classifier has 0.5), else none. MediaPipe's
/// C++ API always sends 0; set 0 here to get its answers.
public struct GestureClassifierOptions: Sendable, Hashable {
    /// The locale of the display names (the labels file with this `locale` in the metadata). Default `"en"`.
    public var displayNamesLocale: String
    /// The most categories kept per hand, best first; −1 (the default) or any negative value keeps all. 0 is an
    /// error.
    public var maxResults: Int
    /// Categories scoring below this are dropped; nil uses the model's metadata threshold, if any (see above).
    public var scoreThreshold: Float?
    /// Only these category names are kept. Unknown names are ignored; if none matches, no filter applies at all
    /// (MediaPipe's behaviour). Exclusive with `categoryDenylist`; needs a classifier with labels.
    public var categoryAllowlist: [String]
    /// These category names are dropped; unknown names are ignored. Exclusive with `categoryAllowlist`; needs a
    /// classifier with labels.
    public var categoryDenylist: [String]

    /// Creates options; the defaults are MediaPipe's.
    public init(
        displayNamesLocale: String = "en", maxResults: Int = -1, scoreThreshold: Float? = nil,
        categoryAllowlist: [String] = [], categoryDenylist: [String] = []
    ) {
        self.displayNamesLocale = displayNamesLocale
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        self.categoryAllowlist = categoryAllowlist
        self.categoryDenylist = categoryDenylist
    }

    /// Checks the options that do not depend on the model; `name` is the option's name in errors.
    func validate(name: String) throws(VisionTaskError) {
        try ClassifierOptionChecks.validate(
            maxResults: maxResults, categoryAllowlist: categoryAllowlist, categoryDenylist: categoryDenylist,
            scoreThreshold: scoreThreshold, kept: "categories", namePrefix: name + ".")
    }

    var settings: ClassificationHead.Settings {
        ClassificationHead.Settings(
            displayNamesLocale: displayNamesLocale, maxResults: maxResults, scoreThreshold: scoreThreshold,
            categoryAllowlist: categoryAllowlist, categoryDenylist: categoryDenylist, labelsFilePath: nil)
    }
}
