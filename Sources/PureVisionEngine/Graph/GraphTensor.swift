import PureVisionTFLite
import PureVisionCore

/// A tensor of the main subgraph as the loader sees it: its inferred static shape, its type and, for constants,
/// its data.
struct GraphTensor {
    let index: Int
    let name: String
    var shape: [Int]
    var elementType: ElementType
    /// Set for constant tensors (model weights and results folded at load).
    var constant: ConstantStorage?
    let quantization: QuantizationInfo?
    let sparsity: SparsityInfo?

    var isConstant: Bool { constant != nil }
    var elementCount: Int { shape.reduce(1, *) }
    var byteCount: Int { elementCount * elementType.byteWidth }
}
