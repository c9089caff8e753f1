/// Prepared 2-D transposed convolution (NHWC input, OHWI filter) as a GEMM followed by a gather (col2im).
///
/// 1. GEMM: every input pixel's `inputChannels` values times the filter regrouped as
///    `[kernelHeight · kernelWidth · outputChannels, inputChannels]` give the pixel's contribution to each tap and
///    output channel, `columns[pixel, (ky · kernelWidth + kx) · outputChannels + o]`. This runs as a 1×1
///    ``Conv2DKernel`` over the input (in place, threaded, with generated AVX2/FMA code where enabled), writing into
///    scratch.
/// 2. Gather: each output row starts as the bias (``TransposeConv2DGeometry/BiasOrder/first``) or zeros, and adds
///    the columns of the input pixels and taps that land on it, taps in `ky`, then input column, then `kx` order;
///    with ``TransposeConv2DGeometry/BiasOrder/last`` the bias follows; the clamp applies last. Output rows are
///    shared between the pool's threads.
///
/// When no two taps overlap (kernel ≤ stride, as in the selfie segmenters' 2×2 stride-2 layer), each output is the
/// bias plus one input pixel's dot product, so this differs from ``Reference/transposeConv2D(geometry:input:filter:bias:output:biasOrder:clamp:)``
/// only in the dot product's summation order.
public struct TransposeConv2DKernel: Sendable {
    /// The geometry this kernel was prepared for.
    public let geometry: TransposeConv2DGeometry
    private let gemm: Conv2DKernel
    private let bias: [Float]
    private let biasOrder: TransposeConv2DGeometry.BiasOrder
    private let clamp: ClampRange
    /// Floats of the GEMM result, `batch · inputHeight · inputWidth · kernelHeight · kernelWidth · outputChannels`.
    private let columnCount: Int

    /// Output rows below which a run is not split between threads.
    static let minimumRowsPerTask = 4

    /// Regroups `filter` (OHWI) for the GEMM and copies `bias` (`[outputChannels]` or nil for zeros); neither
    /// pointer is retained. `threadCount` and `generatesMachineCode` are passed to the GEMM's ``Conv2DKernel``.
    public init(
        geometry: TransposeConv2DGeometry, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        biasOrder: TransposeConv2DGeometry.BiasOrder, clamp: ClampRange, threadCount: Int = 1,
        generatesMachineCode: Bool = false
    ) {
        precondition(geometry.isValid, "TransposeConv2DKernel: invalid geometry \(geometry)")
        let g = geometry
        self.geometry = g
        self.biasOrder = biasOrder
        self.clamp = clamp
        let taps = g.window.kernelHeight * g.window.kernelWidth
        let columnsPerPixel = taps * g.outputChannels
        columnCount = g.batch * g.inputHeight * g.inputWidth * columnsPerPixel
        // Row (tap · outputChannels + o) of the regrouped filter is filter[o, ky, kx, :].
        var regrouped = [Float](repeating: 0, count: columnsPerPixel * g.inputChannels)
        for o in 0..<g.outputChannels {
            for tap in 0..<taps {
                let source = (o * taps + tap) * g.inputChannels
                let destination = (tap * g.outputChannels + o) * g.inputChannels
                for i in 0..<g.inputChannels { regrouped[destination + i] = filter[source + i] }
            }
        }
        let gemmGeometry = Conv2DGeometry(
            batch: g.batch, inputHeight: g.inputHeight, inputWidth: g.inputWidth, inputChannels: g.inputChannels,
            outputHeight: g.inputHeight, outputWidth: g.inputWidth, outputChannels: columnsPerPixel,
            window: .pointwise)
        // `regrouped` is not empty (the geometry is valid), so its base address exists.
        gemm = regrouped.withUnsafeBufferPointer { buffer in
            Conv2DKernel(
                geometry: gemmGeometry, filter: buffer.baseAddress!, bias: nil, clamp: .none,
                threadCount: threadCount, generatesMachineCode: generatesMachineCode)
        }
        self.bias =
            bias.map { Array(UnsafeBufferPointer(start: $0, count: g.outputChannels)) }
            ?? [Float](repeating: 0, count: g.outputChannels)
    }

