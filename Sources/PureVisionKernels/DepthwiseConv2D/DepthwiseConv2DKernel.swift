/// Prepared depthwise 2-D convolution over NHWC input with filter `[1, kernelHeight, kernelWidth, outputChannels]`.
///
/// Runs a loop over output pixels with the channels innermost (contiguous in input, filter and output): with
/// depth multiplier 1, each block of channels of a pixel starts from the bias and accumulates all in-bounds taps in
/// vector registers, and is clamped at its one store. Where the target fuses multiply-adds (arm64, x86 built for
/// FMA3) each tap is one fused multiply-add, filter column by filter column: XNNPACK's arithmetic, the one MediaPipe
/// runs. Elsewhere each product is rounded, then added, row by row, as LiteRT's builtin kernel does
/// (``arithmetic``). Where all taps of a pixel are inside the input and the channels come in fours, four pixels
/// share each weight load, in blocks of 16 channels where the target has the registers for 8 vector accumulators of
/// 8 floats (AVX, or arm64's 32 NEON registers), else of 8. Each output row gets the ``OutputEpilogue`` (a fused
/// residual ADD, PRELU or activation) while still in L1; rows are split over the pool's threads. Needs no scratch.
///
/// With `generatesMachineCode` on a CPU with AVX2 + FMA, a multiplier-1 convolution with at least 8 channels
/// runs its rows (clamp fused) through AVX2 code generated at load (`DepthwiseConv2DMachineCode`) instead, in
/// XNNPACK's tap order and rounding (``Reference/Arithmetic/xnnpack``); the epilogue still runs in Swift. When that
/// code sweeps rows (wide layers: each channel step goes over all rows of a range), the rows go one range per
/// thread, and the epilogue follows once all of the range's rows are done.
public struct DepthwiseConv2DKernel: Sendable {
    /// The geometry this kernel was prepared for.
    public let geometry: DepthwiseConv2DGeometry

    /// Copy of the filter, `[kernelHeight · kernelWidth, outputChannels]`.
    private let filter: [Float]
    /// `[outputChannels]`; zeros when the convolution has no bias.
    private let bias: [Float]
    private let clamp: ClampRange
    /// The row code generated at load, or nil when the Swift path runs.
    private let machineCode: DepthwiseConv2DMachineCode?
    /// Element-wise steps applied to each output row after the clamp.
    public private(set) var epilogue: OutputEpilogue = .none

    /// Copies `filter` (`[1, kernelHeight, kernelWidth, outputChannels]`) and `bias` (`[outputChannels]` or `nil`).
    /// Neither pointer is retained. With `generatesMachineCode`, generates AVX2 (or, by `instructions`, AVX-512)
    /// code for the rows when the CPU and the geometry allow (see ``usesGeneratedCode``); otherwise, and by default,
    /// all of a run is Swift.
    public init(
        geometry: DepthwiseConv2DGeometry, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        clamp: ClampRange, generatesMachineCode: Bool = false, instructions: GeneratedInstructionSet = .best
    ) {
        precondition(geometry.isValid, "DepthwiseConv2DKernel: invalid geometry \(geometry)")
        self.geometry = geometry
        self.clamp = clamp
        let window = geometry.convolution.window
        let channels = geometry.convolution.outputChannels
        self.filter = Array(
            UnsafeBufferPointer(start: filter, count: window.kernelHeight * window.kernelWidth * channels))
        if let bias {
            self.bias = Array(UnsafeBufferPointer(start: bias, count: channels))
        } else {
            self.bias = [Float](repeating: 0, count: channels)
        }
        self.machineCode =
            generatesMachineCode
            ? DepthwiseConv2DMachineCode(
                geometry: geometry, clamp: clamp, filter: filter, bias: bias, instructions: instructions) : nil
    }

    /// Whether runs use generated machine code (false when it was not asked for, or the CPU or geometry does not
    /// allow it).
    public var usesGeneratedCode: Bool { machineCode != nil }

