import PureVisionCore
import PureVisionKernels
import PureVisionTFLite

/// A sliding window as an operator's options give it: TFLite's padding rule, the strides, the dilations (1 where the
/// options have none) and the fused activation.
struct SlidingWindow {
    var padding: Padding
    var strideHeight: Int
    var strideWidth: Int
    var dilationHeight = 1
    var dilationWidth = 1
    var activation: FusedActivation
}

/// A CONV_2D or DEPTHWISE_CONV_2D, float32 or 8-bit, after the checks its lowerings share: the input
/// `[N, H, W, Cin]`; the constant filter, OHWI `[Cout, Kh, Kw, Cin]` for CONV_2D, `[1, Kh, Kw, Cout]` with `Cout` a
/// multiple of `Cin` for DEPTHWISE_CONV_2D (TFLite derives the multiplier from the shapes; the option field is not
/// trusted); the optional constant bias `[Cout]` (float32, or int32 for 8-bit operators); and where the window's
/// outputs fall on each axis.
struct ConvolutionOperands {
    /// The operator's input 0 as the model gives it.
    let input: GraphTensor
    let filter: GraphTensor
    let weights: ConstantStorage
    let bias: ConstantStorage?
    let window: SlidingWindow
    /// `Cout`: the filter's first extent for CONV_2D, its last for DEPTHWISE_CONV_2D.
    let outputChannels: Int
    /// Output rows and the padding above the first input row.
    let rows: (output: Int, before: Int)
    /// Output columns and the padding left of the first input column.
    let cols: (output: Int, before: Int)

    var batch: Int { input.shape[0] }
    var inputChannels: Int { input.shape[3] }
    /// Both filter layouts keep the kernel's height and width in the middle.
    var kernelHeight: Int { filter.shape[1] }
    var kernelWidth: Int { filter.shape[2] }

    /// `[N, output rows, output columns, Cout]`.
    var outputShape: [Int] { [batch, rows.output, cols.output, outputChannels] }

    /// The CONV_2D geometry reading `source` (the input, or the input of a PAD the convolution absorbs) with
    /// `extraPadding` added in front of the window's own.
    func conv2DGeometry(reading source: GraphTensor, extraPadding: (top: Int, left: Int) = (0, 0)) -> Conv2DGeometry {
        Conv2DGeometry(
            batch: batch, inputHeight: source.shape[1], inputWidth: source.shape[2], inputChannels: inputChannels,
            outputHeight: rows.output, outputWidth: cols.output, outputChannels: outputChannels,
            window: Window2D(
                kernelHeight: kernelHeight, kernelWidth: kernelWidth, strideHeight: window.strideHeight,
                strideWidth: window.strideWidth, dilationHeight: window.dilationHeight,
                dilationWidth: window.dilationWidth, paddingTop: rows.before + extraPadding.top,
                paddingLeft: cols.before + extraPadding.left))
    }

    /// The DEPTHWISE_CONV_2D geometry reading `source`, as `conv2DGeometry(reading:extraPadding:)`.
    func depthwiseGeometry(
        reading source: GraphTensor, extraPadding: (top: Int, left: Int) = (0, 0)
    ) -> DepthwiseConv2DGeometry {
        DepthwiseConv2DGeometry(convolution: conv2DGeometry(reading: source, extraPadding: extraPadding))
    }
}

