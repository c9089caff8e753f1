/// The shapes and steps of a 2-D transposed convolution over NHWC tensors with an OHWI filter
/// (`[outputChannels, kernelHeight, kernelWidth, inputChannels]`).
///
/// Input pixel `(iy, ix)` contributes, through filter tap `(ky, kx)`, to output pixel
/// `(iy·strideHeight − paddingTop + ky, ix·strideWidth − paddingLeft + kx)`; contributions that land outside the
/// output are dropped.
public struct TransposeConv2DGeometry: Sendable, Hashable {
    /// Images in the batch.
    public var batch: Int
    /// Input rows.
    public var inputHeight: Int
    /// Input columns.
    public var inputWidth: Int
    /// Input channels (the filter's innermost extent).
    public var inputChannels: Int
    /// Output rows.
    public var outputHeight: Int
    /// Output columns.
    public var outputWidth: Int
    /// Output channels (the filter's outermost extent).
    public var outputChannels: Int
    /// Filter rows.
    public var kernelHeight: Int
    /// Filter columns.
    public var kernelWidth: Int
    /// Output rows between consecutive input rows.
    public var strideHeight: Int
    /// Output columns between consecutive input columns.
    public var strideWidth: Int
    /// Output rows cut from the top of the full (unpadded) result.
    public var paddingTop: Int
    /// Output columns cut from the left of the full result.
    public var paddingLeft: Int

    /// Creates a geometry from its fields.
    public init(
        batch: Int, inputHeight: Int, inputWidth: Int, inputChannels: Int, outputHeight: Int, outputWidth: Int,
        outputChannels: Int, kernelHeight: Int, kernelWidth: Int, strideHeight: Int, strideWidth: Int,
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
        self.paddingTop = paddingTop
        self.paddingLeft = paddingLeft
    }

    /// Whether the kernels can run it: every extent and stride positive, paddings not negative.
    public var isValid: Bool {
        batch > 0 && inputHeight > 0 && inputWidth > 0 && inputChannels > 0 && outputHeight > 0 && outputWidth > 0
            && outputChannels > 0 && kernelHeight > 0 && kernelWidth > 0 && strideHeight > 0 && strideWidth > 0
            && paddingTop >= 0 && paddingLeft >= 0
    }

    /// Where the bias enters each output's sum. The two runtimes that define the operators differ, and the order
    /// decides the float rounding.
    public enum BiasOrder: Sendable, Hashable {
        /// The output starts as the bias and the products are added to it (MediaPipe's
        /// `Convolution2DTransposeBias`).
        case first
        /// The products are summed from zero and the bias is added at the end (TFLite's `TRANSPOSE_CONV`).
        case last
    }
}
