/// A FlatBuffers vector whose `count × elementSize` bytes are known to lie inside the buffer.
package struct FlatVector {
    let reader: FlatBufferReader
    /// Position of element 0.
    package let start: Int
    package let count: Int
    let elementSize: Int
    /// Depth of the table holding the vector; element tables are one deeper.
    let depth: Int

    /// The byte range of the elements.
    var byteRange: Range<Int> { start..<(start + count * elementSize) }

    /// The elements as little-endian integers of the vector's element size.
    func integers<T: FixedWidthInteger>(_: T.Type, what: String) throws(ModelFormatError) -> [T] {
        precondition(MemoryLayout<T>.size == elementSize, "element size mismatch")
        try reader.charge(count, what: what)
        // `Array(unsafeUninitializedCapacity: 0)` stores its count into the shared empty-array singleton, a write
        // that the thread sanitizer reports as a race between any two threads reading models at once.
        guard count > 0 else { return [] }
        let first = start
        return reader.bytes.withUnsafeBytes { raw in
            [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                for index in 0..<count {
                    let value = raw.loadUnaligned(fromByteOffset: first + index * MemoryLayout<T>.size, as: T.self)
                    buffer[index] = T(littleEndian: value)
                }
                initialized = count
            }
        }
    }

    /// The elements as tables (each element is a `uoffset_t` relative to its own position).
    func tables(what: String) throws(ModelFormatError) -> [FlatTable] {
        try targets(what: what) { target throws(ModelFormatError) in
            try reader.table(at: target, depth: depth + 1, what: what)
        }
    }

    /// The elements as strings.
    func strings(what: String) throws(ModelFormatError) -> [String] {
        try targets(what: what) { target throws(ModelFormatError) in try reader.string(at: target, what: what) }
    }

    /// Follows each element, a `uoffset_t` relative to its own position, and reads what it points to with `read`;
    /// the elements are charged to the work limit first.
    private func targets<T>(
        what: String, _ read: (Int) throws(ModelFormatError) -> T
    ) throws(ModelFormatError) -> [T] {
        try reader.charge(count, what: what)
        var result: [T] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let target = try reader.followOffset(at: start + 4 * index, what: what)
            result.append(try read(target))
        }
        return result
    }
}
