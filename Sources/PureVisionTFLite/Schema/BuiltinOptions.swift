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
    /// UNPACK: `count` outputs along `axis` (negative counts from the end).
    case unpack(count: Int, axis: Int)
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
        case .unpack: .unpack(count: 0, axis: 0)
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
        let fields = BuiltinOptionsFields(table: table)
        switch type {
        case 1: return .conv2D(try Conv2DOptions(fields))
        case 2: return .depthwiseConv2D(try DepthwiseConv2DOptions(fields))
        case 5: return .pool2D(try Pool2DOptions(fields))
        case 8: return .fullyConnected(try FullyConnectedOptions(fields))
        case 9: return .softmax(beta: try fields.float(0))
        case 10: return .concatenation(axis: try fields.int(0), activation: try fields.enumeration(1))
        case 11: return .add(activation: try fields.enumeration(0))
        case 15: return .resizeBilinear(alignCorners: try fields.bool(2), halfPixelCenters: try fields.bool(3))
        case 17: return .reshape(newShape: try table.ints(0, what: "ReshapeOptions.new_shape"))
        case 21: return .mul(activation: try fields.enumeration(0))
        case 23: return .gather(axis: try fields.int(0), batchDims: try fields.int(1))
        case 27: return .reducer(keepDims: try fields.bool(0))
        case 28: return .sub(activation: try fields.enumeration(0))
        case 29: return .div(activation: try fields.enumeration(0))
        case 30: return .squeeze(squeezeDims: try table.ints(0, what: "SqueezeOptions.squeeze_dims") ?? [])
        case 32: return .stridedSlice(try StridedSliceOptions(fields))
        case 64: return .unpack(count: try fields.int(0), axis: try fields.int(1))
        case 49: return .transposeConv(try TransposeConvOptions(fields))
        case 74: return .resizeNearestNeighbor(alignCorners: try fields.bool(0), halfPixelCenters: try fields.bool(1))
        case 75: return .leakyRelu(alpha: try fields.float(0))
        case 94: return .depthToSpace(blockSize: try fields.int(0))
        default: return fieldlessTypeCodes.contains(type) ? .none : .other(typeCode: type)
        }
    }
}

/// The scalar fields of one `BuiltinOptions` table, by field id; an absent field takes the schema default (0,
/// false, code 0, unless given), and every error names `"BuiltinOptions"`.
struct BuiltinOptionsFields {
    /// The options table.
    let table: FlatTable
    private var what: String { "BuiltinOptions" }

    /// An `int` field as `Int`.
    func int(_ id: Int, default defaultValue: Int32 = 0) throws(ModelFormatError) -> Int {
        Int(try table.integer(id, default: defaultValue, what: what))
    }

    /// An `int` field.
    func int32(_ id: Int) throws(ModelFormatError) -> Int32 { try table.integer(id, default: Int32(0), what: what) }

    /// A `bool` field.
    func bool(_ id: Int) throws(ModelFormatError) -> Bool { try table.bool(id, default: false, what: what) }

    /// A `float` field.
    func float(_ id: Int) throws(ModelFormatError) -> Float { try table.float(id, default: 0, what: what) }

    /// A `byte` enum field (`FusedActivation`, `Padding` …).
    func enumeration<E: SchemaByteEnum>(_ id: Int) throws(ModelFormatError) -> E {
        try table.enumeration(id, what: what)
    }

    /// Fields 0, 1 and 2 of every windowed operator's table (convolutions, pools): `padding`, `stride_w`,
    /// `stride_h`, read in that order.
    func paddingAndStrides() throws(ModelFormatError) -> (Padding, Int, Int) {
        (try enumeration(0), try int(1), try int(2))
    }

    /// `dilation_w_factor` and `dilation_h_factor` at fields `id` and `id + 1` (schema default 1).
    func dilations(_ id: Int) throws(ModelFormatError) -> (Int, Int) {
        (try int(id, default: 1), try int(id + 1, default: 1))
    }
}
