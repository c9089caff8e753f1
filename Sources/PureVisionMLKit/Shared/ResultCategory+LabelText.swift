import PureVision

extension ResultCategory {
    /// ML Kit's label text for this category: its display name, or its name when the model has no display names.
    var labelText: String { [displayName, categoryName].compactMap { $0 }.first { !$0.isEmpty } ?? "" }
}
