/// The element type of a tensor, as the engine understands it.
///
/// The cases mirror the TFLite tensor types the engine can hold in memory; `byteWidth` is the storage size of one
/// element.
public enum ElementType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case float32
    case float16
    case float64
    case int8
    case uint8
    case int16
    case int32
    case int64
    case bool

    /// Bytes per element.
    public var byteWidth: Int {
        switch self {
        case .int8, .uint8, .bool: 1
        case .int16, .float16: 2
        case .float32, .int32: 4
        case .float64, .int64: 8
        }
    }

    public var description: String { rawValue }
}
