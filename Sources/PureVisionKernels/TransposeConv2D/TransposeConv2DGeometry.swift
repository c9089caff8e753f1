/// The shapes and steps of a 2-D transposed convolution over NHWC tensors with an OHWI filter
/// (`[outputChannels, kernelHeight, kernelWidth, inputChannels]`).
///
/// Contributions that land outside the output are dropped.
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
    /// The filter's size, strides and cropping (undilated): input pixel `(iy, ix)` reaches, through tap `(ky, kx)`,
    /// output pixel `(iy·strideHeight − paddingTop + ky, ix·strideWidth − paddingLeft + kx)`.
    public var window: Window2D

    /// Creates a geometry from its fields.
    public init(
        batch: Int, inputHeight: Int, inputWidth: Int, inputChannels: Int, outputHeight: Int, outputWidth: Int,
        outputChannels: Int, window: Window2D
    ) {
        self.batch = batch
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
        self.inputChannels = inputChannels
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
        self.outputChannels = outputChannels
        self.window = window
    }

    /// Whether the kernels can run it: every extent positive, the window valid and undilated.
    public var isValid: Bool {
        batch > 0 && inputHeight > 0 && inputWidth > 0 && inputChannels > 0 && outputHeight > 0 && outputWidth > 0
            && outputChannels > 0 && window.isValid && window.isUndilated
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
