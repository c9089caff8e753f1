/// The scalar entries of a FlexBuffers map, the format TFLite custom operators (e.g. `TFLite_Detection_PostProcess`)
/// store their options in. Every offset and width is checked against the buffer; nested maps and vectors are
/// skipped, strings are not decoded.
///
/// Layout (FlexBuffers): the buffer ends with the root value, its packed type byte and the root's byte width. A map
/// value points at its values (`count` elements of the map's width, then one packed type byte each); before them
/// lie the count, the keys vector's byte width and its offset. Keys are null-terminated strings.
public struct FlexBufferMap: Sendable, Hashable {
    /// One scalar value.
    public enum Value: Sendable, Hashable {
        /// A signed integer (inline or indirect).
        case int(Int64)
        /// An unsigned integer (inline or indirect).
        case uint(UInt64)
        /// A float of 4 or 8 bytes, widened.
        case float(Double)
        /// A boolean.
        case bool(Bool)
        /// A null, string, vector or nested map.
        case other
    }

    /// The entries by key.
    public let entries: [String: Value]

    /// Parses `bytes` whose root is a map.
    /// - Throws: `ModelFormatError.malformedMetadata` for a buffer that is not a FlexBuffers map.
    public init(bytes: [UInt8]) throws(ModelFormatError) {
        func fail(_ reason: String) -> ModelFormatError {
            .malformedMetadata("custom options (FlexBuffers): \(reason)")
        }
        func unsigned(_ at: Int, _ width: Int) throws(ModelFormatError) -> UInt64 {
            guard [1, 2, 4, 8].contains(width), at >= 0, at + width <= bytes.count else {
                throw fail("a \(width)-byte value at \(at) lies outside the \(bytes.count)-byte buffer")
            }
            var value: UInt64 = 0
            for i in (0..<width).reversed() { value = value << 8 | UInt64(bytes[at + i]) }
            return value
        }
        func signed(_ at: Int, _ width: Int) throws(ModelFormatError) -> Int64 {
            let raw = try unsigned(at, width)
            let shift = UInt64(64 - 8 * width)
            return Int64(bitPattern: raw << shift) >> Int64(shift)
        }
        func float(_ at: Int, _ width: Int) throws(ModelFormatError) -> Double {
            switch width {
            case 4: return Double(Float(bitPattern: UInt32(try unsigned(at, 4))))
            case 8: return Double(bitPattern: try unsigned(at, 8))
            default: throw fail("a float of \(width) bytes")
            }
        }
        func target(_ at: Int, _ width: Int) throws(ModelFormatError) -> Int {
            let offset = try unsigned(at, width)
            guard offset <= UInt64(at) else { throw fail("offset \(offset) at \(at) points before the buffer") }
            return at - Int(offset)
        }
        guard bytes.count >= 3 else { throw fail("\(bytes.count) bytes") }
        let rootWidth = Int(bytes[bytes.count - 1])
        let rootType = bytes[bytes.count - 2]
        guard rootType >> 2 == 9 else { throw fail("the root is not a map (type \(rootType >> 2))") }
        let rootAt = bytes.count - 2 - rootWidth
        let values = try target(rootAt, rootWidth)
        let width = 1 << Int(rootType & 3)
        let count = try unsigned(values - width, width)
        guard count <= UInt64(bytes.count) else { throw fail("a map of \(count) entries") }
        let keysAt = values - 3 * width
        let keys = try target(keysAt, width)
        let storedKeyWidth = try unsigned(values - 2 * width, width)
        guard let keyWidth = Int(exactly: storedKeyWidth), [1, 2, 4, 8].contains(keyWidth) else {
            throw fail("a key width of \(storedKeyWidth) bytes")
        }
        guard try unsigned(keys - keyWidth, keyWidth) == count else { throw fail("keys and values differ in count") }
        var entries: [String: Value] = [:]
        for i in 0..<Int(count) {
            let keyStart = try target(keys + i * keyWidth, keyWidth)
            var end = keyStart
            while end < bytes.count, bytes[end] != 0 { end += 1 }
            guard end < bytes.count, let key = String(validating: bytes[keyStart..<end], as: UTF8.self) else {
                throw fail("key \(i) is not a terminated UTF-8 string")
            }
            let typeAt = values + Int(count) * width + i
            guard typeAt < bytes.count else { throw fail("the type of entry '\(key)' lies outside the buffer") }
            let packed = bytes[typeAt]
            let at = values + i * width
            let childWidth = 1 << Int(packed & 3)
            switch packed >> 2 {
            case 1: entries[key] = .int(try signed(at, width))
            case 2: entries[key] = .uint(try unsigned(at, width))
            case 3: entries[key] = .float(try float(at, width))
            case 6: entries[key] = .int(try signed(try target(at, width), childWidth))
            case 7: entries[key] = .uint(try unsigned(try target(at, width), childWidth))
            case 8: entries[key] = .float(try float(try target(at, width), childWidth))
            case 26: entries[key] = .bool(try unsigned(at, width) != 0)
            default: entries[key] = .other
            }
        }
        self.entries = entries
    }

    /// The entry as an integer (floats truncated, booleans 0 / 1), or nil when absent or not a scalar.
    public func int(_ key: String) -> Int? {
        switch entries[key] {
        case .int(let v): Int(exactly: v)
        case .uint(let v): Int(exactly: v)
        case .float(let v): v.isFinite && abs(v) < 1e15 ? Int(v) : nil
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    /// The entry as a float, or nil when absent or not a scalar.
    public func float(_ key: String) -> Float? {
        switch entries[key] {
        case .int(let v): Float(v)
        case .uint(let v): Float(v)
        case .float(let v): Float(v)
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    /// The entry as a boolean (non-zero numbers are true), or nil when absent or not a scalar.
    public func bool(_ key: String) -> Bool? {
        switch entries[key] {
        case .bool(let v): v
        case .int(let v): v != 0
        case .uint(let v): v != 0
        case .float(let v): v != 0
        default: nil
        }
    }
}
