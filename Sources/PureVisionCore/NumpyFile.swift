/// Reads and writes NumPy `.npy` files (format versions 1.0, 2.0 and 3.0), the exchange format of the CLI and the
/// golden fixtures.
///
/// Supported element types: little-endian `f2`, `f4`, `f8`, `i1`, `u1`, `i2`, `i4`, `i8` and `b1`, in C order.
/// Fortran order, big-endian data, object arrays and structured types are rejected with a `NumpyFileError`.
public enum NumpyFile {
    /// The largest header the reader accepts, in bytes.
    public static let maximumHeaderLength = 65_536

    /// Decodes a `.npy` file's bytes into a tensor.
    /// - Throws: `NumpyFileError` naming what is wrong with the file.
    public static func decode(_ data: [UInt8]) throws(NumpyFileError) -> Tensor {
        let magic: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59]  // "\x93NUMPY"
        guard data.count >= 10, Array(data[0..<6]) == magic else { throw .notNumpy }
        let major = data[6]
        let headerLength: Int
        let headerStart: Int
        switch major {
        case 1:
            headerLength = Int(data[8]) | Int(data[9]) << 8
            headerStart = 10
        case 2, 3:
            guard data.count >= 12 else { throw .truncated }
            headerLength = Int(data[8]) | Int(data[9]) << 8 | Int(data[10]) << 16 | Int(data[11]) << 24
            headerStart = 12
        default:
            throw .unsupportedVersion(Int(major))
        }
        guard headerLength <= maximumHeaderLength, headerStart + headerLength <= data.count else { throw .truncated }
        guard let header = String(validating: data[headerStart..<(headerStart + headerLength)], as: UTF8.self) else {
            throw .malformedHeader("header is not text")
        }
        let descr = try stringField("descr", in: header)
        let fortran = try boolField("fortran_order", in: header)
        if fortran { throw .unsupported("Fortran-order arrays") }
        let shape = try shapeField(in: header)
        let elementType = try elementType(fromDescr: descr)
        guard let count = TensorShape(shape).checkedElementCount else { throw .malformedHeader("shape \(shape)") }
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: elementType.byteWidth)
        let payloadStart = headerStart + headerLength
        guard !overflow, data.count - payloadStart >= byteCount else { throw .truncated }
        do {
            return try Tensor(
                shape: TensorShape(shape), elementType: elementType,
                bytes: Array(data[payloadStart..<(payloadStart + byteCount)]))
        } catch {
            throw .malformedHeader("\(error)")
        }
    }

    /// Encodes a tensor as a version 1.0 `.npy` file.
    public static func encode(_ tensor: Tensor) -> [UInt8] {
        let descr: String
        switch tensor.elementType {
        case .float32: descr = "<f4"
        case .float16: descr = "<f2"
        case .float64: descr = "<f8"
        case .int8: descr = "|i1"
        case .uint8: descr = "|u1"
        case .bool: descr = "|b1"
        case .int16: descr = "<i2"
        case .int32: descr = "<i4"
        case .int64: descr = "<i8"
        }
        let dims = tensor.shape.dimensions
        let shapeText = dims.count == 1 ? "(\(dims[0]),)" : "(" + dims.map(String.init).joined(separator: ", ") + ")"
        var header = "{'descr': '\(descr)', 'fortran_order': False, 'shape': \(shapeText), }"
        // Pad with spaces so that the payload starts on a 64-byte boundary; the header ends with a newline.
        let unpadded = 10 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        let length = header.utf8.count
        var out: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59, 1, 0, UInt8(length & 0xFF), UInt8(length >> 8)]
        out.append(contentsOf: header.utf8)
        out.append(contentsOf: tensor.bytes)
        return out
    }

    private static func elementType(fromDescr descr: String) throws(NumpyFileError) -> ElementType {
        guard descr.count == 3, let order = descr.first else { throw .unsupported("dtype '\(descr)'") }
        let code = String(descr.dropFirst())
        let type: ElementType
        switch code {
        case "f2": type = .float16
        case "f4": type = .float32
        case "f8": type = .float64
        case "i1": type = .int8
        case "u1": type = .uint8
        case "b1": type = .bool
        case "i2": type = .int16
        case "i4": type = .int32
        case "i8": type = .int64
        default: throw .unsupported("dtype '\(descr)'")
        }
        if order == ">" && type.byteWidth > 1 { throw .unsupported("big-endian dtype '\(descr)'") }
        guard order == "<" || order == "|" || (order == ">" && type.byteWidth == 1) || order == "=" else {
            throw .unsupported("dtype '\(descr)'")
        }
        return type
    }

    private static func value(of key: String, in header: String) throws(NumpyFileError) -> Substring {
        guard let keyEnd = header.endOfFirstOccurrence(of: "'\(key)'") ?? header.endOfFirstOccurrence(of: "\"\(key)\"")
        else {
            throw .malformedHeader("missing '\(key)'")
        }
        var rest = header[keyEnd...].drop { $0 == " " }
        guard rest.first == ":" else { throw .malformedHeader("no ':' after '\(key)'") }
        rest = rest.dropFirst().drop { $0 == " " }
        return rest
    }

    private static func stringField(_ key: String, in header: String) throws(NumpyFileError) -> String {
        let rest = try value(of: key, in: header)
        guard let quote = rest.first, quote == "'" || quote == "\"" else { throw .malformedHeader("'\(key)'") }
        let body = rest.dropFirst()
        guard let end = body.firstIndex(of: quote) else { throw .malformedHeader("'\(key)'") }
        return String(body[..<end])
    }

    private static func boolField(_ key: String, in header: String) throws(NumpyFileError) -> Bool {
        let rest = try value(of: key, in: header)
        if rest.hasPrefix("False") { return false }
        if rest.hasPrefix("True") { return true }
        throw .malformedHeader("'\(key)'")
    }

    private static func shapeField(in header: String) throws(NumpyFileError) -> [Int] {
        let rest = try value(of: "shape", in: header)
        guard rest.first == "(", let close = rest.firstIndex(of: ")") else { throw .malformedHeader("'shape'") }
        let inner = rest[rest.index(after: rest.startIndex)..<close]
        var dims: [Int] = []
        for part in inner.split(separator: ",") {
            let trimmed = part.trimmingCharacters(in: " L")
            if trimmed.isEmpty { continue }
            guard let dim = Int(trimmed), dim >= 0 else { throw .malformedHeader("shape entry '\(trimmed)'") }
            dims.append(dim)
        }
        return dims
    }
}

extension String {
    /// The index just past the first occurrence of `needle`, or `nil`.
    fileprivate func endOfFirstOccurrence(of needle: String) -> String.Index? {
        let pattern = Array(needle.utf8)
        let bytes = Array(utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count)
        where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return utf8.index(utf8.startIndex, offsetBy: start + pattern.count)
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s
    }
}

/// Why a `.npy` file could not be read.
public enum NumpyFileError: Error, Equatable, CustomStringConvertible {
    /// The file does not start with the `.npy` magic string.
    case notNumpy
    /// The file ends before its header or payload does.
    case truncated
    /// A format version other than 1, 2 or 3.
    case unsupportedVersion(Int)
    /// The header dictionary cannot be parsed.
    case malformedHeader(String)
    /// A valid `.npy` feature the engine does not handle.
    case unsupported(String)

    public var description: String {
        switch self {
        case .notNumpy: "not a .npy file (bad magic)"
        case .truncated: ".npy file is truncated"
        case .unsupportedVersion(let v): ".npy format version \(v) is not supported"
        case .malformedHeader(let what): "malformed .npy header: \(what)"
        case .unsupported(let what): ".npy \(what) not supported"
        }
    }
}
