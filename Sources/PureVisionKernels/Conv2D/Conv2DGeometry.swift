/// Geometry of a 2-D convolution over NHWC input: the input and output extents and the ``Window2D`` the filter
/// slides as. Taps that fall outside the input read zero.
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
    /// The filter's size, strides, dilations and padding.
    public var window: Window2D

    /// Creates a geometry from explicit, already-resolved sizes.
    public init(
        batch: Int, inputHeight: Int, inputWidth: Int, inputChannels: Int,
        outputHeight: Int, outputWidth: Int, outputChannels: Int, window: Window2D
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

    /// Output columns `ox` whose receptive fields lie inside the input's columns (a contiguous run, possibly empty).
    public var interiorColumns: Range<Int> {
        window.interiorColumns(outputWidth: outputWidth, inputWidth: inputWidth)
    }

    /// The kernel rows `ky` whose taps land inside the input for a window whose first tap is input row `origin`
    /// (negative inside the top padding); empty when none does.
    @inlinable
    public func tapRows(from origin: Int) -> Range<Int> {
        window.tapRows(from: origin, inputHeight: inputHeight)
    }

    /// The kernel columns `kx` whose taps land inside the input for a window whose first tap is input column
    /// `origin`; empty when none does.
    @inlinable
    public func tapColumns(from origin: Int) -> Range<Int> {
        window.tapColumns(from: origin, inputWidth: inputWidth)
    }

    /// Whether the NHWC input itself is the convolution's `[pixels, inputChannels]` im2col matrix: a 1×1 kernel with
    /// unit strides, no padding and the output the input's size.
    public var readsPixelsInPlace: Bool {
        window.kernelHeight == 1 && window.kernelWidth == 1 && window.strideHeight == 1 && window.strideWidth == 1
            && window.paddingTop == 0 && window.paddingLeft == 0 && inputHeight == outputHeight
            && inputWidth == outputWidth
    }

    /// Whether each image's pixels, in order, are the one receptive field of its one output pixel: a kernel the size
    /// of the input, without padding or dilation (a fully connected layer written as a convolution, as at the end of
    /// MediaPipe's landmark models). The input is then its own im2col matrix, one row of
    /// `inputHeight · inputWidth · inputChannels` per image.
    public var readsWholeImageAsPatch: Bool {
        window.kernelHeight == inputHeight && window.kernelWidth == inputWidth && outputHeight == 1 && outputWidth == 1
            && window.paddingTop == 0 && window.paddingLeft == 0 && window.isUndilated
    }

    /// Whether every size is positive and the window is valid.
    public var isValid: Bool {
        batch > 0 && inputHeight > 0 && inputWidth > 0 && inputChannels > 0
            && outputHeight > 0 && outputWidth > 0 && outputChannels > 0 && window.isValid
    }
}
