/// The description of one tensor of a subgraph (schema `Tensor`); its constant data, if any, is in a buffer.
public struct TensorInfo: Sendable {
    /// The tensor's name ("" when absent).
    public var name: String
    /// The static shape, outermost first (NHWC for images). Values are as stored; not validated.
    public var shape: [Int]
    /// The shape with −1 for dimensions unknown at conversion time, when the file records one.
    public var shapeSignature: [Int]?
    /// The element type.
    public var type: TensorType
    /// Index into `TFLiteModel.buffers`, validated; buffer 0 is the empty sentinel for non-constant tensors.
    public var bufferIndex: Int
    /// Affine quantization parameters, when present.
    public var quantization: QuantizationInfo?
    /// Sparse storage description, when the buffer holds a sparse encoding.
    public var sparsity: SparsityInfo?
    /// True for variable tensors (state that operators mutate).
    public var isVariable: Bool

    /// Creates the value from its fields.
    public init(
        name: String, shape: [Int], shapeSignature: [Int]? = nil, type: TensorType, bufferIndex: Int,
        quantization: QuantizationInfo? = nil, sparsity: SparsityInfo? = nil, isVariable: Bool = false
    ) {
        self.name = name
        self.shape = shape
        self.shapeSignature = shapeSignature
        self.type = type
        self.bufferIndex = bufferIndex
        self.quantization = quantization
        self.sparsity = sparsity
        self.isVariable = isVariable
    }
}

/// Affine quantization: `real = scale × (quantized − zeroPoint)`, per tensor (one scale) or per channel along
/// `quantizedDimension` (one scale per index of that dimension).
public struct QuantizationInfo: Sendable, Hashable {
    /// One scale per tensor, or one per index of `quantizedDimension`.
    public var scales: [Float]
    /// The zero points, parallel to `scales`.
    public var zeroPoints: [Int64]
    /// The axis the per-channel scales run along (schema default 0).
    public var quantizedDimension: Int
    /// Recorded float ranges, for import back into TensorFlow.
    public var min: [Float]
    /// Recorded float maxima, parallel to `min`.
    public var max: [Float]

    /// Creates the value from its fields.
    public init(
        scales: [Float], zeroPoints: [Int64], quantizedDimension: Int = 0, min: [Float] = [], max: [Float] = []
    ) {
        self.scales = scales
        self.zeroPoints = zeroPoints
        self.quantizedDimension = quantizedDimension
        self.min = min
        self.max = max
    }
}

/// A sparse tensor's encoding (schema `SparsityParameters`, a variant of the TACO format).
public struct SparsityInfo: Sendable, Hashable {
    /// The order in which the n dense dimensions, then the k block dimensions, are traversed.
    public var traversalOrder: [Int]
    /// For each block dimension, the dense dimension it subdivides (empty when not block-sparse).
    public var blockMap: [Int]
    /// One entry per traversed dimension, in traversal order.
    public var dimensionMetadata: [DimensionMetadata]

    /// Creates the value from its fields.
    public init(traversalOrder: [Int], blockMap: [Int], dimensionMetadata: [DimensionMetadata]) {
        self.traversalOrder = traversalOrder
        self.blockMap = blockMap
        self.dimensionMetadata = dimensionMetadata
    }
}

/// How one traversed dimension of a sparse tensor is stored.
public enum DimensionMetadata: Sendable, Hashable {
    /// Every index is stored implicitly; `size` is the extent.
    case dense(size: Int)
    /// Compressed sparse row: `segments[i]..<segments[i+1]` delimits the entries of element `i` of the previous
    /// dimension in `indices`, which holds the coordinates of the stored entries in this dimension.
    case sparseCSR(segments: [Int], indices: [Int])
}
