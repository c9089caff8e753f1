import PureVisionKernels
import PureVisionTFLite

extension Conv2DOperator {
    /// The convolution over a concatenation whose leading channels are the same at every pixel of an image (see
    /// `BroadcastPrefixFolding`), lowered to read the concatenation's sources: per image, a one-row GEMM runs the
    /// leading channels' multiply-adds from the bias, and its result is the bias the GEMM over the last input (read
    /// in place) starts from. Nil, for the ordinary lowering, unless this is a 1×1 convolution with unit stride and
    /// no padding, both GEMMs have generated code (whose k order makes the split exact) and the inferred shapes fit.
    static func lowerFoldingBroadcastPrefix(
        _ context: inout LoweringContext, prefix: BroadcastPrefix, geometry g: Conv2DGeometry,
        filter: ConstantStorage, bias: ConstantStorage?, clamp: ClampRange
    ) throws(InterpreterError) -> LoweredOperator? {
        guard context.generatesMachineCode, g.readsPixelsInPlace else { return nil }
        let tensors = context.tensors
        let (batch, height, width) = (g.batch, g.inputHeight, g.inputWidth)
        var leadingChannels = 0
        for part in prefix.parts {
            let shape = tensors[part.source].shape
            guard shape.count == 4, shape[0] == batch, shape[1] == 1, shape[2] == 1,
                tensors[part.resized].shape == [batch, height, width, shape[3]]
            else { return nil }
            leadingChannels += shape[3]
        }
        let k = g.inputChannels
        let restChannels = k - leadingChannels
        let rest = tensors[prefix.rest]
        guard restChannels > 0, rest.shape == [batch, height, width, restChannels] else { return nil }

        let outputs = g.outputChannels
        let weights = filter.floats
        func columns(_ range: Range<Int>) -> [Float] {
            (0..<outputs).flatMap { o in (o * k + range.lowerBound)..<(o * k + range.upperBound) }.map { weights[$0] }
        }
        func pointwise(height: Int, width: Int, channels: Int) -> Conv2DGeometry {
            Conv2DGeometry(
                batch: 1, inputHeight: height, inputWidth: width, inputChannels: channels, outputHeight: height,
                outputWidth: width, outputChannels: outputs,
                window: .pointwise)
        }
        let leadingKernel = columns(0..<leadingChannels).withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map {
                Conv2DKernel(
                    geometry: pointwise(height: 1, width: 1, channels: leadingChannels), filter: $0,
                    bias: bias?.floats, clamp: .none, generatesMachineCode: true)
            }
        }
        let restKernel = columns(leadingChannels..<k).withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map {
                Conv2DKernel(
                    geometry: pointwise(height: height, width: width, channels: restChannels), filter: $0, bias: nil,
                    clamp: clamp, threadCount: context.pool.threadCount, generatesMachineCode: true,
                    biasAtRunTime: true)
            }
        }
        guard let leadingKernel, let restKernel, leadingKernel.usesGeneratedCode, restKernel.usesGeneratedCode,
            leadingKernel.scratchFloatCount == 0
        else { return nil }

        let run = BroadcastPrefixRun(
            batch: batch, pixels: height * width, leadingChannels: leadingChannels, restChannels: restChannels,
            outputs: outputs, leadingKernel: leadingKernel, biasFloats: restKernel.runBiasFloatCount,
            pool: context.pool)
        let sources = prefix.parts.map { tensors[$0.source] }
        let bilinear = prefix.parts.map(\.bilinear)
        func bind(_ kernel: Conv2DKernel, residual: Int?, output: Int) -> (TensorBinder) -> ExecutionStep {
            { binder in
                let leading = zip(sources, bilinear).map { source, bilinear in
                    (
                        UnsafePointer(binder.raw(source).assumingMemoryBound(to: Float.self)), source.shape[3],
                        bilinear
                    )
                }
                let x = UnsafePointer(binder.raw(rest).assumingMemoryBound(to: Float.self))
                let y = binder.floats(output)
                let r = residual.map { UnsafePointer(binder.floats($0)) }
                let scratch = binder.scratchFloats
                return { run.run(leading: leading, rest: x, output: y, residual: r, kernel: kernel, scratch: scratch) }
            }
        }
        let scratchFloats = run.scratchFloats(restScratch: restKernel.scratchFloatCount)
        var lowered = context.lowered(
            reading: sources + [rest], scratchBytes: scratchFloats * 4,
            bind: bind(restKernel, residual: nil, output: context.output(0).index))
        lowered.name = "CONCATENATION+CONV_2D"
        lowered.kernelFamily = restKernel.kernelFamily
        lowered.epilogueFusion = EpilogueFusion(channels: outputs) { epilogue, residual, fusedOutput in
            bind(restKernel.withEpilogue(epilogue), residual: residual, output: fusedOutput)
        }
        return lowered
    }
}

/// The run of a convolution that folded a concatenation's constant leading channels
/// (`Conv2DOperator.lowerFoldingBroadcastPrefix`).
private struct BroadcastPrefixRun {
    let batch: Int
    /// Pixels of one image.
    let pixels: Int
    let leadingChannels: Int
    let restChannels: Int
    let outputs: Int
    /// The one-row GEMM over the leading channels, from the convolution's bias.
    let leadingKernel: Conv2DKernel
    /// Floats of the bias the GEMM over the rest reads (its panels' width, zeros past `outputs`).
    let biasFloats: Int
    let pool: ThreadPool

    /// Scratch layout in floats: one image's leading channels, then the rest GEMM's bias, then the rest GEMM's own
    /// scratch (the one-row GEMM, a 1×1 convolution of one pixel, needs none); each part on a 64-byte boundary.
    private var biasOffset: Int { (leadingChannels + 15) / 16 * 16 }
    private var restScratchOffset: Int { biasOffset + (biasFloats + 15) / 16 * 16 }

    func scratchFloats(restScratch: Int) -> Int { restScratchOffset + restScratch }

    /// Runs every image: `leading` holds each leading input's `[N, 1, 1, C]` source, its channel count and whether it
    /// was resized bilinearly; `kernel` is the GEMM over `rest` (the prepared one, or it with a fused epilogue).
    func run(
        leading: [(source: UnsafePointer<Float>, channels: Int, bilinear: Bool)], rest: UnsafePointer<Float>,
        output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?, kernel: Conv2DKernel,
        scratch: UnsafeMutablePointer<Float>
    ) {
        let row = scratch
        let bias = scratch + biasOffset
        let residualStride = kernel.epilogue.residualChannels(outputChannels: outputs)
        for image in 0..<batch {
            var offset = 0
            for (source, channels, bilinear) in leading {
                let values = source + image * channels
                for c in 0..<channels {
                    // What the resize stores at every pixel: a copy, or four equal corners blended.
                    let v = values[c]
                    row[offset + c] = bilinear ? ResizeBilinear.interpolate(v, v, v, v, alphaX: 0, alphaY: 0) : v
                }
                offset += channels
            }
            leadingKernel.run(input: row, output: bias, scratch: scratch, pool: pool)
            (bias + outputs).update(repeating: 0, count: biasFloats - outputs)
            kernel.run(
                input: rest + image * pixels * restChannels, output: output + image * pixels * outputs,
                residual: residual.map { $0 + image * pixels * residualStride }, bias: bias,
                scratch: scratch + restScratchOffset, pool: pool)
        }
    }
}