extension LoweringContext {
    /// The checked operands of this CONV_2D or DEPTHWISE_CONV_2D (inputs `[input, filter, bias?]`): a float32 input,
    /// filter and bias, or when `quantized`, a filter of the input's 8-bit type and an int32 bias.
    func convolutionOperands(quantized: Bool) throws(InterpreterError) -> ConvolutionOperands {
        try expectArity(inputs: 2...3)
        let window: SlidingWindow
        let depthwise = builtin == .depthwiseConv2D
        switch builtinOptions(builtin) {
        case .conv2D(let o) where !depthwise:
            window = SlidingWindow(
                padding: o.padding, strideHeight: o.strideH, strideWidth: o.strideW, dilationHeight: o.dilationH,
                dilationWidth: o.dilationW, activation: o.activation)
        case .depthwiseConv2D(let o) where depthwise:
            window = SlidingWindow(
                padding: o.padding, strideHeight: o.strideH, strideWidth: o.strideW, dilationHeight: o.dilationH,
                dilationWidth: o.dilationW, activation: o.activation)
        default:
            throw failure("options are not \(depthwise ? "DepthwiseConv2DOptions" : "Conv2DOptions")")
        }
        let input = try self.input(0)
        let filter = try self.input(1)
        let type = quantized ? input.elementType : .float32
        let weights = try constantFilter(filter, "filter", rank: 4, type: type, input: input, inputRank: 4)
        let (height, width, channels) = (input.shape[1], input.shape[2], input.shape[3])
        let (outChannels, kernelHeight, kernelWidth) = (
            filter.shape[depthwise ? 3 : 0], filter.shape[1], filter.shape[2]
        )
        guard channels > 0, outChannels > 0,
            depthwise ? filter.shape[0] == 1 && outChannels % channels == 0 : filter.shape[3] == channels
        else {
            throw failure("filter \(filter.shape) does not match input \(input.shape)")
        }
        let bias = try constantBias(optionalInput(2), type: quantized ? .int32 : .float32, channels: outChannels)
        return ConvolutionOperands(
            input: input, filter: filter, weights: weights, bias: bias, window: window, outputChannels: outChannels,
            rows: try padding(
                window.padding, input: height, kernel: kernelHeight, stride: window.strideHeight,
                dilation: window.dilationHeight),
            cols: try padding(
                window.padding, input: width, kernel: kernelWidth, stride: window.strideWidth,
                dilation: window.dilationWidth))
    }

    /// Checks a weighted operator's `filter` (`role`: "filter" or "weights"), of rank `rank` and of `type` as its
    /// input (float32, or the input's 8-bit type), and the input's rank when `inputRank` is given; returns the
    /// filter's constant storage (run-time weights are not supported).
    func constantFilter(
        _ filter: GraphTensor, _ role: String, rank: Int, type: ElementType, input: GraphTensor, inputRank: Int?
    ) throws(InterpreterError) -> ConstantStorage {
        if type == .float32 { try expectType(input, type, "input") }
        try expectType(filter, type, role)
        if let inputRank { try expectRank(input, inputRank, "input") }
        try expectRank(filter, rank, role)
        guard let weights = filter.constant else {
            throw failure("\(role) '\(filter.name)' must be constant (run-time weights are not supported)")
        }
        return weights
    }

    /// A bias, when present, must be a constant vector of `channels` elements of `type` (float32, or int32 beside
    /// 8-bit weights).
    func constantBias(
        _ bias: GraphTensor?, type: ElementType, channels: Int
    ) throws(InterpreterError) -> ConstantStorage? {
        guard let bias else { return nil }
        try expectType(bias, type, "bias")
        guard bias.elementCount == channels else {
            throw failure("bias '\(bias.name)' has shape \(bias.shape), expected \(channels) elements")
        }
        guard let storage = bias.constant else { throw failure("bias '\(bias.name)' must be constant") }
        return storage
    }
}

/// The geometry of a convolution, which names the kernel that runs it: CONV_2D's (an 8-bit FULLY_CONNECTED runs as a
/// 1×1 CONV_2D) or DEPTHWISE_CONV_2D's.
enum ConvolutionGeometry {
    case conv2D(Conv2DGeometry)
    case depthwise(DepthwiseConv2DGeometry)

    /// Whether the kernels can run it (an input of zero size has no valid geometry).
    var isValid: Bool {
        switch self {
        case .conv2D(let geometry): geometry.isValid
        case .depthwise(let geometry): geometry.isValid
        }
    }

    /// The kernel's geometry itself, as errors show it.
    var kernelGeometry: any Sendable {
        switch self {
        case .conv2D(let geometry): geometry
        case .depthwise(let geometry): geometry
        }
    }
}
