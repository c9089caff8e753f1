import PureVisionCore
import PureVisionTFLite

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

    /// The values of a constant int32 / int64 tensor (a shape, axes, paddings), or nil when the tensor is not
    /// constant, has another type, or holds fewer bytes than its shape needs.
    var constantIntegers: [Int]? {
        guard let storage = constant else { return nil }
        let count = elementCount
        switch elementType {
        case .int32:
            guard storage.byteCount >= count * 4 else { return nil }
            let p = storage.pointer.assumingMemoryBound(to: Int32.self)
            return (0..<count).map { Int(p[$0]) }
        case .int64:
            guard storage.byteCount >= count * 8 else { return nil }
            let p = storage.pointer.assumingMemoryBound(to: Int64.self)
            return (0..<count).map { Int(p[$0]) }
        default: return nil
        }
    }
}
