/// Why a protocol-buffer message could not be read.
public enum ProtobufError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A value of `what` starting at byte `offset` runs past the end of its message.
    case truncated(what: String, offset: Int)
    /// A varint at `offset` is longer than 10 bytes or does not fit 64 bits.
    case malformedVarint(offset: Int)
    /// The tag at `offset` names field number 0 or a wire type that does not exist (6, 7).
    case invalidTag(tag: UInt64, offset: Int)
    /// A group (wire types 3 and 4, deprecated since proto2) at `offset`; this reader does not skip groups.
    case unsupportedGroup(field: Int, offset: Int)
    /// Field `field` of `message` arrived with wire type `wireType`, which its declared type cannot have.
    case unexpectedWireType(message: String, field: Int, wireType: Int, offset: Int)
    /// A value is well-formed on the wire but not allowed by the schema or its consumer: `what` says which and
    /// why.
    case invalidValue(what: String, reason: String)
    /// Messages nest deeper than the reader allows.
    case nestingTooDeep(depth: Int)

    /// A one-line, human-readable explanation.
    public var description: String {
        switch self {
        case .truncated(let what, let offset): "truncated protobuf: \(what) at byte \(offset) runs past the end"
        case .malformedVarint(let offset): "malformed protobuf varint at byte \(offset)"
        case .invalidTag(let tag, let offset): "invalid protobuf tag \(tag) at byte \(offset)"
        case .unsupportedGroup(let field, let offset):
            "protobuf group (field \(field)) at byte \(offset) is not supported"
        case .unexpectedWireType(let message, let field, let wireType, let offset):
            "\(message) field \(field) has wire type \(wireType) at byte \(offset), which its type cannot have"
        case .invalidValue(let what, let reason): "invalid \(what): \(reason)"
        case .nestingTooDeep(let depth): "protobuf messages nest deeper than \(depth)"
        }
    }
}

/// The wire type of a protobuf field (the low 3 bits of its tag).
public enum ProtobufWireType: Int, Sendable {
    /// A base-128 varint (int32/64, uint32/64, sint32/64, bool, enum).
    case varint = 0
    /// 8 little-endian bytes (fixed64, sfixed64, double).
    case fixed64 = 1
    /// A varint length, then that many bytes (string, bytes, embedded message, packed repeated field).
    case lengthDelimited = 2
    /// Start of a group (deprecated).
    case startGroup = 3
    /// End of a group (deprecated).
    case endGroup = 4
    /// 4 little-endian bytes (fixed32, sfixed32, float).
    case fixed32 = 5
}

/// One field's key: its number, wire type and where its tag starts.
public struct ProtobufFieldKey: Sendable, Equatable {
    /// The field number (≥ 1).
    public var number: Int
    /// How the value is encoded.
    public var wireType: ProtobufWireType
    /// The byte offset of the tag in the outermost buffer.
    public var offset: Int
}

/// A bounds-checked reader of the protocol-buffer wire format (proto2 / proto3 binary encoding,
/// protobuf.dev/programming-guides/encoding): a cursor over one message's bytes that yields field keys and
/// decodes their values. It never reads outside its range; every malformed input is a `ProtobufError`.
///
/// Typical use: `while let key = try reader.nextField() { switch key.number { … default: try reader.skip(key) } }`.
/// Embedded messages are read with `message(for:)`, which returns a reader limited to the embedded bytes.
public struct ProtobufReader: Sendable {
    private let bytes: [UInt8]
    /// The next byte to read.
    public private(set) var position: Int
    /// One past the last byte of this message.
    public let end: Int
    /// How many embedded messages enclose this one.
    public let depth: Int

    /// The deepest nesting `message(for:)` accepts.
    public static let maximumDepth = 64

