import PureVisionCore
import PureVisionKernels
import PureVisionTFLite

extension LoweringContext {
    /// The geometry of this MAX_POOL_2D or AVERAGE_POOL_2D over its rank-4 NHWC input (float32 unless `quantized`),
    /// with TFLite's padding rule; and that input and the fused activation.
    func pool2DGeometry(
        quantized: Bool
    ) throws(InterpreterError) -> (input: GraphTensor, geometry: Pool2DGeometry, activation: FusedActivation) {
        try expectArity(inputs: 1...1)
        guard case .pool2D(let options) = builtinOptions(builtin) else {
            throw failure("options are not Pool2DOptions")
        }
        let input = try input(0)
        if !quantized { try expectFloat(input, "input") }
        try expectRank(input, 4, "input")
        let rows = try padding(
            options.padding, input: input.shape[1], kernel: options.filterH, stride: options.strideH, dilation: 1)
        let cols = try padding(
            options.padding, input: input.shape[2], kernel: options.filterW, stride: options.strideW, dilation: 1)
        let geometry = Pool2DGeometry(
            batch: input.shape[0], inputHeight: input.shape[1], inputWidth: input.shape[2], channels: input.shape[3],
            outputHeight: rows.output, outputWidth: cols.output,
            window: Window2D(
                kernelHeight: options.filterH, kernelWidth: options.filterW, strideHeight: options.strideH,
                strideWidth: options.strideW, paddingTop: rows.before, paddingLeft: cols.before))
        return (input, geometry, options.activation)
    }
}

extension Pool2DGeometry {
    /// `[N, output rows, output columns, C]`.
    var outputShape: [Int] { [batch, outputHeight, outputWidth, channels] }
}
