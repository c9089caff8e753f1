import PureVisionKernels
import PureVisionTFLite

/// MediaPipe's custom operator `Convolution2DTransposeBias` (`mediapipe/util/tflite/operations/transpose_conv_bias.cc`):
/// inputs `[input, weights, bias]` — input `[N, H, W, Cin]`, weights OHWI `[Cout, Kh, Kw, Cin]` and bias `[Cout]`,
/// both constant, all float32 — and one output.
///
/// The custom options are a raw little-endian C struct, not a FlexBuffer: int32 padding (1 SAME, 2 VALID), int32
/// stride width, int32 stride height. Per axis the total padding is `max(0, K − (in − 1) mod s − 1)` with SAME and
/// 0 with VALID, the output extent `s·(in − 1) + K − padding` and the padding before `⌊padding / 2⌋`. Each output
/// starts as the bias and the products are added to it.
enum TransposeConvBiasOperator: OperatorLowering {
    /// The custom operator's name in `OperatorCode.custom_code`.
    static let customName = "Convolution2DTransposeBias"
    /// Bytes of the options struct read: padding, stride width, stride height.
    static let optionsByteCount = 12
    /// The largest stride accepted (the selfie models use 2); larger values only serve to overflow the arithmetic.
    static let maximumStride = 1 << 12

    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 3...3)
        let input = try context.input(0)
        let filter = try context.input(1)
        let bias = try context.input(2)
        let weights = try context.constantFilter(
            filter, "weights", rank: 4, type: .float32, input: input, inputRank: 4)
        try context.expectFloat(bias, "bias")
        try context.expectRank(bias, 1, "bias")
        let (batch, height, width, channels) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (outChannels, kernelHeight, kernelWidth) = (filter.shape[0], filter.shape[1], filter.shape[2])
        guard filter.shape[3] == channels, channels > 0, outChannels > 0, kernelHeight > 0, kernelWidth > 0 else {
            throw context.failure("weights \(filter.shape) do not match input \(input.shape)")
        }
        let biasStorage = try context.constantBias(bias, type: .float32, channels: outChannels)

        guard let raw = context.op.customOptions, raw.count >= optionsByteCount else {
            throw context.failure(
                "custom options must hold \(optionsByteCount) bytes (padding, stride width, stride height), has "
                    + "\(context.op.customOptions?.count ?? 0)")
        }
        func int32(at offset: Int) -> Int {
            Int(
                Int32(
                    bitPattern: UInt32(raw[offset]) | UInt32(raw[offset + 1]) << 8
                        | UInt32(raw[offset + 2]) << 16 | UInt32(raw[offset + 3]) << 24))
        }
        let (paddingCode, strideWidth, strideHeight) = (int32(at: 0), int32(at: 4), int32(at: 8))
        guard paddingCode == 1 || paddingCode == 2 else {
            throw context.failure("padding code \(paddingCode) is neither SAME (1) nor VALID (2)")
        }
        guard (1...maximumStride).contains(strideWidth), (1...maximumStride).contains(strideHeight) else {
            throw context.failure("strides \(strideHeight)×\(strideWidth) must be in 1…\(maximumStride)")
        }
        guard height > 0, width > 0, batch > 0 else {
            throw context.failure("input \(input.shape) has no pixels")
        }
        func extent(_ size: Int, kernel: Int, stride: Int) -> (output: Int, before: Int)? {
            let total = paddingCode == 1 ? max(0, kernel - (size - 1) % stride - 1) : 0
            let (scaled, overflow) = (size - 1).multipliedReportingOverflow(by: stride)
            guard !overflow, scaled <= Int(Int32.max) - kernel else { return nil }
            return (scaled + kernel - total, total / 2)
        }
        guard let rows = extent(height, kernel: kernelHeight, stride: strideHeight),
            let cols = extent(width, kernel: kernelWidth, stride: strideWidth)
        else {
            throw .limitExceeded(
                "output of operator \(context.operatorIndex) (\(context.name)) for input \(input.shape)")
        }
        try context.setOutput(0, shape: [batch, rows.output, cols.output, outChannels])
        let geometry = TransposeConv2DGeometry(
            batch: batch, inputHeight: height, inputWidth: width, inputChannels: channels, outputHeight: rows.output,
            outputWidth: cols.output, outputChannels: outChannels,
            window: Window2D(
                kernelHeight: kernelHeight, kernelWidth: kernelWidth, strideHeight: strideHeight,
                strideWidth: strideWidth, paddingTop: rows.before, paddingLeft: cols.before))
        return try TransposeConvLowering.lower(
            &context, geometry: geometry, input: input, weights: weights, bias: biasStorage, biasOrder: .first,
            clamp: .none)
    }
}
