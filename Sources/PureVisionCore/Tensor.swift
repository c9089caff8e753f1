/// A dense, row-major tensor value that owns its bytes: the unit of input and output at the engine's public API.
///
/// Inside the interpreter tensors live in a planned arena; `Tensor` is what callers hand in and get back.
/// The bytes are stored little-endian in `elementType`'s natural layout.
public struct Tensor: Sendable, Equatable {
    /// The tensor's dimensions.
    public let shape: TensorShape
    /// The type of each element.
    public let elementType: ElementType
    /// `shape.elementCount * elementType.byteWidth` bytes, row-major.
    public private(set) var bytes: [UInt8]

    /// Creates a tensor from raw bytes.
    /// - Throws: `TensorError.byteCountMismatch` when `bytes.count` does not equal the element count times the
    ///   element width.
    public init(shape: TensorShape, elementType: ElementType, bytes: [UInt8]) throws(TensorError) {
        guard let count = shape.checkedElementCount else { throw .invalidShape(shape) }
        let expected = count * elementType.byteWidth
        guard bytes.count == expected else {
            throw .byteCountMismatch(shape: shape, elementType: elementType, expected: expected, actual: bytes.count)
        }
        self.shape = shape
        self.elementType = elementType
        self.bytes = bytes
    }

    /// Creates a float32 tensor.
    /// - Throws: `TensorError.byteCountMismatch` when `values.count != shape.elementCount`.
    public init(shape: TensorShape, floats values: [Float]) throws(TensorError) {
        guard let count = shape.checkedElementCount else { throw .invalidShape(shape) }
        guard values.count == count else {
            throw .byteCountMismatch(
                shape: shape, elementType: .float32, expected: count * 4, actual: values.count * 4)
        }
        self.shape = shape
        self.elementType = .float32
        self.bytes = values.withUnsafeBytes { Array($0) }
    }

    /// Creates a zero-filled tensor.
    public init(zeros shape: TensorShape, elementType: ElementType) {
        self.shape = shape
        self.elementType = elementType
        self.bytes = [UInt8](repeating: 0, count: max(0, shape.checkedElementCount ?? 0) * elementType.byteWidth)
    }

    /// The elements as `Float`, converting from the stored type (integers are converted by value, not
    /// dequantized; float16 is widened).
    public var floats: [Float] {
        bytes.withUnsafeBytes { raw in
            let n = shape.elementCount
            switch elementType {
            case .float32: return Array(raw.bindMemory(to: Float.self).prefix(n))
            case .float64: return raw.bindMemory(to: Double.self).prefix(n).map { Float($0) }
            case .float16: return raw.bindMemory(to: UInt16.self).prefix(n).map { Float16Bits.toFloat($0) }
            case .int8: return raw.bindMemory(to: Int8.self).prefix(n).map { Float($0) }
            case .uint8, .bool: return raw.bindMemory(to: UInt8.self).prefix(n).map { Float($0) }
            case .int16: return raw.bindMemory(to: Int16.self).prefix(n).map { Float($0) }
            case .int32: return raw.bindMemory(to: Int32.self).prefix(n).map { Float($0) }
            case .int64: return raw.bindMemory(to: Int64.self).prefix(n).map { Float($0) }
            }
        }
    }

    /// Calls `body` with the tensor's bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// Calls `body` with the tensor's mutable bytes.
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeMutableBytes(body)
    }
}

/// Errors raised when a `Tensor` value is built from inconsistent parts.
public enum TensorError: Error, Equatable, CustomStringConvertible {
    /// A dimension is negative or the element count overflows.
    case invalidShape(TensorShape)
    /// The number of bytes does not match the shape and element type.
    case byteCountMismatch(shape: TensorShape, elementType: ElementType, expected: Int, actual: Int)

    public var description: String {
        switch self {
        case .invalidShape(let shape): "invalid tensor shape \(shape)"
        case .byteCountMismatch(let shape, let type, let expected, let actual):
            "a \(type) tensor of shape \(shape) needs \(expected) bytes, got \(actual)"
        }
    }
}
