/// Geometry of a depthwise 2-D convolution over NHWC input: output channel `c` reads only input channel
/// `c / depthMultiplier`. Padding amounts are explicit (the interpreter resolves SAME/VALID the way TFLite does);
/// taps that fall outside the input read zero.
///
/// Output pixel `(oy, ox)` reads input row `oy * strideHeight - paddingTop + ky * dilationHeight` and column
/// `ox * strideWidth - paddingLeft + kx * dilationWidth` for every tap `(ky, kx)` of the filter.
public struct DepthwiseConv2DGeometry: Sendable, Hashable {
    /// Images in the batch (`N` of NHWC).
    public var batch: Int
    /// Input rows (`H`).
    public var inputHeight: Int
    /// Input columns (`W`).
    public var inputWidth: Int
    /// Input channels (`C`), the innermost input dimension.
    public var inputChannels: Int
    /// Output rows.
    public var outputHeight: Int
    /// Output columns.
    public var outputWidth: Int
    /// Output channels, `inputChannels · depthMultiplier`.
    public var outputChannels: Int
    /// Filter rows.
    public var kernelHeight: Int
    /// Filter columns.
    public var kernelWidth: Int
    /// Step between output rows, in input rows (≥ 1).
    public var strideHeight: Int
    /// Step between output columns, in input columns (≥ 1).
    public var strideWidth: Int
    /// Step between filter rows, in input rows (≥ 1).
    public var dilationHeight: Int
    /// Step between filter columns, in input columns (≥ 1).
    public var dilationWidth: Int
    /// Implicit zero rows above the input (the amount below follows from the output size).
    public var paddingTop: Int
    /// Implicit zero columns left of the input.
    public var paddingLeft: Int
    /// Output channels per input channel (≥ 1).
    public var depthMultiplier: Int

    /// Creates a geometry from explicit, already-resolved sizes.
    public init(
        batch: Int, inputHeight: Int, inputWidth: Int, inputChannels: Int,
        outputHeight: Int, outputWidth: Int, outputChannels: Int,
        kernelHeight: Int, kernelWidth: Int,
        strideHeight: Int, strideWidth: Int,
        dilationHeight: Int, dilationWidth: Int,
        paddingTop: Int, paddingLeft: Int,
        depthMultiplier: Int
    ) {
        self.batch = batch
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
        self.inputChannels = inputChannels
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
        self.outputChannels = outputChannels
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        self.dilationHeight = dilationHeight
        self.dilationWidth = dilationWidth
        self.paddingTop = paddingTop
        self.paddingLeft = paddingLeft
        self.depthMultiplier = depthMultiplier
    }

    /// Whether every size is positive, strides, dilations and the multiplier are at least 1, paddings are
    /// non-negative and `outputChannels == inputChannels · depthMultiplier`.
    public var isValid: Bool {
        batch > 0 && inputHeight > 0 && inputWidth > 0 && inputChannels > 0
            && outputHeight > 0 && outputWidth > 0 && depthMultiplier > 0
            && outputChannels == inputChannels * depthMultiplier
            && kernelHeight > 0 && kernelWidth > 0 && strideHeight > 0 && strideWidth > 0
            && dilationHeight > 0 && dilationWidth > 0 && paddingTop >= 0 && paddingLeft >= 0
    }

    /// The kernel rows `ky` whose taps land inside the input for a window whose first tap is input row `origin`
    /// (negative inside the top padding); empty when none does.
    @inlinable
    public func tapRows(from origin: Int) -> Range<Int> {
        let start = min(kernelHeight, max(0, (-origin + dilationHeight - 1) / dilationHeight))
        return start..<max(start, min(kernelHeight, (inputHeight - origin + dilationHeight - 1) / dilationHeight))
    }

    /// The kernel columns `kx` whose taps land inside the input for a window whose first tap is input column
    /// `origin`; empty when none does.
    @inlinable
    public func tapColumns(from origin: Int) -> Range<Int> {
        let start = min(kernelWidth, max(0, (-origin + dilationWidth - 1) / dilationWidth))
        return start..<max(start, min(kernelWidth, (inputWidth - origin + dilationWidth - 1) / dilationWidth))
    }

    /// Output columns `ox` whose taps all fall inside the input's columns (a contiguous run, possibly empty).
    public var interiorColumns: Range<Int> {
        interiorOutputs(
            output: outputWidth, input: inputWidth, kernel: kernelWidth, stride: strideWidth, dilation: dilationWidth,
            paddingBefore: paddingLeft)
    }
}
