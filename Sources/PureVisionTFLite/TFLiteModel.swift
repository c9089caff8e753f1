/// A parsed and validated `.tflite` model: the operator graph as values, with constant data left in `bytes`.
///
/// Parsing checks the FlatBuffers structure (bounds, vtables, nesting, work) and every cross reference: tensor
/// buffer indices, operator tensor indices (−1 allowed for optional inputs), opcode indices, subgraph
/// inputs/outputs and metadata buffer indices. Nothing is executed.
public struct TFLiteModel: Sendable {
    /// The whole file; buffers and the appended ZIP refer to ranges of it.
    public let bytes: [UInt8]
    /// The schema version (always 3 for an accepted model).
    public var version: UInt32
    /// The model description string, when present.
    public var modelDescription: String?
    /// The operator codes; `Operator.opcodeIndex` indexes this array.
    public var operatorCodes: [OperatorCode]
    /// The subgraphs; subgraph 0 is the main graph.
    public var subgraphs: [Subgraph]
    /// Where each buffer's data lives in `bytes`; `TensorInfo.bufferIndex` indexes this array.
    public var buffers: [BufferLocation]
    /// `Model.metadata`: named entries that point at buffers.
    public var metadataEntries: [MetadataEntry]

    /// The identifier of a TFLite flatbuffer, at bytes 4..<8.
    public static let fileIdentifier = "TFL3"
    /// The only schema version accepted.
    public static let schemaVersion: UInt32 = 3

    /// Parses and validates a whole `.tflite` file. The bytes are kept (buffers reference them).
    ///
    /// A file whose bytes 4..<8 are not `"TFL3"` is accepted only when its root still parses as a valid model
    /// (very old converters wrote no identifier); otherwise `.badIdentifier` is thrown.
    public init(bytes: [UInt8]) throws(ModelFormatError) {
        self.bytes = bytes
        guard bytes.count >= 8 else { throw .truncated(what: "model header", offset: 0) }
        let reader = FlatBufferReader(bytes: bytes)
        let identifier = reader.fileIdentifier ?? ""
        let decoded: DecodedModel
        do {
            decoded = try DecodedModel(reader: reader)
        } catch {
            if identifier != Self.fileIdentifier {
                throw .badIdentifier(expected: Self.fileIdentifier, found: identifier)
            }
            throw error
        }
        version = decoded.version
        modelDescription = decoded.description
        operatorCodes = decoded.operatorCodes
        subgraphs = decoded.subgraphs
        buffers = decoded.buffers
        metadataEntries = decoded.metadataEntries
    }

    /// Reads and parses the `.tflite` file at `path`.
    ///
    /// - Throws: `.fileNotFound` for a missing file, or any parse error.
    public init(contentsOf path: String) throws(ModelFormatError) {
        try self.init(bytes: try readFileBytes(path))
    }

    /// The data of buffer `index`, or nil when `index` is not a buffer.
    public func bufferData(_ index: Int) -> ArraySlice<UInt8>? {
        guard buffers.indices.contains(index) else { return nil }
        return bytes[buffers[index].range]
    }

    /// The name of the metadata entry holding MediaPipe/TFLite Support metadata.
    public static let metadataEntryName = "TFLITE_METADATA"

    /// The TFLITE_METADATA buffer decoded (identifier "M001"), or nil when the model has none.
    ///
    /// - Throws: `.malformedMetadata` (possibly in `.context`) when the buffer is not valid metadata.
    public func modelMetadata() throws(ModelFormatError) -> ModelMetadata? {
        guard let entry = metadataEntries.first(where: { $0.name == Self.metadataEntryName }),
            let data = bufferData(entry.bufferIndex)
        else { return nil }
        return try ModelMetadata(bytes: Array(data))
    }

    /// The ZIP archive appended after the flatbuffer (MediaPipe's associated files, e.g. `labels.txt`), or nil
    /// when the file carries none or the trailing bytes are not a valid archive.
    public func associatedFiles() -> ZipArchive? {
        try? ZipArchive(bytes: bytes)
    }

    /// The operator code of `op`; valid for every operator of this model (indices are checked at parse time).
    public func operatorCode(of op: Operator) -> OperatorCode {
        operatorCodes[op.opcodeIndex]
    }
}

/// One `Model.metadata` entry: a name and the buffer holding its bytes.
public struct MetadataEntry: Sendable, Hashable {
    /// The entry name, e.g. `"TFLITE_METADATA"`.
    public var name: String
    /// Index into `TFLiteModel.buffers`, validated.
    public var bufferIndex: Int

    /// Creates the value from its fields.
    public init(name: String, bufferIndex: Int) {
        self.name = name
        self.bufferIndex = bufferIndex
    }
}