    /// The rounding and tap order of this kernel's sums, which its scalar twin reproduces bit for bit: XNNPACK's
    /// where generated code runs or the Swift loops fuse their multiply-adds, else LiteRT's.
    public var arithmetic: Reference.Arithmetic {
        machineCode != nil || DepthwiseTaps.fusesTaps ? .xnnpack : .liteRT
    }

    /// The code runs use: generated, or the Swift loops.
    public var kernelFamily: KernelFamily { machineCode != nil ? .generated : .swiftSIMD }

    /// The generated code's vectors, or nil without generated code.
    public var generatedInstructions: GeneratedInstructionSet? { machineCode?.instructions }

    /// The same prepared convolution (weights shared) with `epilogue` applied to its output.
    public func withEpilogue(_ epilogue: OutputEpilogue) -> DepthwiseConv2DKernel {
        var copy = self
        copy.epilogue = epilogue
        return copy
    }

    /// Multiply-adds below which rows are not split over threads (the hand-off would cost more than it saves).
    static let minimumParallelWork = 1 << 14

    /// Floats of scratch a run needs: always 0.
    public var scratchFloatCount: Int { 0 }

    /// Convolves `input` (`[batch, inputHeight, inputWidth, inputChannels]`) into `output`
    /// (`[batch, outputHeight, outputWidth, outputChannels]`, not overlapping the input). `residual` is the tensor
    /// the epilogue adds, shaped like the output (required when the epilogue adds one; must not overlap the output).
    /// `scratch` is unused. Allocates nothing.
    public func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>? = nil,
        scratch: UnsafeMutablePointer<Float>, pool: ThreadPool
    ) {
        precondition(!epilogue.addsResidual || residual != nil, "DepthwiseConv2DKernel: the epilogue needs a residual")
        let g = geometry.convolution
        filter.withUnsafeBufferPointer { filterBuffer in
            bias.withUnsafeBufferPointer { biasBuffer in
                guard let weights = filterBuffer.baseAddress, let biases = biasBuffer.baseAddress else { return }
                // Rows per chunk so that each thread gets at least `minimumParallelWork` multiply-adds.
                let rowWork = max(1, g.outputWidth * g.outputChannels * g.window.kernelHeight * g.window.kernelWidth)
                let rows = g.batch * g.outputHeight
                var minimumChunk = (Self.minimumParallelWork + rowWork - 1) / rowWork
                if machineCode?.sweepsRows == true {
                    // Rows that sweep together share their input rows: one range per thread (rounded down, so
                    // that `rows / minimumChunk` still gives every thread a range).
                    minimumChunk = max(minimumChunk, rows / pool.threadCount)
                }
                pool.parallelRanges(
                    rows, minimumChunk: minimumChunk,
                    Rows(
                        kernel: self, input: input, weights: weights, biases: biases, output: output,
                        residual: residual))
            }
        }
    }

    /// A run's output rows (flattened over batch and outputHeight), in ranges.
    private struct Rows: ParallelRangeBody {
        let kernel: DepthwiseConv2DKernel
        let input: UnsafePointer<Float>
        let weights: UnsafePointer<Float>
        let biases: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let residual: UnsafePointer<Float>?

        func run(range: Range<Int>) {
            if let machineCode = kernel.machineCode, machineCode.sweepsRows {
                // All rows of the range first (each channel step sweeps them), then the epilogue over all of them.
                machineCode.convolveRows(range, input: input, output: output)
                applyEpilogue(range)
                return
            }
            for row in range {
                kernel.convolveRow(row, input: input, weights: weights, biases: biases, output: output)
                applyEpilogue(row..<(row + 1))
            }
        }

        /// Applies the kernel's epilogue to output rows `rows`, which are consecutive pixels in memory.
        private func applyEpilogue(_ rows: Range<Int>) {
            let g = kernel.geometry.convolution
            guard !kernel.epilogue.isEmpty, !rows.isEmpty else { return }
            let firstPixel = rows.lowerBound * g.outputWidth
            let residualChannels = kernel.epilogue.residualChannels(outputChannels: g.outputChannels)
            kernel.epilogue.apply(
                rows: rows.count * g.outputWidth, channels: g.outputChannels,
                output: output + firstPixel * g.outputChannels,
                residual: residual.map { $0 + firstPixel * residualChannels })
        }
    }

    /// Computes output row `row` (flattened over batch and outputHeight).
    private func convolveRow(
        _ row: Int, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, biases: UnsafePointer<Float>,
        output: UnsafeMutablePointer<Float>
    ) {
        let g = geometry.convolution
        let channels = g.outputChannels
        let inputChannels = g.inputChannels
        let multiplier = geometry.depthMultiplier
        let b = row / g.outputHeight
        let oy = row % g.outputHeight
        let image = input + b * g.inputHeight * g.inputWidth * inputChannels
        let iy0 = oy * g.window.strideHeight - g.window.paddingTop
        // The kernel rows whose taps land inside the input.
        let tapRows = g.tapRows(from: iy0)
        if let machineCode {
            machineCode.convolveRow(oy, image: image, tapRows: tapRows, output: output + row * g.outputWidth * channels)
            return
        }
        // Columns whose taps all land inside the input run four pixels at a time when channels come in fours.
        let interior = g.interiorColumns
        var ox = 0
        while ox < g.outputWidth {
            if multiplier == 1 && channels % 4 == 0 && ox >= interior.lowerBound && ox + 4 <= interior.upperBound {
                let ix0 = ox * g.window.strideWidth - g.window.paddingLeft
                let taps = DepthwiseTaps(
                    g, image: image, weights: weights, origin: (iy0, ix0), rows: tapRows,
                    columns: 0..<g.window.kernelWidth, clamp: clamp)
                taps.accumulateFourPixels(
                    biases: biases, out: output + (row * g.outputWidth + ox) * channels, channels: channels,
                    pixelStride: g.window.strideWidth * inputChannels)
                ox += 4
                continue
            }
            convolvePixel(
                ox, row: row, image: image, iy0: iy0, rows: tapRows, weights: weights, biases: biases,
                output: output)
            ox += 1
        }
        if !DepthwiseTaps.clampsAtStore && !clamp.isIdentity {
            let out = output + row * g.outputWidth * channels
            for i in 0..<(g.outputWidth * channels) { out[i] = clamp.apply(out[i]) }
        }
    }

    /// Computes the channels of output pixel `ox` of output row `row` from the in-bounds taps.
    @inline(__always)
    private func convolvePixel(
        _ ox: Int, row: Int, image: UnsafePointer<Float>, iy0: Int, rows: Range<Int>, weights: UnsafePointer<Float>,
        biases: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        let g = geometry.convolution
        let channels = g.outputChannels
        let inputChannels = g.inputChannels
        let multiplier = geometry.depthMultiplier
        let out = output + (row * g.outputWidth + ox) * channels
        let ix0 = ox * g.window.strideWidth - g.window.paddingLeft
        let taps = DepthwiseTaps(
            g, image: image, weights: weights, origin: (iy0, ix0), rows: rows, columns: g.tapColumns(from: ix0),
            clamp: clamp)
        if multiplier == 1 {
            taps.accumulate(biases: biases, out: out, channels: channels)
        } else {
            out.update(from: biases, count: channels)
            DepthwiseTaps.forEachTap(rows: taps.rows, columns: taps.columns) { ky, kx in
                let pixel =
                    image + (iy0 + ky * g.window.dilationHeight) * taps.inputRowStride
                    + (ix0 + kx * g.window.dilationWidth) * inputChannels
                let w = weights + (ky * g.window.kernelWidth + kx) * channels
                for ic in 0..<inputChannels {
                    let value = pixel[ic]
                    let base = ic * multiplier
                    for m in 0..<multiplier { DepthwiseTaps.addTap(&out[base + m], value, w[base + m]) }
                }
            }
            if DepthwiseTaps.clampsAtStore && !clamp.isIdentity {
                for c in 0..<channels { out[c] = clamp.apply(out[c]) }
            }
        }
    }
}

