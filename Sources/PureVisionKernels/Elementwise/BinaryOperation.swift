/// The element-wise arithmetic of TFLite's two-input float operators.
public enum BinaryOperation: Sendable, Hashable, CaseIterable {
    /// `lhs + rhs` (ADD).
    case add
    /// `lhs - rhs` (SUB).
    case sub
    /// `lhs * rhs` (MUL).
    case mul
    /// `lhs / rhs` (DIV), IEEE semantics: division by zero gives ±∞ or NaN.
    case div
    /// `max(lhs, rhs)` (MAXIMUM).
    case maximum
    /// `min(lhs, rhs)` (MINIMUM).
    case minimum
    /// `(lhs - rhs)²` (SQUARED_DIFFERENCE).
    case squaredDifference
}
