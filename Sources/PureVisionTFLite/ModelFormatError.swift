/// Why a model file, its metadata or a ZIP bundle could not be read.
///
/// Every case carries enough context to locate the problem: what was being read and the byte offset (relative to
/// the buffer being decoded), or the index that was out of range. `.context` wraps an inner error with the
/// enclosing object (e.g. `"subgraph 0 tensor 12 'conv/w'"`).
public enum ModelFormatError: Error, Equatable, CustomStringConvertible {
    /// No file exists at the path.
    case fileNotFound(String)
    /// The file exists but could not be read.
    case unreadableFile(path: String, reason: String)
    /// The file at `path` is `byteCount` bytes, more than `ModelLimits.maximumFileByteCount`; nothing was read.
    case fileTooLarge(path: String, byteCount: Int, limit: Int)
    /// A read of `what` at `offset` would run past the end of the bytes.
    case truncated(what: String, offset: Int)
    /// An offset stored at `offset` points outside the bytes or into a structure it may not point to.
    case invalidOffset(what: String, offset: Int)
    /// A table, vtable or vector at `offset` is not aligned as FlatBuffers requires.
    case misaligned(what: String, offset: Int)
    /// The vtable of a table at `offset` has an impossible size.
    case invalidVTable(what: String, offset: Int)
    /// A string at `offset` has no terminating zero byte inside the buffer.
    case unterminatedString(what: String, offset: Int)
    /// Tables nest deeper than the reader allows (also how reference cycles end).
    case nestingTooDeep(what: String, depth: Int)
    /// Decoding would touch far more elements than the file holds (shared or cyclic references).
    case workLimitExceeded(what: String)
    /// The 4-byte file identifier is not the expected one.
    case badIdentifier(expected: String, found: String)
    /// `index` does not name one of the `count` objects `what` may refer to.
    case invalidReference(what: String, index: Int, count: Int)
    /// The model's schema version is not 3.
    case unsupportedSchemaVersion(UInt32)
    /// A value is present but not one the schema allows.
    case invalidValue(what: String, value: Int64)
    /// A ZIP entry is compressed; only stored (method 0) entries can be read in place.
    case compressedZipEntry(String)
    /// A ZIP entry with this name does not exist; `available` lists the names that do.
    case missingZipEntry(String, available: [String])
    /// The ZIP structure is invalid.
    case malformedZip(String)
    /// A stored ZIP entry's CRC-32 does not match its bytes.
    case zipChecksumMismatch(name: String, expected: UInt32, actual: UInt32)
    /// The TFLITE_METADATA buffer is invalid.
    case malformedMetadata(String)
    /// `inner` happened while reading the object described by the first value.
    indirect case context(String, ModelFormatError)

    /// A one-line, human-readable explanation.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "model file not found: \(path)"
        case .unreadableFile(let path, let reason):
            "cannot read \(path): \(reason)"
        case .fileTooLarge(let path, let byteCount, let limit):
            "model file \(path) is \(byteCount) bytes, more than the \(limit) accepted"
        case .truncated(let what, let offset):
            "truncated: \(what) at byte \(offset) runs past the end"
        case .invalidOffset(let what, let offset):
            "invalid offset for \(what) at byte \(offset)"
        case .misaligned(let what, let offset):
            "misaligned \(what) at byte \(offset)"
        case .invalidVTable(let what, let offset):
            "invalid vtable for \(what) at byte \(offset)"
        case .unterminatedString(let what, let offset):
            "string \(what) at byte \(offset) is not zero-terminated"
        case .nestingTooDeep(let what, let depth):
            "\(what) nests deeper than \(depth) tables"
        case .workLimitExceeded(let what):
            "decoding \(what) exceeds the work limit (shared or cyclic references)"
        case .badIdentifier(let expected, let found):
            "file identifier is \"\(found)\", expected \"\(expected)\""
        case .invalidReference(let what, let index, let count):
            "\(what): index \(index) is out of range 0..<\(count)"
        case .unsupportedSchemaVersion(let version):
            "unsupported TFLite schema version \(version) (expected 3)"
        case .invalidValue(let what, let value):
            "invalid value \(value) for \(what)"
        case .compressedZipEntry(let name):
            "Expected uncompressed zip archive: entry \(name) is compressed"
        case .missingZipEntry(let name, let available):
            "zip entry \(name) not found; available: \(available.joined(separator: ", "))"
        case .malformedZip(let reason):
            "malformed zip archive: \(reason)"
        case .zipChecksumMismatch(let name, let expected, let actual):
            "zip entry \(name): CRC-32 \(hex(actual)) does not match the recorded \(hex(expected))"
        case .malformedMetadata(let reason):
            "malformed TFLITE_METADATA: \(reason)"
        case .context(let where_, let inner):
            "\(where_): \(inner.description)"
        }
    }

    /// The innermost error, with all `.context` wrappers removed.
    public var underlying: ModelFormatError {
        if case .context(_, let inner) = self { return inner.underlying }
        return self
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}

/// Runs `body`, wrapping any error it throws in `.context(label())`.
@inline(__always)
func withContext<T>(
    _ label: @autoclosure () -> String, _ body: () throws(ModelFormatError) -> T
) throws(ModelFormatError) -> T {
    do {
        return try body()
    } catch {
        throw .context(label(), error)
    }
}
