/// How an int32 accumulator is scaled back to 8 bits.
public enum RequantizationRounding: Sendable, Hashable {
    /// TFLite's `MultiplyByQuantizedMultiplier` (doubling high multiply, then rounding shift).
    case double
    /// ruy's x86 requantization (ties of the final shift toward +∞), used by TFLite's int8 GEMM (CONV_2D,
    /// FULLY_CONNECTED).
    case ruy
}

extension QuantizedMultiplier {
    @inline(__always)
    func apply(_ x: Int32, rounding: RequantizationRounding) -> Int32 {
        rounding == .ruy ? applyRuy(x) : apply(x)
    }
}

/// Int8 CONV_2D on NHWC activations with OHWI int8 weights, per-channel (or per-tensor) multipliers and int32
/// bias; FULLY_CONNECTED runs as its 1×1 case.
///
/// At load the weights are widened to int16 and packed in blocks of 8 output channels (`[block][k][8]`, k running
/// over kernel rows, columns and input channels), and each channel's constant term `bias − zeroPoint_in · Σ w` is
/// precomputed. A run gathers 4 output pixels' receptive fields (padding holds the input zero point, so it adds
/// nothing after the constant term) into int16 rows in scratch, multiplies them by each block in int16 SIMD lanes
/// (two k at a time when no weight is −128, so a pair of products cannot overflow int16), accumulates in int32,
/// and requantizes each accumulator to int8 (ruy's rounding) with the channel's multiplier, output zero point and clamp.
public final class QuantizedConv2DKernel: @unchecked Sendable {
    /// The convolution's shapes.
    public let geometry: Conv2DGeometry
    let depth: Int
    let paddedDepth: Int
    let blockCount: Int
    let weights: UnsafeMutablePointer<Int16>
    let biasTerms: UnsafeMutablePointer<Int32>
    let multipliers: [QuantizedMultiplier]
    let inputZeroPoint: Int16
    let outputZeroPoint: Int32
    let range: QuantizedRange
    let rounding: RequantizationRounding
    let pairSafe: Bool
    let taskCount: Int
    static let tile = 4

    /// Bytes of scratch a run needs.
    public var scratchBytes: Int { taskCount * Self.tile * paddedDepth * 2 }

    /// Packs `filter` (OHWI, `outputChannels · kernelHeight · kernelWidth · inputChannels` int8 values) and folds
    /// `bias` (int32 per output channel, or nil) with the input zero point.
    /// - Parameters:
    ///   - multipliers: one per output channel, or one for all.
    ///   - range: the output clamp (type range narrowed by the fused activation).
    public init(
        geometry: Conv2DGeometry, filter: UnsafePointer<Int8>, bias: UnsafePointer<Int32>?, inputZeroPoint: Int32,
        outputZeroPoint: Int32, multipliers: [QuantizedMultiplier], range: QuantizedRange,
        rounding: RequantizationRounding = .ruy, threadCount: Int = 1
    ) {
        precondition(geometry.isValid, "invalid convolution geometry")
        precondition(multipliers.count == 1 || multipliers.count == geometry.outputChannels, "one multiplier per channel")
        self.geometry = geometry
        let outputs = geometry.outputChannels
        depth = geometry.kernelHeight * geometry.kernelWidth * geometry.inputChannels
        paddedDepth = (depth + 1) & ~1
        blockCount = (outputs + 7) / 8
        weights = .allocate(capacity: blockCount * paddedDepth * 8)
        weights.initialize(repeating: 0, count: blockCount * paddedDepth * 8)
        biasTerms = .allocate(capacity: blockCount * 8)
        biasTerms.initialize(repeating: 0, count: blockCount * 8)
        var hasMinimum = false
        for o in 0..<outputs {
            var sum: Int32 = 0
            let block = o / 8, lane = o % 8
            for k in 0..<depth {
                let w = filter[o * depth + k]
                if w == .min { hasMinimum = true }
                sum &+= Int32(w)
                weights[(block * paddedDepth + k) * 8 + lane] = Int16(w)
            }
            biasTerms[o] = (bias?[o] ?? 0) &- inputZeroPoint &* sum
        }
        pairSafe = !hasMinimum && (-128...127).contains(inputZeroPoint)
        self.multipliers = multipliers.count == 1 ? Array(repeating: multipliers[0], count: outputs) : multipliers
        self.inputZeroPoint = Int16(clamping: inputZeroPoint)
        self.outputZeroPoint = outputZeroPoint
        self.range = range
        self.rounding = rounding
        let pixels = geometry.batch * geometry.outputHeight * geometry.outputWidth
        taskCount = max(1, min(threadCount, (pixels + Self.tile - 1) / Self.tile))
    }

    deinit {
        weights.deallocate()
        biasTerms.deallocate()
    }

    /// Runs the convolution: `input` [N, H, W, Cin] int8, `output` [N, OH, OW, Cout] int8, `scratch` at least
    /// `scratchBytes` bytes (2-byte aligned).
    public func run(
        input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, scratch: UnsafeMutableRawPointer,
        pool: ThreadPool
    ) {
        let body = Tiles(kernel: self, input: input, output: output, scratch: scratch.assumingMemoryBound(to: Int16.self))
        pool.parallelFor(taskCount, body)
    }

    private struct Tiles: ParallelTaskBody {
        let kernel: QuantizedConv2DKernel
        let input: UnsafePointer<Int8>
        let output: UnsafeMutablePointer<Int8>
        let scratch: UnsafeMutablePointer<Int16>

