/// CONV_2D options (schema `Conv2DOptions`). Strides as stored (the schema default is 0); dilations default to 1.
public struct Conv2DOptions: Sendable, Hashable {
    /// How the input is padded (schema default SAME).
    public var padding: Padding = .same
    /// Step along the width, as stored (schema default 0).
    public var strideW: Int = 0
    /// Step along the height, as stored (schema default 0).
    public var strideH: Int = 0
    /// Kernel dilation along the width (schema default 1).
    public var dilationW: Int = 1
    /// Kernel dilation along the height (schema default 1).
    public var dilationH: Int = 1
    /// The activation fused into the output (schema default NONE).
    public var activation: FusedActivation = .none

    /// Creates the options with every field at its schema default.
    public init() {}

    /// Reads the options from their table, in field order.
    init(_ fields: BuiltinOptionsFields) throws(ModelFormatError) {
        (padding, strideW, strideH) = try fields.paddingAndStrides()
        activation = try fields.enumeration(3)
        (dilationW, dilationH) = try fields.dilations(4)
    }
}

/// DEPTHWISE_CONV_2D options (schema `DepthwiseConv2DOptions`); `depthMultiplier` is redundant with the shapes.
public struct DepthwiseConv2DOptions: Sendable, Hashable {
    /// How the input is padded (schema default SAME).
    public var padding: Padding = .same
    /// Step along the width, as stored (schema default 0).
    public var strideW: Int = 0
    /// Step along the height, as stored (schema default 0).
    public var strideH: Int = 0
    /// Output channels per input channel, as stored (schema default 0).
    public var depthMultiplier: Int = 0
    /// Kernel dilation along the width (schema default 1).
    public var dilationW: Int = 1
    /// Kernel dilation along the height (schema default 1).
    public var dilationH: Int = 1
    /// The activation fused into the output (schema default NONE).
    public var activation: FusedActivation = .none

    /// Creates the options with every field at its schema default.
    public init() {}

    /// Reads the options from their table, in field order.
    init(_ fields: BuiltinOptionsFields) throws(ModelFormatError) {
        (padding, strideW, strideH) = try fields.paddingAndStrides()
        depthMultiplier = try fields.int(3)
        activation = try fields.enumeration(4)
        (dilationW, dilationH) = try fields.dilations(5)
    }
}

/// FULLY_CONNECTED options (schema `FullyConnectedOptions`).
public struct FullyConnectedOptions: Sendable, Hashable {
    /// The activation fused into the output (schema default NONE).
    public var activation: FusedActivation = .none
    /// The weight layout (schema default DEFAULT).
    public var weightsFormat: FullyConnectedWeightsFormat = .default
    /// Keep the input's leading dimensions instead of flattening to 2-D.
    public var keepNumDims: Bool = false
    /// Quantize float inputs asymmetrically for weights-only quantized execution.
    public var asymmetricQuantizeInputs: Bool = false

    /// Creates the options with every field at its schema default.
    public init() {}

    /// Reads the options from their table, in field order.
    init(_ fields: BuiltinOptionsFields) throws(ModelFormatError) {
        activation = try fields.enumeration(0)
        weightsFormat = try fields.enumeration(1)
        keepNumDims = try fields.bool(2)
        asymmetricQuantizeInputs = try fields.bool(3)
    }
}

/// AVERAGE_POOL_2D / MAX_POOL_2D / L2_POOL_2D options (schema `Pool2DOptions`).
public struct Pool2DOptions: Sendable, Hashable {
    /// How the input is padded (schema default SAME).
    public var padding: Padding = .same
    /// Step along the width, as stored (schema default 0).
    public var strideW: Int = 0
    /// Step along the height, as stored (schema default 0).
    public var strideH: Int = 0
    /// Pooling window width.
    public var filterW: Int = 0
    /// Pooling window height.
    public var filterH: Int = 0
    /// The activation fused into the output (schema default NONE).
    public var activation: FusedActivation = .none

    /// Creates the options with every field at its schema default.
    public init() {}

    /// Reads the options from their table, in field order.
    init(_ fields: BuiltinOptionsFields) throws(ModelFormatError) {
        (padding, strideW, strideH) = try fields.paddingAndStrides()
        filterW = try fields.int(3)
        filterH = try fields.int(4)
        activation = try fields.enumeration(5)
    }
}

/// STRIDED_SLICE options (schema `StridedSliceOptions`): bit masks over the axes.
public struct StridedSliceOptions: Sendable, Hashable {
    /// Bit i set: ignore `begin[i]` and start at the first index of axis i.
    public var beginMask: Int32 = 0
    /// Bit i set: ignore `end[i]` and run to the last index of axis i.
    public var endMask: Int32 = 0
    /// Bit i set: spec i is an ellipsis covering the remaining axes.
    public var ellipsisMask: Int32 = 0
    /// Bit i set: spec i inserts a new axis of size 1.
    public var newAxisMask: Int32 = 0
    /// Bit i set: axis i is indexed by `begin[i]` and removed from the output.
    public var shrinkAxisMask: Int32 = 0
    /// When true, `end` is an offset from `begin`.
    public var offset: Bool = false

    /// Creates the options with every field at its schema default.
    public init() {}

    /// Reads the options from their table, in field order.
    init(_ fields: BuiltinOptionsFields) throws(ModelFormatError) {
        beginMask = try fields.int32(0)
        endMask = try fields.int32(1)
        ellipsisMask = try fields.int32(2)
        newAxisMask = try fields.int32(3)
        shrinkAxisMask = try fields.int32(4)
        offset = try fields.bool(5)
    }
}

/// TRANSPOSE_CONV options (schema `TransposeConvOptions`).
public struct TransposeConvOptions: Sendable, Hashable {
    /// How the output is padded (schema default SAME).
    public var padding: Padding = .same
    /// Step along the width, as stored (schema default 0).
    public var strideW: Int = 0
    /// Step along the height, as stored (schema default 0).
    public var strideH: Int = 0
    /// The activation fused into the output (schema default NONE).
    public var activation: FusedActivation = .none

    /// Creates the options with every field at its schema default.
    public init() {}

    /// Reads the options from their table, in field order.
    init(_ fields: BuiltinOptionsFields) throws(ModelFormatError) {
        (padding, strideW, strideH) = try fields.paddingAndStrides()
        activation = try fields.enumeration(3)
    }
}
