/// Int8 DEPTHWISE_CONV_2D on NHWC activations with `[1, KH, KW, Cout]` int8 weights, per-channel multipliers and
/// int32 bias, requantized like TFLite's depthwise kernels (`MultiplyByQuantizedMultiplier`, double rounding).
///
/// Taps outside the input are skipped (TFLite's rule; equivalent to padding with the input zero point). With depth
/// multiplier 1, 8 channels go at a time in int16 lanes: `(x − zeroPoint)` fits int16 and so does its product with
/// an int8 weight; products are widened to int32 before they are summed.
public final class QuantizedDepthwiseConv2DKernel: @unchecked Sendable {
    /// The convolution's shapes.
    public let geometry: DepthwiseConv2DGeometry
    let weights: UnsafeMutablePointer<Int16>
    let bias: UnsafeMutablePointer<Int32>
    let multipliers: [QuantizedMultiplier]
    let inputZeroPoint: Int32
    let outputZeroPoint: Int32
    let range: QuantizedRange
    let rounding: RequantizationRounding

    /// Widens `filter` (`KH · KW · Cout` int8 values) and copies `bias` (Cout int32 values, or nil for zeros).
    public init(
        geometry: DepthwiseConv2DGeometry, filter: UnsafePointer<Int8>, bias: UnsafePointer<Int32>?,
        inputZeroPoint: Int32, outputZeroPoint: Int32, multipliers: [QuantizedMultiplier], range: QuantizedRange,
        rounding: RequantizationRounding = .double
    ) {
        precondition(geometry.isValid, "invalid depthwise geometry")
        let outputs = geometry.outputChannels
        precondition(multipliers.count == 1 || multipliers.count == outputs, "one multiplier per channel")
        self.geometry = geometry
        let count = geometry.kernelHeight * geometry.kernelWidth * outputs
        weights = .allocate(capacity: count)
        for i in 0..<count { (weights + i).initialize(to: Int16(filter[i])) }
        self.bias = .allocate(capacity: outputs)
        for o in 0..<outputs { (self.bias + o).initialize(to: bias?[o] ?? 0) }
        self.multipliers = multipliers.count == 1 ? Array(repeating: multipliers[0], count: outputs) : multipliers
        self.inputZeroPoint = inputZeroPoint
        self.outputZeroPoint = outputZeroPoint
        self.range = range
        self.rounding = rounding
    }

    deinit {
        weights.deallocate()
        bias.deallocate()
    }

    /// Runs the convolution: `input` [N, H, W, Cin] int8, `output` [N, OH, OW, Cout] int8.
    public func run(input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, pool: ThreadPool) {
        let rows = geometry.batch * geometry.outputHeight
        pool.parallelRanges(rows, minimumChunk: 1, Rows(kernel: self, input: input, output: output))
    }

    private struct Rows: ParallelRangeBody {
        let kernel: QuantizedDepthwiseConv2DKernel
        let input: UnsafePointer<Int8>
        let output: UnsafeMutablePointer<Int8>
        func run(range: Range<Int>) {
            for row in range { kernel.row(row, input: input, output: output) }
        }
    }

    @inline(__always)
    func row(_ row: Int, input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>) {
        let g = geometry
        let b = row / g.outputHeight, oy = row % g.outputHeight
        let cin = g.inputChannels, cout = g.outputChannels
        let simdChannels = g.depthMultiplier == 1 ? cout / 8 * 8 : 0
        let zero16 = SIMD8<Int16>(repeating: Int16(clamping: inputZeroPoint))
        for ox in 0..<g.outputWidth {
            let out = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * cout
            let y0 = oy * g.strideHeight - g.paddingTop
            let x0 = ox * g.strideWidth - g.paddingLeft
            var c = 0
            while c < simdChannels {
                var acc = UnsafeRawPointer(bias + c).loadUnaligned(as: SIMD8<Int32>.self)
                for ky in 0..<g.kernelHeight {
                    let iy = y0 + ky * g.dilationHeight
                    if iy < 0 || iy >= g.inputHeight { continue }
                    for kx in 0..<g.kernelWidth {
                        let ix = x0 + kx * g.dilationWidth
                        if ix < 0 || ix >= g.inputWidth { continue }
                        let x = UnsafeRawPointer(input + ((b * g.inputHeight + iy) * g.inputWidth + ix) * cin + c)
                            .loadUnaligned(as: SIMD8<Int8>.self)
                        let w = UnsafeRawPointer(weights + (ky * g.kernelWidth + kx) * cout + c)
                            .loadUnaligned(as: SIMD8<Int16>.self)
                        acc &+= SIMD8<Int32>(truncatingIfNeeded: (SIMD8<Int16>(truncatingIfNeeded: x) &- zero16) &* w)
                    }
                }
                for lane in 0..<8 {
                    let scaled = multipliers[c + lane].apply(acc[lane], rounding: rounding) &+ outputZeroPoint
                    out[c + lane] = Int8(truncatingIfNeeded: range.clamp(scaled))
                }
                c += 8
            }
            while c < cout {
                let ic = c / g.depthMultiplier
                var acc = bias[c]
                for ky in 0..<g.kernelHeight {
                    let iy = y0 + ky * g.dilationHeight
                    if iy < 0 || iy >= g.inputHeight { continue }
                    for kx in 0..<g.kernelWidth {
                        let ix = x0 + kx * g.dilationWidth
                        if ix < 0 || ix >= g.inputWidth { continue }
                        let x = Int32(input[((b * g.inputHeight + iy) * g.inputWidth + ix) * cin + ic])
                        acc &+= (x &- inputZeroPoint) &* Int32(weights[(ky * g.kernelWidth + kx) * cout + c])
                    }
                }
                let scaled = multipliers[c].apply(acc, rounding: rounding) &+ outputZeroPoint
                out[c] = Int8(truncatingIfNeeded: range.clamp(scaled))
                c += 1
            }
        }
    }
}
