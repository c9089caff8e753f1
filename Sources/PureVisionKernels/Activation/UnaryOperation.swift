/// The element-wise one-input float operators (activations and math functions) of TFLite.
public enum UnaryOperation: Sendable, Hashable {
    /// `max(x, 0)` (RELU).
    case relu
    /// `min(max(x, 0), 6)` (RELU6).
    case relu6
    /// `min(max(x, -1), 1)` (RELU_N1_TO_1).
    case reluMinus1To1
    /// `1 / (1 + e^-x)` (LOGISTIC).
    case logistic
    /// `tanh(x)` (TANH).
    case tanh
    /// `x · relu6(x + 3) / 6` (HARD_SWISH).
    case hardSwish
    /// `x >= 0 ? x : alpha · x` (LEAKY_RELU).
    case leakyRelu(alpha: Float)
    /// `|x|` (ABS).
    case abs
    /// `-x` (NEG).
    case neg
    /// `e^x` (EXP).
    case exp
    /// `√x` (SQRT); NaN for negative inputs.
    case sqrt
    /// `1 / √x` (RSQRT).
    case rsqrt
    /// `x²` (SQUARE).
    case square
    /// `x < 0 ? e^x - 1 : x` (ELU).
    case elu
}
