/// The checks MediaPipe makes on a `ClassifierOptions` before it looks at the model, shared by the image classifier
/// and the object detector, which both take those options.
enum ClassifierOptionChecks {
    /// Rejects `maxResults` 0, both category lists set, and a NaN score threshold.
    /// - Parameter kept: what `maxResults` counts ("categories", "detections"), for the message.
    static func validate(
        maxResults: Int, categoryAllowlist: [String], categoryDenylist: [String], scoreThreshold: Float?,
        kept: String
    ) throws(VisionTaskError) {
        guard maxResults != 0 else {
            throw .invalidOption(name: "maxResults", reason: "value must be != 0 (−1 keeps all \(kept))")
        }
        guard categoryAllowlist.isEmpty || categoryDenylist.isEmpty else {
            throw .invalidOption(
                name: "categoryAllowlist", reason: "categoryAllowlist and categoryDenylist are mutually exclusive")
        }
        if let scoreThreshold, scoreThreshold.isNaN {
            throw .invalidOption(name: "scoreThreshold", reason: "must be a number, got NaN")
        }
    }
}
