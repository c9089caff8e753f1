import PureVisionCore
import PureVisionTFLite

/// Validates one TFLite operator, infers its output shapes and prepares its kernel.
protocol OperatorLowering: Sendable {
    /// Lowers the operator described by `context`, setting its outputs' shapes in `context.tensors`.
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator
}

/// The one list of operators the engine runs: builtin code → lowering.
enum OperatorRegistry {
    static let table: [BuiltinOperator: any OperatorLowering.Type] = [
        .conv2D: Conv2DOperator.self,
        .depthwiseConv2D: DepthwiseConv2DOperator.self,
        .fullyConnected: FullyConnectedOperator.self,
        .add: BinaryOperator.self,
        .sub: BinaryOperator.self,
        .mul: BinaryOperator.self,
        .div: BinaryOperator.self,
        .maximum: BinaryOperator.self,
        .minimum: BinaryOperator.self,
        .squaredDifference: BinaryOperator.self,
        .prelu: PReLUOperator.self,
        .relu: UnaryOperator.self,
        .relu6: UnaryOperator.self,
        .reluN1To1: UnaryOperator.self,
        .logistic: UnaryOperator.self,
        .tanh: UnaryOperator.self,
        .hardSwish: UnaryOperator.self,
        .leakyRelu: UnaryOperator.self,
        .maxPool2D: Pool2DOperator.self,
        .averagePool2D: Pool2DOperator.self,
        .mean: MeanOperator.self,
        .pad: PadOperator.self,
        .padv2: PadOperator.self,
        .reshape: ReshapeOperator.self,
        .squeeze: ReshapeOperator.self,
        .concatenation: ConcatenationOperator.self,
        .resizeBilinear: ResizeBilinearOperator.self,
        .resizeNearestNeighbor: ResizeNearestNeighborOperator.self,
        .softmax: SoftmaxOperator.self,
        .dequantize: DequantizeOperator.self,
        .stridedSlice: StridedSliceOperator.self,
        .depthToSpace: DepthToSpaceOperator.self,
        .densify: DensifyOperator.self,
        .transpose: TransposeOperator.self,
        .reduceMax: ReduceExtremumOperator.self,
        .reduceMin: ReduceExtremumOperator.self,
        .gather: GatherOperator.self,
        .unpack: UnpackOperator.self,
        .transposeConv: TransposeConvOperator.self,
        .sum: MeanOperator.self,
        .neg: UnaryOperator.self,
        .sqrt: UnaryOperator.self,
        .rsqrt: UnaryOperator.self,
    ]

    /// The custom operators the engine runs, by `OperatorCode.custom_code`.
    static let customTable: [String: any OperatorLowering.Type] = [
        TransposeConvBiasOperator.customName: TransposeConvBiasOperator.self,
        DetectionPostProcessOperator.customName: DetectionPostProcessOperator.self,
    ]

    /// The lowering for a builtin operator, or nil when the engine does not support it.
    static func lowering(for op: BuiltinOperator) -> (any OperatorLowering.Type)? { table[op] }

    /// The lowering for an operator whose first input has `inputType`: the quantized lowering
    /// (`QuantizedOperatorRegistry`) when that input is int8 / uint8, and always for QUANTIZE; the float one otherwise.
    static func lowering(for op: BuiltinOperator, inputType: ElementType?) -> (any OperatorLowering.Type)? {
        if op == .custom { return nil }
        if let quantized = QuantizedOperatorRegistry.table[op], op == .quantize || inputType?.isQuantized8 == true {
            return quantized
        }
        return table[op]
    }

    /// The lowering for an operator code: a custom operator by its name, a builtin one as
    /// `lowering(for:inputType:)`.
    static func lowering(for code: OperatorCode, inputType: ElementType?) -> (any OperatorLowering.Type)? {
        if code.builtin == .custom { return code.customName.flatMap { customTable[$0] } }
        return lowering(for: code.builtin, inputType: inputType)
    }

    /// Every supported builtin operator, sorted by code.
    static var supported: [BuiltinOperator] {
        Set(table.keys).union(QuantizedOperatorRegistry.table.keys).sorted { $0.rawValue < $1.rawValue }
    }
}

extension LoweringContext {
    /// The operator's builtin options, with the schema defaults when the file stores none.
    func builtinOptions(_ op: BuiltinOperator) -> BuiltinOptions {
        if case .none = self.op.options { return .defaults(for: op) }
        return self.op.options
    }
}
