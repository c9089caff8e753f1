/// CONV_2D options (schema `Conv2DOptions`). Strides as stored (the schema default is 0); dilations default to 1.
public struct Conv2DOptions: Sendable, Hashable {
    public var padding: Padding = .same
    public var strideW: Int = 0
    public var strideH: Int = 0
    public var dilationW: Int = 1
    public var dilationH: Int = 1
    public var activation: FusedActivation = .none

    public init() {}
}

/// DEPTHWISE_CONV_2D options (schema `DepthwiseConv2DOptions`); `depthMultiplier` is redundant with the shapes.
public struct DepthwiseConv2DOptions: Sendable, Hashable {
    public var padding: Padding = .same
    public var strideW: Int = 0
    public var strideH: Int = 0
    public var depthMultiplier: Int = 0
    public var dilationW: Int = 1
    public var dilationH: Int = 1
    public var activation: FusedActivation = .none

    public init() {}
}

/// FULLY_CONNECTED options (schema `FullyConnectedOptions`).
public struct FullyConnectedOptions: Sendable, Hashable {
    public var activation: FusedActivation = .none
    public var weightsFormat: FullyConnectedWeightsFormat = .default
    /// Keep the input's leading dimensions instead of flattening to 2-D.
    public var keepNumDims: Bool = false
    public var asymmetricQuantizeInputs: Bool = false

    public init() {}
}

/// AVERAGE_POOL_2D / MAX_POOL_2D / L2_POOL_2D options (schema `Pool2DOptions`).
public struct Pool2DOptions: Sendable, Hashable {
    public var padding: Padding = .same
    public var strideW: Int = 0
    public var strideH: Int = 0
    public var filterW: Int = 0
    public var filterH: Int = 0
    public var activation: FusedActivation = .none

    public init() {}
}

/// STRIDED_SLICE options (schema `StridedSliceOptions`): bit masks over the axes.
public struct StridedSliceOptions: Sendable, Hashable {
    public var beginMask: Int32 = 0
    public var endMask: Int32 = 0
    public var ellipsisMask: Int32 = 0
    public var newAxisMask: Int32 = 0
    public var shrinkAxisMask: Int32 = 0
    /// When true, `end` is an offset from `begin`.
    public var offset: Bool = false

    public init() {}
}
