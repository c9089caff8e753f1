import PureVisionCore
import PureVisionTFLite

/// What a model's input or output tensor looks like.
public struct TensorDescription: Sendable, Hashable {
    /// The tensor's name in the model.
    public let name: String
    /// The index of the tensor in the model's main subgraph.
    public let tensorIndex: Int
    /// The (static) shape.
    public let shape: TensorShape
    /// The element type.
    public let elementType: ElementType
    /// The affine quantization of the tensor, when it has one (`real = scale · (q − zeroPoint)`).
    public let quantization: Quantization?

    /// Bytes the tensor's elements take.
    var byteCount: Int { shape.elementCount * elementType.byteWidth }

    /// Per-tensor affine quantization parameters.
    public struct Quantization: Sendable, Hashable {
        /// The scale.
        public let scale: Float
        /// The zero point.
        public let zeroPoint: Int
    }
}
