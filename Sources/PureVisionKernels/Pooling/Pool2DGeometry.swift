/// Geometry of a 2-D pooling window over NHWC input; channels pool independently. Padding amounts are explicit
/// (the interpreter resolves SAME/VALID the way TFLite does); taps outside the input are skipped, not read as zero.
///
/// Output pixel `(oy, ox)` covers input rows `oy * strideHeight - paddingTop ..< + filterHeight` and columns
/// `ox * strideWidth - paddingLeft ..< + filterWidth`, clipped to the input.
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
    /// Window rows.
    public var filterHeight: Int
    /// Window columns.
    public var filterWidth: Int
    /// Step between output rows, in input rows (≥ 1).
    public var strideHeight: Int
    /// Step between output columns, in input columns (≥ 1).
    public var strideWidth: Int
    /// Rows of padding above the input.
    public var paddingTop: Int
    /// Columns of padding left of the input.
    public var paddingLeft: Int

    /// Creates a geometry from explicit, already-resolved sizes.
    public init(
        batch: Int, inputHeight: Int, inputWidth: Int, channels: Int,
        outputHeight: Int, outputWidth: Int,
        filterHeight: Int, filterWidth: Int,
        strideHeight: Int, strideWidth: Int,
        paddingTop: Int, paddingLeft: Int
    ) {
        self.batch = batch
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
        self.channels = channels
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
        self.filterHeight = filterHeight
        self.filterWidth = filterWidth
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        self.paddingTop = paddingTop
        self.paddingLeft = paddingLeft
    }

    /// Whether every size is positive, strides are at least 1 and paddings are non-negative.
    public var isValid: Bool {
        batch > 0 && inputHeight > 0 && inputWidth > 0 && channels > 0 && outputHeight > 0 && outputWidth > 0
            && filterHeight > 0 && filterWidth > 0 && strideHeight > 0 && strideWidth > 0
            && paddingTop >= 0 && paddingLeft >= 0
    }

    /// Whether the single output pixel's window covers the whole input (global pooling).
    public var isGlobal: Bool {
        outputHeight == 1 && outputWidth == 1 && rowWindow(0) == (0, inputHeight) && columnWindow(0) == (0, inputWidth)
    }

    /// The in-bounds window of output row `oy`: input rows `start ..< end` (empty when the window misses the input).
    @usableFromInline
    func rowWindow(_ oy: Int) -> (start: Int, end: Int) {
        let origin = oy * strideHeight - paddingTop
        let start = max(origin, 0)
        return (start, max(start, min(origin + filterHeight, inputHeight)))
    }

    /// The in-bounds window of output column `ox`: input columns `start ..< end`.
    @usableFromInline
    func columnWindow(_ ox: Int) -> (start: Int, end: Int) {
        let origin = ox * strideWidth - paddingLeft
        let start = max(origin, 0)
        return (start, max(start, min(origin + filterWidth, inputWidth)))
    }
}
