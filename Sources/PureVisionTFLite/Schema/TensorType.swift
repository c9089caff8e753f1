import PureVisionCore

/// The element type of a TFLite tensor (schema `TensorType`, a `byte` enum).
///
/// Codes the schema defines have named cases; any other code is kept as `.unknown(code)`.
public enum TensorType: Sendable, Hashable, CustomStringConvertible, SchemaByteEnum {
    case float32, float16, int32, uint8, int64, string, bool, int16, complex64, int8, float64, complex128
    case uint64, resource, variant, uint32, uint16, int4, bfloat16
    /// A code this reader has no name for.
    case unknown(Int8)

    static let byCode: [TensorType] = [
        .float32, .float16, .int32, .uint8, .int64, .string, .bool, .int16, .complex64, .int8, .float64, .complex128,
        .uint64, .resource, .variant, .uint32, .uint16, .int4, .bfloat16,
    ]

    static func unnamed(_ code: Int8) -> TensorType { .unknown(code) }

    /// Creates the type for a schema code.
    public init(rawValue: Int8) { self.init(schemaCode: rawValue) }

    /// The schema code.
    public var rawValue: Int8 {
        if case .unknown(let code) = self { return code }
        return Int8(Self.byCode.firstIndex(of: self) ?? 0)
    }

    /// The engine's element type for the types it can hold in memory, nil for the others.
    public var elementType: ElementType? {
        switch self {
        case .float32: .float32
        case .float16: .float16
        case .float64: .float64
        case .int8: .int8
        case .uint8: .uint8
        case .int16: .int16
        case .int32: .int32
        case .int64: .int64
        case .bool: .bool
        default: nil
        }
    }

    /// The schema spelling, e.g. `"FLOAT32"`.
    public var description: String {
        switch self {
        case .float32: "FLOAT32"
        case .float16: "FLOAT16"
        case .int32: "INT32"
        case .uint8: "UINT8"
        case .int64: "INT64"
        case .string: "STRING"
        case .bool: "BOOL"
        case .int16: "INT16"
        case .complex64: "COMPLEX64"
        case .int8: "INT8"
        case .float64: "FLOAT64"
        case .complex128: "COMPLEX128"
        case .uint64: "UINT64"
        case .resource: "RESOURCE"
        case .variant: "VARIANT"
        case .uint32: "UINT32"
        case .uint16: "UINT16"
        case .int4: "INT4"
        case .bfloat16: "BFLOAT16"
        case .unknown(let code): "UNKNOWN(\(code))"
        }
    }
}
