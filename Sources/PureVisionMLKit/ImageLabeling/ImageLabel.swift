import PureVision

/// One label of an image: ML Kit's `ImageLabel` (`MLKImageLabel`); also one label of a detected object (ML Kit's
/// `ObjectLabel`, the same properties).
public final class ImageLabel: Sendable {
    /// The label: the category's display name, or its name when the model has no display names.
    public let text: String
    /// The score, in [0, 1].
    public let confidence: Float
    /// The category's index in the model's label list.
    public let index: Int

    /// The label of a native category.
    init(_ category: ResultCategory) {
        text = category.labelText
        confidence = category.score
        index = category.index
    }
}
