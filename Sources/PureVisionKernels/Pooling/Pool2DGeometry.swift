/// Geometry of a 2-D pooling window over NHWC input; channels pool independently. Padding amounts are explicit
/// (the interpreter resolves SAME/VALID the way TFLite does); taps outside the input are skipped, not read as zero.
///
/// Output pixel `(oy, ox)` covers input rows `oy * strideHeight - paddingTop ..< + kernelHeight` and columns
/// `ox * strideWidth - paddingLeft ..< + kernelWidth` of its ``window``, clipped to the input.
public struct Pool2DGeometry: Sendable, Hashable {
    /// Images in the batch (`N` of NHWC).
    public var batch: Int
    /// Input rows (`H`).
    public var inputHeight: Int
    /// Input columns (`W`).
    public var inputWidth: Int
    /// Channels (`C`) of both input and output, the innermost dimension.
    public var channels: Int
    /// Output rows.
    public var outputHeight: Int
    /// Output columns.
    public var outputWidth: Int
    /// The window's size, strides and padding (undilated).
    public var window: Window2D

    /// Creates a geometry from explicit, already-resolved sizes.
    public init(
        batch: Int, inputHeight: Int, inputWidth: Int, channels: Int, outputHeight: Int, outputWidth: Int,
        window: Window2D
    ) {
        self.batch = batch
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
        self.channels = channels
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
        self.window = window
    }

    /// Whether every size is positive and the window is valid and undilated.
    public var isValid: Bool {
        batch > 0 && inputHeight > 0 && inputWidth > 0 && channels > 0 && outputHeight > 0 && outputWidth > 0
            && window.isValid && window.isUndilated
    }

    /// Whether the single output pixel's window covers the whole input (global pooling).
    public var isGlobal: Bool {
        outputHeight == 1 && outputWidth == 1 && rowWindow(0) == (0, inputHeight) && columnWindow(0) == (0, inputWidth)
    }

    /// The in-bounds window of output row `oy`: input rows `start ..< end` (empty when the window misses the input).
    @usableFromInline
    func rowWindow(_ oy: Int) -> (start: Int, end: Int) {
        let origin = oy * window.strideHeight - window.paddingTop
        let start = max(origin, 0)
        return (start, max(start, min(origin + window.kernelHeight, inputHeight)))
    }

    /// The in-bounds window of output column `ox`: input columns `start ..< end`.
    @usableFromInline
    func columnWindow(_ ox: Int) -> (start: Int, end: Int) {
        let origin = ox * window.strideWidth - window.paddingLeft
        let start = max(origin, 0)
        return (start, max(start, min(origin + window.kernelWidth, inputWidth)))
    }
}
