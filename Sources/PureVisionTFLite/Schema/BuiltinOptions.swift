/// The typed `builtin_options` of an operator (schema union `BuiltinOptions`).
///
/// Options tables the engine needs are decoded into typed payloads; tables without fields are `.none`; any
/// other table is `.other(typeCode:)` with its union type code. Missing fields take the schema defaults.
/// The table is decoded by its union type code as stored; whether it suits the operator is for the engine to check.
public enum BuiltinOptions: Sendable, Hashable {
    /// No options: the operator has none, or its options table has no fields.
    case none
    case conv2D(Conv2DOptions)
    case depthwiseConv2D(DepthwiseConv2DOptions)
    case fullyConnected(FullyConnectedOptions)
    case add(activation: FusedActivation)
    case sub(activation: FusedActivation)
    case mul(activation: FusedActivation)
    case div(activation: FusedActivation)
    case pool2D(Pool2DOptions)
    case concatenation(axis: Int, activation: FusedActivation)
    /// `newShape` is nil when the table omits it (the shape then comes from the second input).
    case reshape(newShape: [Int]?)
    case resizeBilinear(alignCorners: Bool, halfPixelCenters: Bool)
    case resizeNearestNeighbor(alignCorners: Bool, halfPixelCenters: Bool)
    case softmax(beta: Float)
    case stridedSlice(StridedSliceOptions)
    case depthToSpace(blockSize: Int)
    /// MEAN, SUM and the REDUCE_* operators.
    case reducer(keepDims: Bool)
    case squeeze(squeezeDims: [Int])
    case leakyRelu(alpha: Float)
    case gather(axis: Int, batchDims: Int)
    /// TRANSPOSE_CONV: padding, strides and a fused activation.
    case transposeConv(TransposeConvOptions)
    /// An options table this reader does not decode; `typeCode` is its `BuiltinOptions` union code.
    case other(typeCode: UInt8)

    /// The options an operator has when its file stores none: every field at its schema default.
    public static func defaults(for op: BuiltinOperator) -> BuiltinOptions {
        switch op {
        case .conv2D: .conv2D(Conv2DOptions())
        case .depthwiseConv2D: .depthwiseConv2D(DepthwiseConv2DOptions())
        case .fullyConnected: .fullyConnected(FullyConnectedOptions())
        case .add: .add(activation: .none)
        case .sub: .sub(activation: .none)
        case .mul: .mul(activation: .none)
        case .div: .div(activation: .none)
        case .averagePool2D, .maxPool2D, .l2Pool2D: .pool2D(Pool2DOptions())
        case .concatenation: .concatenation(axis: 0, activation: .none)
        case .reshape: .reshape(newShape: nil)
        case .resizeBilinear: .resizeBilinear(alignCorners: false, halfPixelCenters: false)
        case .resizeNearestNeighbor: .resizeNearestNeighbor(alignCorners: false, halfPixelCenters: false)
        case .softmax: .softmax(beta: 0)
        case .stridedSlice: .stridedSlice(StridedSliceOptions())
        case .depthToSpace: .depthToSpace(blockSize: 0)
        case .mean, .sum, .reduceProd, .reduceMax, .reduceMin, .reduceAny, .reduceAll: .reducer(keepDims: false)
        case .squeeze: .squeeze(squeezeDims: [])
        case .leakyRelu: .leakyRelu(alpha: 0)
        case .gather: .gather(axis: 0, batchDims: 0)
        case .transposeConv: .transposeConv(TransposeConvOptions())
        default: .none
        }
    }

    /// Union codes of options tables that declare no fields.
    private static let fieldlessTypeCodes: Set<UInt8> = [
        22, 24, 25, 26, 33, 34, 36, 38, 39, 41, 42, 43, 44, 45, 46, 47, 48, 51, 52, 53, 54, 56, 60, 62, 63, 65, 66,
        67, 68, 72, 73, 76, 78, 81, 82, 83, 84, 85, 86, 88, 89, 90, 91, 95, 96, 97, 98, 99, 100, 104, 105,
    ]