    /// A reader over a whole buffer.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        position = 0
        end = bytes.count
        depth = 0
    }

    private init(bytes: [UInt8], range: Range<Int>, depth: Int) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
        self.depth = depth
    }

    /// Whether every byte of the message has been read.
    public var isAtEnd: Bool { position >= end }

    /// The next field's key, or nil at the end of the message.
    /// - Throws: `.malformedVarint`, `.truncated`, `.invalidTag` (field 0, wire type 6 or 7, a number beyond
    ///   2²⁹ − 1), `.unsupportedGroup`.
    public mutating func nextField() throws(ProtobufError) -> ProtobufFieldKey? {
        guard position < end else { return nil }
        let offset = position
        let tag = try varint(what: "field tag")
        let number = tag >> 3
        guard number >= 1, number <= 0x1FFF_FFFF, let wireType = ProtobufWireType(rawValue: Int(tag & 7)) else {
            throw .invalidTag(tag: tag, offset: offset)
        }
        if wireType == .startGroup || wireType == .endGroup {
            throw .unsupportedGroup(field: Int(number), offset: offset)
        }
        return ProtobufFieldKey(number: Int(number), wireType: wireType, offset: offset)
    }

    /// Reads a varint value.
    public mutating func varint(what: @autoclosure () -> String = "varint") throws(ProtobufError) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw .truncated(what: what(), offset: start) }
            let byte = bytes[position]
            position += 1
            // The tenth byte may only carry the 64th bit.
            if shift == 63, byte > 1 { throw .malformedVarint(offset: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw .malformedVarint(offset: start) }
        }
    }

    /// Reads 4 little-endian bytes.
    public mutating func fixed32(what: @autoclosure () -> String = "fixed32") throws(ProtobufError) -> UInt32 {
        try littleEndian(UInt32.self, what: what)
    }

    /// Reads 8 little-endian bytes.
    public mutating func fixed64(what: @autoclosure () -> String = "fixed64") throws(ProtobufError) -> UInt64 {
        try littleEndian(UInt64.self, what: what)
    }

    /// Reads a fixed-width little-endian value (`fixed32`, `fixed64`); `.truncated` naming `what` when fewer bytes
    /// than its width are left in the message.
    @inline(__always)
    private mutating func littleEndian<T: FixedWidthInteger & UnsignedInteger>(
        _: T.Type, what: () -> String
    ) throws(ProtobufError) -> T {
        let size = MemoryLayout<T>.size
        guard end - position >= size else { throw .truncated(what: what(), offset: position) }
        var value: T = 0
        for i in 0..<size { value |= T(bytes[position + i]) << (8 * i) }
        position += size
        return value
    }

    /// Reads a length prefix and returns the range of the bytes it covers, moving past them.
    public mutating func lengthDelimitedRange(what: @autoclosure () -> String = "length-delimited value")
        throws(ProtobufError)
        -> Range<Int>
    {
        let start = position
        let length = try varint(what: what())
        guard length <= UInt64(end - position) else { throw .truncated(what: what(), offset: start) }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    /// A reader over the embedded message that follows (a length-delimited value).
    /// - Throws: `.truncated` when the length runs past this message, `.nestingTooDeep` beyond `maximumDepth`.
    public mutating func message(what: @autoclosure () -> String) throws(ProtobufError) -> ProtobufReader {
        guard depth < Self.maximumDepth else { throw .nestingTooDeep(depth: Self.maximumDepth) }
        let range = try lengthDelimitedRange(what: what())
        return ProtobufReader(bytes: bytes, range: range, depth: depth + 1)
    }

    /// Skips the value of a field the caller does not read.
    public mutating func skip(_ key: ProtobufFieldKey) throws(ProtobufError) {
        switch key.wireType {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .fixed32: _ = try fixed32()
        case .lengthDelimited: _ = try lengthDelimitedRange()
        case .startGroup, .endGroup: throw .unsupportedGroup(field: key.number, offset: key.offset)
        }
    }

    /// Appends the values of a repeated `float` field, accepting both encodings: one fixed32 value (unpacked) or a
    /// length-delimited run of them (packed, whose length must be a multiple of 4).
    public mutating func appendFloats(
        _ key: ProtobufFieldKey, to values: inout [Float], message: String
    ) throws(ProtobufError) {
        switch key.wireType {
        case .fixed32:
            values.append(Float(bitPattern: try fixed32(what: "\(message) field \(key.number)")))
        case .lengthDelimited:
            let range = try lengthDelimitedRange(what: "\(message) field \(key.number)")
            guard range.count % 4 == 0 else {
                throw .invalidValue(
                    what: "\(message) field \(key.number)",
                    reason: "packed floats take \(range.count) bytes, not a multiple of 4")
            }
            var reader = ProtobufReader(bytes: bytes, range: range, depth: depth)
            values.reserveCapacity(values.count + range.count / 4)
            while !reader.isAtEnd { values.append(Float(bitPattern: try reader.fixed32())) }
        default:
            throw Self.unexpectedWireType(key, message: message)
        }
    }

    /// Appends the values of a repeated varint field (`uint32`, `int32`, `enum`, …), accepting both encodings: one
    /// varint (unpacked) or a length-delimited run of them (packed).
    public mutating func appendVarints(
        _ key: ProtobufFieldKey, to values: inout [UInt64], message: String
    ) throws(ProtobufError) {
        switch key.wireType {
        case .varint:
            values.append(try varint(what: "\(message) field \(key.number)"))
        case .lengthDelimited:
            let range = try lengthDelimitedRange(what: "\(message) field \(key.number)")
            var reader = ProtobufReader(bytes: bytes, range: range, depth: depth)
            while !reader.isAtEnd { values.append(try reader.varint(what: "\(message) field \(key.number)")) }
        default:
            throw Self.unexpectedWireType(key, message: message)
        }
    }

    /// Reads a singular varint field, checking its wire type.
    public mutating func singularVarint(_ key: ProtobufFieldKey, message: String) throws(ProtobufError) -> UInt64 {
        try Self.expect(key, .varint, message: message)
        return try varint(what: "\(message) field \(key.number)")
    }

    /// Reads a singular `float` field, checking its wire type.
    public mutating func singularFloat(_ key: ProtobufFieldKey, message: String) throws(ProtobufError) -> Float {
        try Self.expect(key, .fixed32, message: message)
        return Float(bitPattern: try fixed32(what: "\(message) field \(key.number)"))
    }

    /// An embedded-message field, checking its wire type.
    public mutating func embeddedMessage(_ key: ProtobufFieldKey, message: String, field name: String)
        throws(ProtobufError) -> ProtobufReader
    {
        try Self.expect(key, .lengthDelimited, message: message)
        return try self.message(what: "\(message).\(name)")
    }

    /// Checks that field `key` of `message` arrived with `wireType`, the one its declared type has.
    private static func expect(
        _ key: ProtobufFieldKey, _ wireType: ProtobufWireType, message: String
    ) throws(ProtobufError) {
        guard key.wireType == wireType else { throw unexpectedWireType(key, message: message) }
    }

    /// `.unexpectedWireType` for field `key` of `message`.
    private static func unexpectedWireType(_ key: ProtobufFieldKey, message: String) -> ProtobufError {
        .unexpectedWireType(message: message, field: key.number, wireType: key.wireType.rawValue, offset: key.offset)
    }
}
