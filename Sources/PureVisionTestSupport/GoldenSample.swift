import Foundation

/// The goldens a task parity test runs: all of them, or every n-th where the environment sets
/// `PUREVISION_GOLDEN_STRIDE=n`.
///
/// For emulated runs only: under qemu (`tools/platforms/arm64.sh`) a model runs 30–50 times slower than natively,
/// and the task parity suites would take hours. The native test run leaves it unset and checks every golden; a
/// sampled run holds each golden it runs to the same bounds.
public enum GoldenSample {
    /// 1 unless `PUREVISION_GOLDEN_STRIDE` holds an integer of at least 2.
    public static let stride: Int = {
        guard let text = ProcessInfo.processInfo.environment["PUREVISION_GOLDEN_STRIDE"], !text.isEmpty else {
            return 1
        }
        guard let value = Int(text), value >= 1 else {
            preconditionFailure("PUREVISION_GOLDEN_STRIDE=\(text) is not a positive integer")
        }
        return value
    }()

    /// `goldens`, or every ``stride``-th of them starting with the first.
    public static func select<T>(_ goldens: [T]) -> [T] {
        stride == 1 ? goldens : Swift.stride(from: 0, to: goldens.count, by: stride).map { goldens[$0] }
    }
}
