/// The range checks the tasks make on their numeric options, each with the one message it reports.
enum OptionChecks {
    /// Rejects a count below 1 (of faces, hands, poses, threads).
    static func atLeastOne(_ value: Int, name: String) throws(VisionTaskError) {
        guard value >= 1 else { throw .invalidOption(name: name, reason: "must be ≥ 1, got \(value)") }
    }

    /// Rejects the first of `values` (option name, value) outside [0, 1], NaN included.
    static func fractions(_ values: [(name: String, value: Float)]) throws(VisionTaskError) {
        for (name, value) in values where !(0...1).contains(value) {
            throw .invalidOption(name: name, reason: "must be in [0, 1], got \(value)")
        }
    }
}
