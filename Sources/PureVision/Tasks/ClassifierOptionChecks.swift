/// The checks MediaPipe makes on a `ClassifierOptions` before it looks at the model, shared by the image classifier,
/// the object detector and the gesture recognizer's two classifiers, which all take those options.
enum ClassifierOptionChecks {
    /// Rejects `maxResults` 0, both category lists set, and a NaN score threshold.
    /// - Parameters:
    ///   - kept: what `maxResults` counts ("categories", "detections"), for the message.
    ///   - namePrefix: put before the option names in errors ("cannedGesturesClassifierOptions." for options nested
    ///     in a task's options; empty for a task's own).
    static func validate(
        maxResults: Int, categoryAllowlist: [String], categoryDenylist: [String], scoreThreshold: Float?,
        kept: String, namePrefix: String = ""
    ) throws(VisionTaskError) {
        guard maxResults != 0 else {
            throw .invalidOption(name: namePrefix + "maxResults", reason: "value must be != 0 (−1 keeps all \(kept))")
        }
        guard categoryAllowlist.isEmpty || categoryDenylist.isEmpty else {
            throw .invalidOption(
                name: namePrefix + "categoryAllowlist",
                reason: "categoryAllowlist and categoryDenylist are mutually exclusive")
        }
        if let scoreThreshold, scoreThreshold.isNaN {
            throw .invalidOption(name: namePrefix + "scoreThreshold", reason: "must be a number, got NaN")
        }
    }
}
