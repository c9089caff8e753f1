/// One FlatBuffers table: a position and a validated vtable.
///
/// Field `id` is the field's declaration index in the schema, where a union occupies two ids (its type byte, then
/// its value). An absent field yields the schema default passed by the caller.
package struct FlatTable {
    let reader: FlatBufferReader
    /// Start of the table (its `soffset_t` to the vtable).
    let position: Int
    let vtable: Int
    let vtableSize: Int
    /// Size of the table's inline data, including the leading `soffset_t`.
    let objectSize: Int
    let depth: Int

    /// Absolute position of field `id` holding `size` inline bytes, or nil when the field is absent.
    func fieldPosition(_ id: Int, size: Int, what: String) throws(ModelFormatError) -> Int? {
        let entry = 4 + 2 * id
        guard entry + 2 <= vtableSize else { return nil }
        let offset = Int(reader.loadUnchecked(UInt16.self, at: vtable + entry))
        if offset == 0 { return nil }
        guard offset >= 4, offset <= objectSize - size else {
            throw .invalidOffset(what: what, offset: vtable + entry)
        }
        return position + offset
    }

    /// An integer field, or `defaultValue` when absent.
    package func integer<T: FixedWidthInteger>(_ id: Int, default defaultValue: T, what: String)
        throws(ModelFormatError) -> T
    {
        guard let at = try fieldPosition(id, size: MemoryLayout<T>.size, what: what) else { return defaultValue }
        return reader.loadUnchecked(T.self, at: at)
    }

    /// A `byte` enum field, or code 0 (the schema default of every such enum) when absent.
    func enumeration<E: SchemaByteEnum>(_ id: Int, what: String) throws(ModelFormatError) -> E {
        E(schemaCode: try integer(id, default: Int8(0), what: what))
    }

    /// A `float` field, or `defaultValue` when absent.
    func float(_ id: Int, default defaultValue: Float, what: String) throws(ModelFormatError) -> Float {
        guard let at = try fieldPosition(id, size: 4, what: what) else { return defaultValue }
        return Float(bitPattern: reader.loadUnchecked(UInt32.self, at: at))
    }

    /// A `bool` field (any non-zero byte is true), or `defaultValue` when absent.
    func bool(_ id: Int, default defaultValue: Bool, what: String) throws(ModelFormatError) -> Bool {
        guard let at = try fieldPosition(id, size: 1, what: what) else { return defaultValue }
        return reader.loadUnchecked(UInt8.self, at: at) != 0
    }

    /// The position an offset field points to, or nil when absent.
    private func target(_ id: Int, what: String) throws(ModelFormatError) -> Int? {
        guard let at = try fieldPosition(id, size: 4, what: what) else { return nil }
        return try reader.followOffset(at: at, what: what)
    }

    /// A sub-table field, or nil when absent.
    package func table(_ id: Int, what: String) throws(ModelFormatError) -> FlatTable? {
        guard let at = try target(id, what: what) else { return nil }
        return try reader.table(at: at, depth: depth + 1, what: what)
    }

    /// A string field, or nil when absent.
    package func string(_ id: Int, what: String) throws(ModelFormatError) -> String? {
        guard let at = try target(id, what: what) else { return nil }
        return try reader.string(at: at, what: what)
    }

    /// A vector field with elements of `elementSize` bytes, or nil when absent.
    package func vector(_ id: Int, elementSize: Int, what: String) throws(ModelFormatError) -> FlatVector? {
        guard let at = try target(id, what: what) else { return nil }
        return try reader.vector(at: at, elementSize: elementSize, depth: depth + 1, what: what)
    }

    /// A vector of integers, or nil when absent.
    func integers<T: FixedWidthInteger>(_ id: Int, as _: T.Type, what: String) throws(ModelFormatError) -> [T]? {
        try vector(id, elementSize: MemoryLayout<T>.size, what: what)?.integers(T.self, what: what)
    }

    /// A vector of `int` converted to `Int`, or nil when absent.
    func ints(_ id: Int, what: String) throws(ModelFormatError) -> [Int]? {
        try integers(id, as: Int32.self, what: what)?.map { Int($0) }
    }

    /// A vector of `float`, or nil when absent.
    func floats(_ id: Int, what: String) throws(ModelFormatError) -> [Float]? {
        try integers(id, as: UInt32.self, what: what)?.map { Float(bitPattern: $0) }
    }

    /// A vector of sub-tables; an absent vector is empty.
    package func tables(_ id: Int, what: String) throws(ModelFormatError) -> [FlatTable] {
        try vector(id, elementSize: 4, what: what)?.tables(what: what) ?? []
    }

    /// A union: its type code (field `id`) and, when the code is non-zero, its table (field `id + 1`).
    func union(_ id: Int, what: String) throws(ModelFormatError) -> (type: UInt8, table: FlatTable?) {
        let type = try integer(id, default: UInt8(0), what: what)
        guard type != 0 else { return (0, nil) }
        return (type, try table(id + 1, what: what))
    }
}
