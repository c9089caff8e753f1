/// Prepared depthwise 2-D convolution over NHWC input with filter `[1, kernelHeight, kernelWidth, outputChannels]`.
///
/// Runs a loop over output pixels with the channel loop innermost (contiguous in input, filter and output, so it
/// vectorizes): each output pixel starts from the bias, accumulates its in-bounds taps and is clamped while it is
/// still in L1. Output rows are split over the pool's threads. Needs no scratch.
public struct DepthwiseConv2DKernel: Sendable {
    /// The geometry this kernel was prepared for.
    public let geometry: DepthwiseConv2DGeometry

    /// Copy of the filter, `[kernelHeight · kernelWidth, outputChannels]`.
    private let filter: [Float]
    /// `[outputChannels]`; zeros when the convolution has no bias.
    private let bias: [Float]
    private let clamp: ClampRange

    /// Copies `filter` (`[1, kernelHeight, kernelWidth, outputChannels]`) and `bias` (`[outputChannels]` or `nil`).
    /// Neither pointer is retained.
    public init(
        geometry: DepthwiseConv2DGeometry, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
        clamp: ClampRange
    ) {
        precondition(geometry.isValid, "DepthwiseConv2DKernel: invalid geometry \(geometry)")
        self.geometry = geometry
        self.clamp = clamp
        let channels = geometry.outputChannels
        self.filter = Array(
            UnsafeBufferPointer(start: filter, count: geometry.kernelHeight * geometry.kernelWidth * channels))
        if let bias {
            self.bias = Array(UnsafeBufferPointer(start: bias, count: channels))
        } else {
            self.bias = [Float](repeating: 0, count: channels)
        }
    }

    /// Floats of scratch a run needs: always 0.
    public var scratchFloatCount: Int { 0 }

    /// Convolves `input` (`[batch, inputHeight, inputWidth, inputChannels]`) into `output`
    /// (`[batch, outputHeight, outputWidth, outputChannels]`, not overlapping the input). `scratch` is unused.
    /// Allocates nothing.
    public func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        scratch: UnsafeMutablePointer<Float>, pool: ThreadPool
    ) {
        let g = geometry
        filter.withUnsafeBufferPointer { filterBuffer in
            bias.withUnsafeBufferPointer { biasBuffer in
                guard let weights = filterBuffer.baseAddress, let biases = biasBuffer.baseAddress else { return }
                pool.parallelRanges(g.batch * g.outputHeight) { rows in
                    for row in rows {
                        convolveRow(row, input: input, weights: weights, biases: biases, output: output)
                    }
                }
            }
        }
    }

    /// Computes output row `row` (flattened over batch and outputHeight).
    private func convolveRow(
        _ row: Int, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, biases: UnsafePointer<Float>,
        output: UnsafeMutablePointer<Float>
    ) {
        let g = geometry
        let channels = g.outputChannels
        let inputChannels = g.inputChannels
        let multiplier = g.depthMultiplier
        let b = row / g.outputHeight
        let oy = row % g.outputHeight
        let image = input + b * g.inputHeight * g.inputWidth * inputChannels
        let iy0 = oy * g.strideHeight - g.paddingTop
        // Taps ky in kyStart..<kyEnd are the ones that land inside the input.
        let kyStart = min(g.kernelHeight, max(0, (-iy0 + g.dilationHeight - 1) / g.dilationHeight))
        let kyEnd = max(kyStart, min(g.kernelHeight, (g.inputHeight - iy0 + g.dilationHeight - 1) / g.dilationHeight))
        let lower = clamp.lower
        let upper = clamp.upper
        for ox in 0..<g.outputWidth {
            let out = output + (row * g.outputWidth + ox) * channels
            out.update(from: biases, count: channels)
            let ix0 = ox * g.strideWidth - g.paddingLeft
            let kxStart = min(g.kernelWidth, max(0, (-ix0 + g.dilationWidth - 1) / g.dilationWidth))
            let kxEnd = max(kxStart, min(g.kernelWidth, (g.inputWidth - ix0 + g.dilationWidth - 1) / g.dilationWidth))
            for ky in kyStart..<kyEnd {
                let inputRow = image + (iy0 + ky * g.dilationHeight) * g.inputWidth * inputChannels
                for kx in kxStart..<kxEnd {
                    let pixel = inputRow + (ix0 + kx * g.dilationWidth) * inputChannels
                    let w = weights + (ky * g.kernelWidth + kx) * channels
                    if multiplier == 1 {
                        for c in 0..<channels { out[c] += pixel[c] * w[c] }
                    } else {
                        for ic in 0..<inputChannels {
                            let value = pixel[ic]
                            let base = ic * multiplier
                            for m in 0..<multiplier { out[base + m] += value * w[base + m] }
                        }
                    }
                }
            }
            for c in 0..<channels { out[c] = min(max(out[c], lower), upper) }
        }
    }
}
