/// Geometry of a 2-D convolution over NHWC input. Padding amounts are explicit (the interpreter resolves SAME/VALID
/// the way TFLite does); taps that fall outside the input read zero.
///
/// Output pixel `(oy, ox)` reads input row `oy * strideHeight - paddingTop + ky * dilationHeight` and column
/// `ox * strideWidth - paddingLeft + kx * dilationWidth` for every tap `(ky, kx)` of the filter.
public struct Conv2DGeometry: Sendable, Hashable {
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
    /// Output channels, the innermost output dimension.
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

    /// Creates a geometry from explicit, already-resolved sizes.
    public init(
        batch: Int, inputHeight: Int, inputWidth: Int, inputChannels: Int,
        outputHeight: Int, outputWidth: Int, outputChannels: Int,
        kernelHeight: Int, kernelWidth: Int,
        strideHeight: Int, strideWidth: Int,
        dilationHeight: Int, dilationWidth: Int,
        paddingTop: Int, paddingLeft: Int
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
    }

    /// Output columns `ox` whose receptive fields lie inside the input's columns (a contiguous run, possibly empty).
    public var interiorColumns: Range<Int> {
        interiorOutputs(
            output: outputWidth, input: inputWidth, kernel: kernelWidth, stride: strideWidth, dilation: dilationWidth,
            paddingBefore: paddingLeft)
    }

    /// Whether the NHWC input itself is the convolution's `[pixels, inputChannels]` im2col matrix: a 1×1 kernel with
    /// unit strides, no padding and the output the input's size.
    public var readsPixelsInPlace: Bool {
        kernelHeight == 1 && kernelWidth == 1 && strideHeight == 1 && strideWidth == 1 && paddingTop == 0
            && paddingLeft == 0 && inputHeight == outputHeight && inputWidth == outputWidth
    }

    /// Whether each image's pixels, in order, are the one receptive field of its one output pixel: a kernel the size
    /// of the input, without padding or dilation (a fully connected layer written as a convolution, as at the end of
    /// MediaPipe's landmark models). The input is then its own im2col matrix, one row of
    /// `inputHeight · inputWidth · inputChannels` per image.
    public var readsWholeImageAsPatch: Bool {
        kernelHeight == inputHeight && kernelWidth == inputWidth && outputHeight == 1 && outputWidth == 1
            && paddingTop == 0 && paddingLeft == 0 && dilationHeight == 1 && dilationWidth == 1
    }

    /// Whether every size is positive, strides and dilations are at least 1 and paddings are non-negative.
    public var isValid: Bool {
        batch > 0 && inputHeight > 0 && inputWidth > 0 && inputChannels > 0
            && outputHeight > 0 && outputWidth > 0 && outputChannels > 0
            && kernelHeight > 0 && kernelWidth > 0 && strideHeight > 0 && strideWidth > 0
            && dilationHeight > 0 && dilationWidth > 0 && paddingTop >= 0 && paddingLeft >= 0
    }
}
