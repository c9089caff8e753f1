import PureVision

/// Checks of ML Kit's options that PureVision's tasks do not make themselves.
enum OptionCheck {
    /// `value` as a `Float` in [0, 1], or nil when unset.
    /// - Throws: `VisionTaskError.invalidOption` naming the option for a value outside [0, 1] or NaN (ML Kit falls back
    ///   to its default there; reporting it is kinder than ignoring it).
    static func fraction(_ value: Double?, name: String) throws(VisionTaskError) -> Float? {
        guard let value else { return nil }
        guard (0...1).contains(value) else {
            throw .invalidOption(name: name, reason: "must be in [0, 1], got \(value)")
        }
        return Float(value)
    }
}