/// The in-bounds taps of one output pixel of a depth-multiplier-1 depthwise convolution.
private struct DepthwiseTaps {
    let image: UnsafePointer<Float>
    let weights: UnsafePointer<Float>
    let inputRowStride: Int
    let inputPixelStride: Int
    let weightRowStride: Int
    let weightTapStride: Int
    let rowOrigin: Int
    let columnOrigin: Int
    let dilationHeight: Int
    let dilationWidth: Int
    let rows: Range<Int>
    let columns: Range<Int>
    /// The clamp applied to each sum at its store, when ``clampsAtStore``.
    let lower: Float
    let upper: Float

    /// Whether sums are clamped in registers at their store (where the target has the registers: see
    /// ``SwiftKernelTarget/runsMicroKernels``), else by a pass over each finished output row, which on SSE2 measured
    /// faster than the compare-and-select at every store.
    static var clampsAtStore: Bool { SwiftKernelTarget.runsMicroKernels }

    /// Whether each tap is one fused multiply-add, filter column by filter column (`kx` outer, `ky` inner): where
    /// the target fuses (``SwiftKernelTarget/fusesMultiplyAdd``), which is XNNPACK's arithmetic
    /// (``Reference/Arithmetic/xnnpack``), the one MediaPipe runs; elsewhere each product is rounded, then added,
    /// row by row, as LiteRT's builtin kernel does (``Reference/Arithmetic/liteRT``).
    static var fusesTaps: Bool { SwiftKernelTarget.fusesMultiplyAdd }

