/// MediaPipe / TFLite Support model metadata: the `TFLITE_METADATA` buffer of a model (identifier `"M001"`).
///
/// Field ids follow `mediapipe/tasks/metadata/metadata_schema.fbs`.
public struct ModelMetadata: Sendable {
    /// The name, when recorded.
    public var name: String?
    /// A human-readable description, when recorded.
    public var description: String?
    /// The model version, when recorded.
    public var version: String?
    /// The model author, when recorded.
    public var author: String?
    /// The model license, when recorded.
    public var license: String?
    /// Files (labels, vocabularies…) that apply to the whole model; their bytes are in the appended ZIP.
    public var associatedFiles: [AssociatedFile]
    /// One entry per model subgraph, in order.
    public var subgraphs: [SubGraphMetadata]
    /// The oldest metadata parser version that understands this metadata.
    public var minParserVersion: String?

    /// The metadata flatbuffer's file identifier.
    public static let fileIdentifier = "M001"

    /// Decodes a metadata flatbuffer.
    ///
    /// - Throws: `.malformedMetadata` for a wrong identifier, or any structural error wrapped in
    ///   `.context("TFLITE_METADATA", …)`.
    public init(bytes: [UInt8]) throws(ModelFormatError) {
        let reader = FlatBufferReader(bytes: bytes)
        guard let identifier = reader.fileIdentifier, identifier == Self.fileIdentifier else {
            throw .malformedMetadata("identifier is \"\(reader.fileIdentifier ?? "")\", expected \"M001\"")
        }
        self = try withContext("TFLITE_METADATA") { () throws(ModelFormatError) in
            let root = try reader.rootTable(what: "ModelMetadata")
            return ModelMetadata(
                name: try root.string(0, what: "ModelMetadata.name"),
                description: try root.string(1, what: "ModelMetadata.description"),
                version: try root.string(2, what: "ModelMetadata.version"),
                author: try root.string(4, what: "ModelMetadata.author"),
                license: try root.string(5, what: "ModelMetadata.license"),
                associatedFiles: try AssociatedFile.list(root, 6),
                subgraphs: try root.tables(3, what: "ModelMetadata.subgraph_metadata").map(SubGraphMetadata.init),
                minParserVersion: try root.string(7, what: "ModelMetadata.min_parser_version"))
        }
    }

    /// Creates the value from its fields.
    public init(
        name: String? = nil, description: String? = nil, version: String? = nil, author: String? = nil,
        license: String? = nil, associatedFiles: [AssociatedFile] = [], subgraphs: [SubGraphMetadata] = [],
        minParserVersion: String? = nil
    ) {
        self.name = name
        self.description = description
        self.version = version
        self.author = author
        self.license = license
        self.associatedFiles = associatedFiles
        self.subgraphs = subgraphs
        self.minParserVersion = minParserVersion
    }
}

/// Metadata of one subgraph: its tensors and the pre/post-processing shared by them.
public struct SubGraphMetadata: Sendable {
    /// The name, when recorded.
    public var name: String?
    /// One entry per subgraph input, in input order.
    public var inputTensors: [TensorMetadata]
    /// One entry per subgraph output, in output order.
    public var outputTensors: [TensorMetadata]
    /// Processing shared by all inputs.
    public var inputProcessUnits: [ProcessUnit]
    /// Processing shared by all outputs.
    public var outputProcessUnits: [ProcessUnit]
    /// Task-specific entries (e.g. MediaPipe's `SEGMENTER_METADATA`), in order.
    public var customMetadata: [CustomMetadata] = []

    init(_ table: FlatTable) throws(ModelFormatError) {
        name = try table.string(0, what: "SubGraphMetadata.name")
        inputTensors = try table.tables(2, what: "input_tensor_metadata").map(TensorMetadata.init)
        outputTensors = try table.tables(3, what: "output_tensor_metadata").map(TensorMetadata.init)
        inputProcessUnits = try table.tables(5, what: "input_process_units").map(ProcessUnit.init)
        outputProcessUnits = try table.tables(6, what: "output_process_units").map(ProcessUnit.init)
        customMetadata = try table.tables(9, what: "SubGraphMetadata.custom_metadata").map(CustomMetadata.init)
    }
}

/// Metadata of one input or output tensor.
public struct TensorMetadata: Sendable {
    /// The name, when recorded.
    public var name: String?
    /// A human-readable description, when recorded.
    public var description: String?
    /// What the tensor holds (image, features, boxes, audio).
    public var content: ContentProperties?
    /// The box layout when `content` is `.boundingBox` and the metadata records it.
    public var boundingBoxProperties: BoundingBoxProperties?
    /// Processing to apply, e.g. input normalization.
    public var processUnits: [ProcessUnit]
    /// Per-channel value ranges (empty arrays when absent).
    public var stats: (max: [Float], min: [Float])
    /// Files for this tensor, e.g. the labels of a classifier's output axis.
    public var associatedFiles: [AssociatedFile]

    init(_ table: FlatTable) throws(ModelFormatError) {
        name = try table.string(0, what: "TensorMetadata.name")
        description = try table.string(1, what: "TensorMetadata.description")
        content = nil
        boundingBoxProperties = nil
        if let contentTable = try table.table(3, what: "TensorMetadata.content") {
            let (type, properties) = try contentTable.union(0, what: "Content.content_properties")
            switch type {
            case 0: content = nil
            case 1: content = .feature
            case 2:
                let colorSpace: ColorSpaceType? = try properties?.enumeration(0, what: "ImageProperties.color_space")
                content = .image(colorSpace: colorSpace ?? .unknown)
            case 3:
                content = .boundingBox
                boundingBoxProperties = try properties.map(BoundingBoxProperties.init)
            case 4: content = .audio
            default: content = .other(typeCode: type)
            }
        }
        processUnits = try table.tables(4, what: "TensorMetadata.process_units").map(ProcessUnit.init)
        if let statsTable = try table.table(5, what: "TensorMetadata.stats") {
            stats = (
                max: try statsTable.floats(0, what: "Stats.max") ?? [],
                min: try statsTable.floats(1, what: "Stats.min") ?? []
            )
        } else {
            stats = (max: [], min: [])
        }
        associatedFiles = try AssociatedFile.list(table, 6)
    }
}

/// What a tensor holds (metadata union `ContentProperties`).
public enum ContentProperties: Sendable, Hashable {
    case image(colorSpace: ColorSpaceType)
    case feature
    case boundingBox
    case audio
    /// A union member this reader does not know; `typeCode` is its union code.
    case other(typeCode: UInt8)
}

/// The color space of an image tensor.
public enum ColorSpaceType: Sendable, Hashable, SchemaByteEnum {
    case unknown, rgb, grayscale
    /// A code this reader has no name for.
    case other(Int8)

    static let byCode: [ColorSpaceType] = [.unknown, .rgb, .grayscale]

    static func unnamed(_ code: Int8) -> ColorSpaceType { .other(code) }

    /// Creates the color space for a schema code.
    public init(rawValue: Int8) { self.init(schemaCode: rawValue) }
}
