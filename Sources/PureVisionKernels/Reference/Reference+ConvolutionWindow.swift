// The window placement the convolution references share (full and depthwise, float and 8-bit): NHWC tensors, and
// output pixel `(oy, ox)` reading tap `(ky, kx)` at input row `oy · strideHeight − paddingTop + ky · dilationHeight`
// and column `ox · strideWidth − paddingLeft + kx · dilationWidth`.
extension Conv2DGeometry {
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
        let (outer, inner) =
            columnsFirst ? (window.kernelWidth, window.kernelHeight) : (window.kernelHeight, window.kernelWidth)
        for first in 0..<outer {
            for second in 0..<inner {
                let (ky, kx) = columnsFirst ? (second, first) : (first, second)
                let iy = oy * window.strideHeight - window.paddingTop + ky * window.dilationHeight
                let ix = ox * window.strideWidth - window.paddingLeft + kx * window.dilationWidth
                guard iy >= 0, iy < inputHeight, ix >= 0, ix < inputWidth else { continue }
                body(ky, kx, (b * inputHeight + iy) * inputWidth + ix)
            }
        }
    }
}
