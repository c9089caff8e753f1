/// Where one `Model.buffers` entry keeps its bytes inside the model file.
///
/// A buffer stores its data either inline (the `data` vector) or, in files written for models over 2 GB, through
/// `offset`/`size` fields relative to the start of the file; the schema treats `offset` ≤ 1 as "not set".
public struct BufferLocation: Sendable, Hashable {
    /// The byte range of the data in `TFLiteModel.bytes`; empty when the buffer holds no data.
    public var range: Range<Int>
    /// True when the data lives outside the flatbuffer (`offset`/`size` fields), false when inline or empty.
    public var isExternal: Bool

    /// Creates the value from its fields.
    public init(range: Range<Int>, isExternal: Bool) {
        self.range = range
        self.isExternal = isExternal
    }

    /// The number of data bytes.
    public var count: Int { range.count }
}