    /// `sum += x · w` as one tap: fused where ``fusesTaps``, else a rounded product added.
    @inline(__always)
    private static func addTap<Vector: FloatVector>(_ sum: inout Vector, _ x: Vector, _ w: Vector) {
        if fusesTaps { Vector.multiplyAdd(&sum, x, w) } else { Vector.addProduct(&sum, x, w) }
    }

    /// ``addTap(_:_:_:)`` for one channel.
    @inline(__always)
    static func addTap(_ sum: inout Float, _ x: Float, _ w: Float) {
        sum = fusesTaps ? sum.addingProduct(x, w) : sum + x * w
    }

    /// Calls `body(ky, kx)` for each tap of `rows × columns` in the order of ``fusesTaps``: filter column by filter
    /// column where taps fuse, else row by row.
    @inline(__always)
    static func forEachTap(rows: Range<Int>, columns: Range<Int>, _ body: (_ ky: Int, _ kx: Int) -> Void) {
        if fusesTaps {
            for kx in columns { for ky in rows { body(ky, kx) } }
        } else {
            for ky in rows { for kx in columns { body(ky, kx) } }
        }
    }

    /// Calls `body(input, weight)` with the addresses of channel `c` of each in-bounds tap, in the order of
    /// ``fusesTaps``.
    @inline(__always)
    private func forEachTap(channel c: Int, _ body: (UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        Self.forEachTap(rows: rows, columns: columns) { ky, kx in
            body(
                image + (rowOrigin + ky * dilationHeight) * inputRowStride + c
                    + (columnOrigin + kx * dilationWidth) * inputPixelStride,
                weights + ky * weightRowStride + kx * weightTapStride + c)
        }
    }

    /// `accumulate` for four output pixels at once, `pixelStride` floats apart in the input and `channels` apart in
    /// `out`, with `channels` a multiple of 4. Each block of 4 channels keeps four accumulators in registers and
    /// loads each weight once for the four pixels; every pixel sums its taps in the same order as `accumulate`.
    @inline(__always)
    func accumulateFourPixels(
        biases: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, channels: Int, pixelStride: Int
    ) {
        var c = 0
        // Sixteen channels at a time where 8 accumulators of 8 floats stay in registers (16 AVX ymm, 32 NEON q):
        // each weight load then serves twice the work. On SSE2's 16 xmm registers they would spill.
        if SwiftKernelTarget.runsMicroKernels {
            while c &+ 16 <= channels {
                accumulateFourPixels(
                    FloatVector16.self, from: c, biases: biases, out: out, channels: channels,
                    pixelStride: pixelStride)
                c &+= 16
            }
        }
        // Eight channels at a time: eight independent accumulator chains (in SIMD4 lanes) keep the adders busy
        // where four would wait on each add's latency.
        while c &+ 8 <= channels {
            accumulateFourPixels(
                SIMD8<Float>.self, from: c, biases: biases, out: out, channels: channels, pixelStride: pixelStride)
            c &+= 8
        }
        while c < channels {
            accumulateFourPixels(
                SIMD4<Float>.self, from: c, biases: biases, out: out, channels: channels, pixelStride: pixelStride)
            c += 4
        }
    }

    /// The block of channels from `c` that one `Vector` holds, for
    /// ``accumulateFourPixels(biases:out:channels:pixelStride:)``.
    @inline(__always)
    private func accumulateFourPixels<Vector: FloatVector>(
        _: Vector.Type, from c: Int, biases: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, channels: Int,
        pixelStride: Int
    ) {
        let pixelBytes = pixelStride &* 4
        let bias = Vector.load(UnsafeRawPointer(biases + c), byteOffset: 0)
        var sum0 = bias
        var sum1 = bias
        var sum2 = bias
        var sum3 = bias
        // Filter column by filter column where taps fuse (XNNPACK's order), else row by row (LiteRT's): the outer
        // loop walks one of the two, the inner the other.
        let fused = Self.fusesTaps
        let (outer, inner) = fused ? (columns, rows) : (rows, columns)
        let rowStep = dilationHeight &* inputRowStride
        let columnStep = dilationWidth &* inputPixelStride
        let (outerStep, innerStep) = fused ? (columnStep, rowStep) : (rowStep, columnStep)
        let (outerWeightStep, innerWeightStep) =
            fused ? (weightTapStride, weightRowStride) : (weightRowStride, weightTapStride)
        // Offsets were bounds-checked by the caller; wrapping arithmetic keeps overflow checks out of the loop.
        let firstInput: Int =
            (rowOrigin &+ rows.lowerBound &* dilationHeight) &* inputRowStride &+ c
            &+ (columnOrigin &+ columns.lowerBound &* dilationWidth) &* inputPixelStride
        let firstWeight: Int = rows.lowerBound &* weightRowStride &+ columns.lowerBound &* weightTapStride &+ c
        @inline(__always)
        func sweep(_ outerCount: Int, _ innerTaps: Range<Int>) {
            for step in 0..<outerCount {
                var x = UnsafeRawPointer(image + (firstInput &+ step &* outerStep))
                var w = UnsafeRawPointer(weights + (firstWeight &+ step &* outerWeightStep))
                for _ in innerTaps {
                    let weight = Vector.load(w, byteOffset: 0)
                    Self.addTap(&sum0, Vector.load(x, byteOffset: 0), weight)
                    Self.addTap(&sum1, Vector.load(x, byteOffset: pixelBytes), weight)
                    Self.addTap(&sum2, Vector.load(x, byteOffset: 2 &* pixelBytes), weight)
                    Self.addTap(&sum3, Vector.load(x, byteOffset: 3 &* pixelBytes), weight)
                    x += innerStep &* 4
                    w += innerWeightStep &* 4
                }
            }
        }
        // The common 3 × 3 window with constant trip counts, which the compiler unrolls into straight-line taps,
        // where the registers hold them (measured 6-16% faster on 3 × 3 layers; on SSE2's 16 xmm registers the
        // unrolled taps spill and ran 25% slower; unrolling 5 × 5 gained nothing).
        if SwiftKernelTarget.runsMicroKernels && outer.count == 3 && inner.count == 3 {
            sweep(3, 0..<3)
        } else {
            sweep(outer.count, inner)
        }
        let o = UnsafeMutableRawPointer(out + c)
        let (low, high) = (Vector(broadcasting: lower), Vector(broadcasting: upper))
        if Self.clampsAtStore {
            sum0 = sum0.clamped(lower: low, upper: high)
            sum1 = sum1.clamped(lower: low, upper: high)
            sum2 = sum2.clamped(lower: low, upper: high)
            sum3 = sum3.clamped(lower: low, upper: high)
        }
        sum0.store(o, byteOffset: 0)
        sum1.store(o, byteOffset: 4 * channels)
        sum2.store(o, byteOffset: 8 * channels)
        sum3.store(o, byteOffset: 12 * channels)
    }

    /// `out[c] = clamp(biases[c] + Σ_taps pixel[c] · weight[c])`. Channels go in blocks of 32, 16 and then 4 with
    /// the accumulator held in registers across all taps (one store per block), then one at a time.
    @inline(__always)
    func accumulate(biases: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, channels: Int) {
        var c = 0
        // 32 channels as four SIMD8 sums: eight independent SIMD4 accumulator chains.
        while c + 32 <= channels {
            accumulate(FloatVector32.self, from: c, biases: biases, out: out)
            c += 32
        }
        while c + 16 <= channels {
            accumulate(FloatVector16.self, from: c, biases: biases, out: out)
            c += 16
        }
        while c + 4 <= channels {
            accumulate(SIMD4<Float>.self, from: c, biases: biases, out: out)
            c += 4
        }
        while c < channels {
            var sum = biases[c]
            forEachTap(channel: c) { x, w in Self.addTap(&sum, x[0], w[0]) }
            out[c] = Self.clampsAtStore ? min(max(sum, lower), upper) : sum
            c += 1
        }
    }

    /// The block of channels from `c` that one `Vector` holds, for ``accumulate(biases:out:channels:)``: its sum is
    /// held in registers across all taps.
    @inline(__always)
    private func accumulate<Vector: FloatVector>(
        _: Vector.Type, from c: Int, biases: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>
    ) {
        var sum = Vector.load(UnsafeRawPointer(biases + c), byteOffset: 0)
        forEachTap(channel: c) { x, w in
            let (x, w) = (
                Vector.load(UnsafeRawPointer(x), byteOffset: 0), Vector.load(UnsafeRawPointer(w), byteOffset: 0)
            )
            Self.addTap(&sum, x, w)
        }
        if Self.clampsAtStore {
            sum = sum.clamped(lower: Vector(broadcasting: lower), upper: Vector(broadcasting: upper))
        }
        sum.store(UnsafeMutableRawPointer(out + c), byteOffset: 0)
    }
}

// In an extension, so that the memberwise initializer it calls stays.
extension DepthwiseTaps {
    /// The taps over kernel rows `rows` and columns `columns` of an output pixel of `g` whose window starts at input
    /// row `origin.row` and column `origin.column` of `image` (negative inside the padding).
    @inline(__always)
    init(
        _ g: Conv2DGeometry, image: UnsafePointer<Float>, weights: UnsafePointer<Float>,
        origin: (row: Int, column: Int), rows: Range<Int>, columns: Range<Int>, clamp: ClampRange
    ) {
        self.init(
            image: image, weights: weights, inputRowStride: g.inputWidth * g.inputChannels,
            inputPixelStride: g.inputChannels, weightRowStride: g.window.kernelWidth * g.outputChannels,
            weightTapStride: g.outputChannels, rowOrigin: origin.row, columnOrigin: origin.column,
            dilationHeight: g.window.dilationHeight, dilationWidth: g.window.dilationWidth, rows: rows,
            columns: columns, lower: clamp.lower, upper: clamp.upper)
    }
}