        func run(task: Int) {
            let g = kernel.geometry
            let pixels = g.batch * g.outputHeight * g.outputWidth
            let tiles = (pixels + QuantizedConv2DKernel.tile - 1) / QuantizedConv2DKernel.tile
            let first = tiles * task / kernel.taskCount
            let last = tiles * (task + 1) / kernel.taskCount
            let rows = scratch + task * QuantizedConv2DKernel.tile * kernel.paddedDepth
            for tile in first..<last {
                let start = tile * QuantizedConv2DKernel.tile
                let count = min(QuantizedConv2DKernel.tile, pixels - start)
                for p in 0..<QuantizedConv2DKernel.tile {
                    kernel.gather(pixel: start + min(p, count - 1), input: input, into: rows + p * kernel.paddedDepth)
                }
                kernel.multiply(rows: rows, count: count, output: output + start * g.outputChannels)
            }
        }
    }

    /// Writes the receptive field of output pixel `pixel` as `paddedDepth` int16 values.
    @inline(__always)
    func gather(pixel: Int, input: UnsafePointer<Int8>, into row: UnsafeMutablePointer<Int16>) {
        let g = geometry
        let perImage = g.outputHeight * g.outputWidth
        let b = pixel / perImage
        let oy = (pixel % perImage) / g.outputWidth
        let ox = pixel % g.outputWidth
        let c = g.inputChannels
        var k = 0
        for ky in 0..<g.kernelHeight {
            let iy = oy * g.strideHeight - g.paddingTop + ky * g.dilationHeight
            for kx in 0..<g.kernelWidth {
                let ix = ox * g.strideWidth - g.paddingLeft + kx * g.dilationWidth
                if iy >= 0, iy < g.inputHeight, ix >= 0, ix < g.inputWidth {
                    let source = input + ((b * g.inputHeight + iy) * g.inputWidth + ix) * c
                    var i = 0
                    while i + 8 <= c {
                        let v = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<Int8>.self)
                        UnsafeMutableRawPointer(row + k + i).storeBytes(
                            of: SIMD8<Int16>(truncatingIfNeeded: v), as: SIMD8<Int16>.self)
                        i += 8
                    }
                    while i < c {
                        row[k + i] = Int16(source[i])
                        i += 1
                    }
                } else {
                    (row + k).update(repeating: inputZeroPoint, count: c)
                }
                k += c
            }
        }
        if k < paddedDepth { row[k] = 0 }
    }

    /// Multiplies 4 gathered rows by every weight block and requantizes the first `count` of them into `output`.
    @inline(__always)
    func multiply(rows: UnsafeMutablePointer<Int16>, count: Int, output: UnsafeMutablePointer<Int8>) {
        let outputs = geometry.outputChannels
        let r0 = rows, r1 = rows + paddedDepth, r2 = rows + 2 * paddedDepth, r3 = rows + 3 * paddedDepth
        for block in 0..<blockCount {
            let bias = UnsafeRawPointer(biasTerms + block * 8).loadUnaligned(as: SIMD8<Int32>.self)
            var a0 = bias, a1 = bias, a2 = bias, a3 = bias
            let w = UnsafeRawPointer(weights + block * paddedDepth * 8)
            var k = 0
            if pairSafe {
                while k < paddedDepth {
                    let w0 = w.loadUnaligned(fromByteOffset: k * 16, as: SIMD8<Int16>.self)
                    let w1 = w.loadUnaligned(fromByteOffset: k * 16 + 16, as: SIMD8<Int16>.self)
                    a0 &+= SIMD8<Int32>(
                        truncatingIfNeeded: w0 &* SIMD8(repeating: r0[k]) &+ w1 &* SIMD8(repeating: r0[k + 1]))
                    a1 &+= SIMD8<Int32>(
                        truncatingIfNeeded: w0 &* SIMD8(repeating: r1[k]) &+ w1 &* SIMD8(repeating: r1[k + 1]))
                    a2 &+= SIMD8<Int32>(
                        truncatingIfNeeded: w0 &* SIMD8(repeating: r2[k]) &+ w1 &* SIMD8(repeating: r2[k + 1]))
                    a3 &+= SIMD8<Int32>(
                        truncatingIfNeeded: w0 &* SIMD8(repeating: r3[k]) &+ w1 &* SIMD8(repeating: r3[k + 1]))
                    k += 2
                }
            } else {
                while k < paddedDepth {
                    let w0 = w.loadUnaligned(fromByteOffset: k * 16, as: SIMD8<Int16>.self)
                    a0 &+= SIMD8<Int32>(truncatingIfNeeded: w0 &* SIMD8(repeating: r0[k]))
                    a1 &+= SIMD8<Int32>(truncatingIfNeeded: w0 &* SIMD8(repeating: r1[k]))
                    a2 &+= SIMD8<Int32>(truncatingIfNeeded: w0 &* SIMD8(repeating: r2[k]))
                    a3 &+= SIMD8<Int32>(truncatingIfNeeded: w0 &* SIMD8(repeating: r3[k]))
                    k += 1
                }
            }
            let channels = min(8, outputs - block * 8)
            let accumulators = (a0, a1, a2, a3)
            for p in 0..<count {
                let acc = p == 0 ? accumulators.0 : p == 1 ? accumulators.1 : p == 2 ? accumulators.2 : accumulators.3
                let out = output + p * outputs + block * 8
                for lane in 0..<channels {
                    let m = multipliers[block * 8 + lane]
                    let scaled = m.apply(acc[lane], rounding: rounding) &+ outputZeroPoint
                    out[lane] = Int8(truncatingIfNeeded: range.clamp(scaled))
                }
            }
        }
    }
}
