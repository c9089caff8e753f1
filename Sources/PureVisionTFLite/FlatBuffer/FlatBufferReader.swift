/// A bounds-checked reader over one FlatBuffers buffer.
///
/// Every offset, vtable, vector length and string is validated before it is followed; a violation throws
/// `ModelFormatError` naming what was being read and the byte offset. Offsets are relative to the start of `bytes`.
///
/// Two limits keep hostile input cheap: tables nest at most `maxDepth` deep (which also ends reference cycles),
/// and the total number of tables and vector elements decoded is capped by a budget proportional to the buffer
/// size, so shared or overlapping references cannot multiply the work.
package final class FlatBufferReader {
    /// The buffer being decoded.
    let bytes: [UInt8]
    /// The deepest table nesting accepted (the root table is depth 0).
    package static let maxDepth = 64
    private var workRemaining: Int

    /// Creates a reader; `workFactor` scales the element budget (units per byte of input).
    package init(bytes: [UInt8], workFactor: Int = 4) {
        self.bytes = bytes
        self.workRemaining = bytes.count * workFactor + 65_536
    }

    var count: Int { bytes.count }

    /// Spends `units` of the decoding budget.
    func charge(_ units: Int, what: String) throws(ModelFormatError) {
        workRemaining -= units
        if workRemaining < 0 { throw .workLimitExceeded(what: what) }
    }

    /// Checks that `size` bytes starting at `position` lie inside the buffer.
    func checkRange(_ position: Int, size: Int, what: String) throws(ModelFormatError) {
        guard position >= 0, size >= 0, position <= bytes.count, size <= bytes.count - position else {
            throw .truncated(what: what, offset: position)
        }
    }

    /// A little-endian integer at `position`, bounds-checked.
    func load<T: FixedWidthInteger>(_: T.Type, at position: Int, what: String) throws(ModelFormatError) -> T {
        try checkRange(position, size: MemoryLayout<T>.size, what: what)
        return loadUnchecked(T.self, at: position)
    }

    /// A little-endian integer at `position`; the caller has checked the range.
    @inline(__always)
    func loadUnchecked<T: FixedWidthInteger>(_: T.Type, at position: Int) -> T {
        T(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: T.self) })
    }

    /// Follows the `uoffset_t` stored at `position`: returns `position + offset`, checked to lie inside the buffer.
    func followOffset(at position: Int, what: String) throws(ModelFormatError) -> Int {
        guard position & 3 == 0 else { throw .misaligned(what: what, offset: position) }
        let offset = Int(try load(UInt32.self, at: position, what: what))
        let target = position + offset
        guard offset > 0, target < bytes.count else { throw .invalidOffset(what: what, offset: position) }
        return target
    }

    /// The 4-byte file identifier at bytes 4..<8, or nil when the buffer is shorter.
    var fileIdentifier: String? {
        guard bytes.count >= 8 else { return nil }
        return String(decoding: bytes[4..<8], as: UTF8.self)
    }

    /// The root table, whose offset is stored in the first four bytes.
    package func rootTable(what: String) throws(ModelFormatError) -> FlatTable {
        let position = try followOffset(at: 0, what: what)
        return try table(at: position, depth: 0, what: what)
    }

    /// The table starting at `position`, with its vtable validated.
    package func table(at position: Int, depth: Int, what: String) throws(ModelFormatError) -> FlatTable {
        guard depth <= Self.maxDepth else { throw .nestingTooDeep(what: what, depth: Self.maxDepth) }
        try charge(1, what: what)
        guard position & 3 == 0 else { throw .misaligned(what: what, offset: position) }
        let soffset = Int(try load(Int32.self, at: position, what: what))
        let vtable = position - soffset
        guard vtable >= 0, vtable & 1 == 0, vtable <= bytes.count - 4 else {
            throw .invalidVTable(what: what, offset: position)
        }
        let vtableSize = Int(loadUnchecked(UInt16.self, at: vtable))
        let objectSize = Int(loadUnchecked(UInt16.self, at: vtable + 2))
        guard vtableSize >= 4, vtableSize & 1 == 0, vtableSize <= bytes.count - vtable,
            objectSize >= 4, objectSize <= bytes.count - position
        else {
            throw .invalidVTable(what: what, offset: position)
        }
        return FlatTable(
            reader: self, position: position, vtable: vtable, vtableSize: vtableSize, objectSize: objectSize,
            depth: depth)
    }

    /// The vector whose length word is at `position`; its elements must fit in the buffer.
    package func vector(at position: Int, elementSize: Int, depth: Int, what: String) throws(ModelFormatError)
        -> FlatVector
    {
        guard position & 3 == 0 else { throw .misaligned(what: what, offset: position) }
        let length = Int(try load(UInt32.self, at: position, what: what))
        let start = position + 4
        // Lengths are capped by the remaining bytes before any multiplication, so nothing can overflow.
        guard length <= (bytes.count - start) / elementSize else { throw .truncated(what: what, offset: position) }
        return FlatVector(reader: self, start: start, count: length, elementSize: elementSize, depth: depth)
    }

    /// The zero-terminated string whose length word is at `position`, decoded as UTF-8 (invalid sequences become
    /// U+FFFD).
    package func string(at position: Int, what: String) throws(ModelFormatError) -> String {
        guard position & 3 == 0 else { throw .misaligned(what: what, offset: position) }
        let length = Int(try load(UInt32.self, at: position, what: what))
        let start = position + 4
        guard length < bytes.count - start else { throw .unterminatedString(what: what, offset: position) }
        guard bytes[start + length] == 0 else { throw .unterminatedString(what: what, offset: position) }
        try charge(length, what: what)
        return String(decoding: bytes[start..<(start + length)], as: UTF8.self)
    }
}