    /// Whether the GEMM runs generated AVX2/FMA code.
    public var usesGeneratedCode: Bool { gemm.usesGeneratedCode }

    /// The code of the convolution it runs (see ``Conv2DKernel/kernelFamily``).
    public var kernelFamily: KernelFamily { gemm.kernelFamily }

    /// Floats of scratch one run needs: the GEMM's own scratch and its result.
    public var scratchFloatCount: Int { gemm.scratchFloatCount + columnCount }

    /// Convolves `input` (`[batch, inputHeight, inputWidth, inputChannels]`) into `output`
    /// (`[batch, outputHeight, outputWidth, outputChannels]`). `scratch` holds ``scratchFloatCount`` floats and
    /// overlaps neither tensor. Allocates nothing.
    public func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        pool: ThreadPool
    ) {
        let columns = scratch + gemm.scratchFloatCount
        gemm.run(input: input, output: columns, scratch: scratch, pool: pool)
        bias.withUnsafeBufferPointer { biasBuffer in
            guard let biasPointer = biasBuffer.baseAddress else { return }
            pool.parallelRanges(
                geometry.batch * geometry.outputHeight, minimumChunk: Self.minimumRowsPerTask,
                Gather(
                    geometry: geometry, columns: columns, bias: biasPointer, biasOrder: biasOrder, clamp: clamp,
                    output: output))
        }
    }

    /// Builds output rows from the GEMM's columns.
    private struct Gather: ParallelRangeBody {
        let geometry: TransposeConv2DGeometry
        let columns: UnsafePointer<Float>
        let bias: UnsafePointer<Float>
        let biasOrder: TransposeConv2DGeometry.BiasOrder
        let clamp: ClampRange
        let output: UnsafeMutablePointer<Float>

        func run(range: Range<Int>) {
            let g = geometry
            let channels = g.outputChannels
            let rowFloats = g.outputWidth * channels
            let columnsPerPixel = g.window.kernelHeight * g.window.kernelWidth * channels
            for outputRow in range {
                let b = outputRow / g.outputHeight
                let oy = outputRow % g.outputHeight
                let row = output + outputRow * rowFloats
                for ox in 0..<g.outputWidth {
                    let pixel = row + ox * channels
                    if biasOrder == .first {
                        pixel.update(from: bias, count: channels)
                    } else {
                        pixel.update(repeating: 0, count: channels)
                    }
                }
                for ky in 0..<g.window.kernelHeight {
                    let shifted = oy + g.window.paddingTop - ky
                    guard shifted >= 0, shifted % g.window.strideHeight == 0 else { continue }
                    let iy = shifted / g.window.strideHeight
                    guard iy < g.inputHeight else { continue }
                    let inputRow = columns + (b * g.inputHeight + iy) * g.inputWidth * columnsPerPixel
                    for ix in 0..<g.inputWidth {
                        let taps = inputRow + ix * columnsPerPixel + ky * g.window.kernelWidth * channels
                        let origin = ix * g.window.strideWidth - g.window.paddingLeft
                        for kx in 0..<g.window.kernelWidth {
                            let ox = origin + kx
                            guard ox >= 0, ox < g.outputWidth else { continue }
                            let source = taps + kx * channels
                            let destination = row + ox * channels
                            for o in 0..<channels { destination[o] += source[o] }
                        }
                    }
                }
                if biasOrder == .last || clamp != .none {
                    for ox in 0..<g.outputWidth {
                        let pixel = row + ox * channels
                        for o in 0..<channels {
                            var value = pixel[o]
                            if biasOrder == .last { value += bias[o] }
                            pixel[o] = clamp.apply(value)
                        }
                    }
                }
            }
        }
    }
}
