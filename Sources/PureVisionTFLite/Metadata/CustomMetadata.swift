/// One `SubGraphMetadata.custom_metadata` entry: a name and opaque bytes (usually a flatbuffer of its own).
public struct CustomMetadata: Sendable, Hashable {
    /// The entry's name, e.g. `"SEGMENTER_METADATA"`.
    public var name: String?
    /// The entry's bytes.
    public var data: [UInt8]

    /// Creates the value from its fields.
    public init(name: String?, data: [UInt8]) {
        self.name = name
        self.data = data
    }

    init(_ table: FlatTable) throws(ModelFormatError) {
        name = try table.string(0, what: "CustomMetadata.name")
        if let vector = try table.vector(1, elementSize: 1, what: "CustomMetadata.data") {
            try table.reader.charge(vector.count, what: "CustomMetadata.data")
            data = Array(table.reader.bytes[vector.byteRange])
        } else {
            data = []
        }
    }
}

/// The activation MediaPipe's ImageSegmenter applies to a model's output, from the `SEGMENTER_METADATA` custom
/// metadata (flatbuffer `ImageSegmenterOptions`, identifier `"V001"`,
/// `mediapipe/tasks/metadata/image_segmenter_metadata_schema.fbs`).
public enum SegmenterActivation: Int8, Sendable, Hashable {
    /// The output is used as it is.
    case none = 0
    /// `1 / (1 + e^−x)` per value.
    case sigmoid = 1
    /// Softmax over the classes of each pixel.
    case softmax = 2

    /// The custom metadata entry's name.
    public static let metadataName = "SEGMENTER_METADATA"
    /// The entry's flatbuffer identifier.
    public static let fileIdentifier = "V001"

    /// Decodes an `ImageSegmenterOptions` flatbuffer (field 0: `activation`, a byte, default NONE).
    /// - Throws: `.malformedMetadata` for a wrong identifier or an activation value outside 0…2, or a structural
    ///   error in the buffer.
    public init(segmenterOptions bytes: [UInt8]) throws(ModelFormatError) {
        let reader = FlatBufferReader(bytes: bytes)
        guard reader.fileIdentifier == Self.fileIdentifier else {
            throw .malformedMetadata(
                "\(Self.metadataName) identifier is \"\(reader.fileIdentifier ?? "")\", expected \"V001\"")
        }
        let root = try reader.rootTable(what: "ImageSegmenterOptions")
        let code = try root.integer(0, default: Int8(0), what: "ImageSegmenterOptions.activation")
        guard let activation = SegmenterActivation(rawValue: code) else {
            throw .malformedMetadata("\(Self.metadataName) has unknown activation \(code)")
        }
        self = activation
    }
}