    /// Decodes the options table of union type `type`.
    static func decode(type: UInt8, table: FlatTable) throws(ModelFormatError) -> BuiltinOptions {
        let what = "BuiltinOptions"
        func int(_ id: Int, _ defaultValue: Int32 = 0) throws(ModelFormatError) -> Int {
            Int(try table.integer(id, default: defaultValue, what: what))
        }
        func i32(_ id: Int) throws(ModelFormatError) -> Int32 { try table.integer(id, default: Int32(0), what: what) }
        func bool(_ id: Int) throws(ModelFormatError) -> Bool { try table.bool(id, default: false, what: what) }
        func act(_ id: Int) throws(ModelFormatError) -> FusedActivation {
            FusedActivation(rawValue: try table.integer(id, default: Int8(0), what: what))
        }
        func padding(_ id: Int) throws(ModelFormatError) -> Padding {
            Padding(rawValue: try table.integer(id, default: Int8(0), what: what))
        }
        switch type {
        case 1:
            var o = Conv2DOptions()
            o.padding = try padding(0)
            o.strideW = try int(1)
            o.strideH = try int(2)
            o.activation = try act(3)
            o.dilationW = try int(4, 1)
            o.dilationH = try int(5, 1)
            return .conv2D(o)
        case 2:
            var o = DepthwiseConv2DOptions()
            o.padding = try padding(0)
            o.strideW = try int(1)
            o.strideH = try int(2)
            o.depthMultiplier = try int(3)
            o.activation = try act(4)
            o.dilationW = try int(5, 1)
            o.dilationH = try int(6, 1)
            return .depthwiseConv2D(o)
        case 5:
            var o = Pool2DOptions()
            o.padding = try padding(0)
            o.strideW = try int(1)
            o.strideH = try int(2)
            o.filterW = try int(3)
            o.filterH = try int(4)
            o.activation = try act(5)
            return .pool2D(o)
        case 8:
            var o = FullyConnectedOptions()
            o.activation = try act(0)
            o.weightsFormat = FullyConnectedWeightsFormat(rawValue: try table.integer(1, default: Int8(0), what: what))
            o.keepNumDims = try bool(2)
            o.asymmetricQuantizeInputs = try bool(3)
            return .fullyConnected(o)
        case 9: return .softmax(beta: try table.float(0, default: 0, what: what))
        case 10: return .concatenation(axis: try int(0), activation: try act(1))
        case 11: return .add(activation: try act(0))
        case 15: return .resizeBilinear(alignCorners: try bool(2), halfPixelCenters: try bool(3))
        case 17: return .reshape(newShape: try table.ints(0, what: "ReshapeOptions.new_shape"))
        case 21: return .mul(activation: try act(0))
        case 23: return .gather(axis: try int(0), batchDims: try int(1))
        case 27: return .reducer(keepDims: try bool(0))
        case 28: return .sub(activation: try act(0))
        case 29: return .div(activation: try act(0))
        case 30: return .squeeze(squeezeDims: try table.ints(0, what: "SqueezeOptions.squeeze_dims") ?? [])
        case 32:
            var o = StridedSliceOptions()
            o.beginMask = try i32(0)
            o.endMask = try i32(1)
            o.ellipsisMask = try i32(2)
            o.newAxisMask = try i32(3)
            o.shrinkAxisMask = try i32(4)
            o.offset = try bool(5)
            return .stridedSlice(o)
        case 49:
            var o = TransposeConvOptions()
            o.padding = try padding(0)
            o.strideW = try int(1)
            o.strideH = try int(2)
            o.activation = try act(3)
            return .transposeConv(o)
        case 74: return .resizeNearestNeighbor(alignCorners: try bool(0), halfPixelCenters: try bool(1))
        case 75: return .leakyRelu(alpha: try table.float(0, default: 0, what: what))
        case 94: return .depthToSpace(blockSize: try int(0))
        default: return fieldlessTypeCodes.contains(type) ? .none : .other(typeCode: type)
        }
    }
}
