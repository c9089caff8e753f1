/// The window placement the convolution geometries share, for their scalar references: NHWC tensors, and output
/// pixel `(oy, ox)` reading tap `(ky, kx)` at input row `oy · strideHeight − paddingTop + ky · dilationHeight` and
/// column `ox · strideWidth − paddingLeft + kx · dilationWidth`.
protocol ConvolutionWindowGeometry {
    /// Images in the batch.
    var batch: Int { get }
    /// Input rows.
    var inputHeight: Int { get }
    /// Input columns.
    var inputWidth: Int { get }
    /// Output rows.
    var outputHeight: Int { get }
    /// Output columns.
    var outputWidth: Int { get }
    /// Output channels, the innermost output dimension.
    var outputChannels: Int { get }
    /// Filter rows.
    var kernelHeight: Int { get }
    /// Filter columns.
    var kernelWidth: Int { get }
    /// Step between output rows, in input rows.
    var strideHeight: Int { get }
    /// Step between output columns, in input columns.
    var strideWidth: Int { get }
    /// Step between filter rows, in input rows.
    var dilationHeight: Int { get }
    /// Step between filter columns, in input columns.
    var dilationWidth: Int { get }
    /// Implicit zero rows above the input.
    var paddingTop: Int { get }
    /// Implicit zero columns left of the input.
    var paddingLeft: Int { get }
}

extension Conv2DGeometry: ConvolutionWindowGeometry {}

extension DepthwiseConv2DGeometry: ConvolutionWindowGeometry {}

extension ConvolutionWindowGeometry {
    /// Calls `body` for every output element in NHWC order: image `b`, pixel `(oy, ox)`, channel `o`, and the
    /// element's flat index.
    @inline(__always)
    func forEachOutput(_ body: (_ b: Int, _ oy: Int, _ ox: Int, _ o: Int, _ outputIndex: Int) -> Void) {
        var outputIndex = 0
        for b in 0..<batch {
            for oy in 0..<outputHeight {
                for ox in 0..<outputWidth {
                    for o in 0..<outputChannels {
                        body(b, oy, ox, o, outputIndex)
                        outputIndex += 1
                    }
                }
            }
        }
    }

    /// Calls `body` for every tap `(ky, kx)` of output pixel `(oy, ox)` of image `b` that lands inside the input,
    /// with the flat NHWC input pixel it reads (`(b · inputHeight + iy) · inputWidth + ix`); taps in the padding
    /// are skipped. The taps go filter row by filter row, or with `columnsFirst` filter column by filter column.
    @inline(__always)
    func forEachTap(
        _ b: Int, _ oy: Int, _ ox: Int, columnsFirst: Bool = false,
        _ body: (_ ky: Int, _ kx: Int, _ pixel: Int) -> Void
    ) {
        let (outer, inner) = columnsFirst ? (kernelWidth, kernelHeight) : (kernelHeight, kernelWidth)
        for first in 0..<outer {
            for second in 0..<inner {
                let (ky, kx) = columnsFirst ? (second, first) : (first, second)
                let iy = oy * strideHeight - paddingTop + ky * dilationHeight
                let ix = ox * strideWidth - paddingLeft + kx * dilationWidth
                guard iy >= 0, iy < inputHeight, ix >= 0, ix < inputWidth else { continue }
                body(ky, kx, (b * inputHeight + iy) * inputWidth + ix)
            }
        }
    }
}
