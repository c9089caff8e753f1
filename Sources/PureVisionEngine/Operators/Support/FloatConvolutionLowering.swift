import PureVisionCore
import PureVisionKernels
import PureVisionTFLite

/// A prepared float32 convolution kernel whose output blocks can take an `OutputEpilogue` (`Conv2DKernel`,
/// `DepthwiseConv2DKernel`), so that `LoweringContext.loweredFusableConvolution` binds both the same way.
protocol FusableConvolutionKernel: Sendable {
    /// The code family runs use.
    var kernelFamily: KernelFamily { get }
    /// Floats of scratch one run needs.
    var scratchFloatCount: Int { get }
    /// The same kernel (weights shared) with `epilogue` applied to its output.
    func withEpilogue(_ epilogue: OutputEpilogue) -> Self
    /// Runs the kernel; `residual` is the tensor the epilogue adds, when it adds one.
    func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?,
        scratch: UnsafeMutablePointer<Float>, pool: ThreadPool)
}

extension Conv2DKernel: FusableConvolutionKernel {
    /// The run without a bias at run time (this kernel's own, packed at load, applies).
    @inline(__always)
    func run(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?,
        scratch: UnsafeMutablePointer<Float>, pool: ThreadPool
    ) {
        run(input: input, output: output, residual: residual, bias: nil, scratch: scratch, pool: pool)
    }
}

extension DepthwiseConv2DKernel: FusableConvolutionKernel {}

/// What a float32 CONV_2D or DEPTHWISE_CONV_2D reads once a PAD in front of it may have been absorbed.
struct FloatConvolutionInput {
    /// The tensor the kernel reads: the operator's input, or the input of the PAD it absorbed.
    let source: GraphTensor
    /// The absorbed PAD's zeros above and left of `source`, added to the window's own padding.
    let extraPadding: (top: Int, left: Int)
    let absorbsPad: Bool
    let clamp: ClampRange
}

extension LoweringContext {
    /// The float32 CONV_2D / DEPTHWISE_CONV_2D steps after their operands: a PAD of zero rows and columns in front is
    /// applied as explicit padding (the PAD's input is read), the fused activation becomes a clamp, output 0 is set.
    mutating func floatConvolutionInput(
        _ conv: ConvolutionOperands
    ) throws(InterpreterError) -> FloatConvolutionInput {
        let absorbed = absorbedPadding(
            of: conv.input, padding: conv.window.padding, kernel: (conv.kernelHeight, conv.kernelWidth),
            dilation: (conv.window.dilationHeight, conv.window.dilationWidth))
        let clamp = try self.clamp(conv.window.activation)
        try setOutput(0, shape: conv.outputShape)
        return FloatConvolutionInput(
            source: absorbed?.source ?? conv.input,
            extraPadding: (absorbed?.padding.top ?? 0, absorbed?.padding.left ?? 0), absorbsPad: absorbed != nil,
            clamp: clamp)
    }

    /// The lowered float32 convolution running `kernel` on `input.source`, with the epilogue fusion that lets
    /// `EpilogueFuser` rebind it with element-wise consumers fused into its output; named `PAD+…` when it absorbed
    /// a PAD.
    func loweredFusableConvolution<Kernel: FusableConvolutionKernel>(
        _ kernel: Kernel, input: FloatConvolutionInput, channels: Int
    ) -> LoweredOperator {
        let (source, pool) = (input.source, pool)
        var lowered = loweredFloat(reading: source, scratchBytes: kernel.scratchFloatCount * 4) { x, y, binder in
            let scratch = binder.scratchFloats
            return { kernel.run(input: x, output: y, residual: nil, scratch: scratch, pool: pool) }
        }
        lowered.epilogueFusion = EpilogueFusion(channels: channels) { epilogue, residual, fusedOutput in
            let fused = kernel.withEpilogue(epilogue)
            return { binder in
                let x = UnsafePointer(binder.floats(source))
                let y = binder.floats(fusedOutput)
                let r = residual.map { UnsafePointer(binder.floats($0)) }
                let scratch = binder.scratchFloats
                return { fused.run(input: x, output: y, residual: r, scratch: scratch, pool: pool) }
            }
        }
        lowered.kernelFamily = kernel.kernelFamily
        if input.absorbsPad { lowered.name = "PAD+" + lowered.name }
        return lowered
    }
}

extension LoweringContext {
    /// A float32 CONV_2D's or (`depthwise`) DEPTHWISE_CONV_2D's operands, what its kernel reads and its geometry.
    mutating func floatConvolution(
        depthwise: Bool
    ) throws(InterpreterError) -> (
        conv: ConvolutionOperands, input: FloatConvolutionInput, geometry: ConvolutionGeometry
    ) {
        let conv = try convolutionOperands(quantized: false)
        let input = try floatConvolutionInput(conv)
        let (source, extraPadding) = (input.source, input.extraPadding)
        let geometry: ConvolutionGeometry =
            depthwise
            ? .depthwise(conv.depthwiseGeometry(reading: source, extraPadding: extraPadding))
            : .conv2D(conv.conv2DGeometry(reading: source, extraPadding: extraPadding))
        // A zero-sized input (batch, height, width) has no valid geometry; the kernels require one.
        guard geometry.isValid else {
            throw failure("input \(conv.input.shape) gives an empty geometry \(geometry.kernelGeometry)")
        }
        return (conv, input, geometry)
    }

    /// The tail the float32 CONV_2D and DEPTHWISE_CONV_2D share: the kernel of `geometry` on `input.source` with
    /// `conv`'s weights and bias, or under `useReference` its reference twin.
    func loweredFloatConvolution(
        _ geometry: ConvolutionGeometry, conv: ConvolutionOperands, input: FloatConvolutionInput
    ) -> LoweredOperator {
        let (weights, bias, clamp) = (conv.weights, conv.bias, input.clamp)
        if useReference {
            return loweredFloat(reading: input.source) { x, y, _ in
                switch geometry {
                case .conv2D(let g):
                    return {
                        Reference.conv2D(
                            geometry: g, input: x, filter: weights.floats, bias: bias?.floats, output: y, clamp: clamp)
                    }
                case .depthwise(let g):
                    return {
                        Reference.depthwiseConv2D(
                            geometry: g, input: x, filter: weights.floats, bias: bias?.floats, output: y, clamp: clamp)
                    }
                }
            }
        }
        switch geometry {
        case .conv2D(let g):
            let kernel = Conv2DKernel(
                geometry: g, filter: weights.floats, bias: bias?.floats, clamp: clamp, threadCount: pool.threadCount,
                generatesMachineCode: generatesMachineCode)
            return loweredFusableConvolution(kernel, input: input, channels: conv.outputChannels)
        case .depthwise(let g):
            let kernel = DepthwiseConv2DKernel(
                geometry: g, filter: weights.floats, bias: bias?.floats, clamp: clamp,
                generatesMachineCode: generatesMachineCode)
            return loweredFusableConvolution(kernel, input: input, channels: conv.outputChannels)
        }
    }
}
