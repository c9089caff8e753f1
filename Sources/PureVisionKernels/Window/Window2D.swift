/// The window a 2-D convolution or pooling slides over an NHWC image: its taps, the step between its positions,
/// the step between its taps and the padding before its first position. Padding amounts are explicit (the
/// interpreter resolves SAME/VALID the way TFLite does).
///
/// Output pixel `(oy, ox)` places tap `(ky, kx)` on input row `oy · strideHeight − paddingTop + ky · dilationHeight`
/// and column `ox · strideWidth − paddingLeft + kx · dilationWidth` (a transposed convolution reads the same
/// relation the other way: input pixel `(iy, ix)` reaches output `(iy · strideHeight − paddingTop + ky, …)`).
public struct Window2D: Sendable, Hashable {
    /// Filter (or pooling window) rows.
    public var kernelHeight: Int
    /// Filter (or pooling window) columns.
    public var kernelWidth: Int
    /// Step between window positions along the rows (≥ 1).
    public var strideHeight: Int
    /// Step between window positions along the columns (≥ 1).
    public var strideWidth: Int
    /// Step between filter rows, in input rows (≥ 1; 1 for pooling and transposed convolution).
    public var dilationHeight: Int
    /// Step between filter columns, in input columns (≥ 1; 1 for pooling and transposed convolution).
    public var dilationWidth: Int
    /// Implicit rows above the input (the amount below follows from the output size).
    public var paddingTop: Int
    /// Implicit columns left of the input.
    public var paddingLeft: Int

    /// Creates a window from explicit, already-resolved sizes; dilations default to 1.
    public init(
        kernelHeight: Int, kernelWidth: Int, strideHeight: Int, strideWidth: Int, dilationHeight: Int = 1,
        dilationWidth: Int = 1, paddingTop: Int, paddingLeft: Int
    ) {
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        self.dilationHeight = dilationHeight
        self.dilationWidth = dilationWidth
        self.paddingTop = paddingTop
        self.paddingLeft = paddingLeft
    }

    /// The 1×1 window with unit steps and no padding: each output pixel reads the input pixel at the same place.
    public static var pointwise: Window2D {
        Window2D(kernelHeight: 1, kernelWidth: 1, strideHeight: 1, strideWidth: 1, paddingTop: 0, paddingLeft: 0)
    }

    /// Whether the kernel is at least 1×1, strides and dilations are at least 1 and paddings are non-negative.
    public var isValid: Bool {
        kernelHeight > 0 && kernelWidth > 0 && strideHeight > 0 && strideWidth > 0 && dilationHeight > 0
            && dilationWidth > 0 && paddingTop >= 0 && paddingLeft >= 0
    }

    /// Whether consecutive taps are consecutive input pixels (both dilations 1), as pooling and transposed
    /// convolution require.
    public var isUndilated: Bool { dilationHeight == 1 && dilationWidth == 1 }

    /// Output columns `ox` (of `outputWidth`) whose taps all fall inside `inputWidth` input columns: a contiguous
    /// run, possibly empty. The kernels treat these columns without bounds checks.
    @inlinable
    public func interiorColumns(outputWidth: Int, inputWidth: Int) -> Range<Int> {
        let first = min(outputWidth, (paddingLeft + strideWidth - 1) / strideWidth)
        let lastStart = inputWidth - 1 + paddingLeft - (kernelWidth - 1) * dilationWidth
        let end = lastStart < 0 ? 0 : min(outputWidth, lastStart / strideWidth + 1)
        return first..<max(first, end)
    }

    /// The kernel rows `ky` whose taps land inside `inputHeight` input rows for a window whose first tap is input
    /// row `origin` (negative inside the top padding); empty when none does.
    @inlinable
    public func tapRows(from origin: Int, inputHeight: Int) -> Range<Int> {
        Self.taps(from: origin, kernel: kernelHeight, dilation: dilationHeight, input: inputHeight)
    }

    /// The kernel columns `kx` whose taps land inside `inputWidth` input columns for a window whose first tap is
    /// input column `origin`; empty when none does.
    @inlinable
    public func tapColumns(from origin: Int, inputWidth: Int) -> Range<Int> {
        Self.taps(from: origin, kernel: kernelWidth, dilation: dilationWidth, input: inputWidth)
    }

    /// The taps `0..<kernel`, `dilation` apart from `origin`, that land in `0..<input`.
    @inlinable
    static func taps(from origin: Int, kernel: Int, dilation: Int, input: Int) -> Range<Int> {
        let start = min(kernel, max(0, (-origin + dilation - 1) / dilation))
        return start..<max(start, min(kernel, (input - origin + dilation - 1) / dilation))
    }
}
