/// The fields of a `Model` root table, decoded and cross-checked.
///
/// Field ids follow `tensorflow/compiler/mlir/lite/schema/schema.fbs` (a union takes two ids: type, value).
struct DecodedModel {
    var version: UInt32
    var description: String?
    var operatorCodes: [OperatorCode]
    var subgraphs: [Subgraph]
    var buffers: [BufferLocation]
    var metadataEntries: [MetadataEntry]

    init(reader: FlatBufferReader) throws(ModelFormatError) {
        let model = try reader.rootTable(what: "Model")
        version = try model.integer(0, default: UInt32(0), what: "Model.version")
        guard version == TFLiteModel.schemaVersion else { throw .unsupportedSchemaVersion(version) }

        var codes: [OperatorCode] = []
        for (index, table) in try model.tables(1, what: "Model.operator_codes").enumerated() {
            codes.append(
                try withContext("operator code \(index)") { () throws(ModelFormatError) in
                    try Self.operatorCode(table)
                })
        }
        operatorCodes = codes
        description = try model.string(3, what: "Model.description")

        var locations: [BufferLocation] = []
        for (index, table) in try model.tables(4, what: "Model.buffers").enumerated() {
            locations.append(
                try withContext("buffer \(index)") { () throws(ModelFormatError) in
                    try Self.buffer(table, fileSize: reader.count)
                })
        }
        buffers = locations

        var entries: [MetadataEntry] = []
        for (index, table) in try model.tables(6, what: "Model.metadata").enumerated() {
            let name = try table.string(0, what: "Metadata.name") ?? ""
            let bufferIndex = Int(try table.integer(1, default: UInt32(0), what: "Metadata.buffer"))
            guard bufferIndex < locations.count else {
                throw .invalidReference(
                    what: "metadata \(index) '\(name)' buffer", index: bufferIndex,
                    count: locations.count)
            }
            entries.append(MetadataEntry(name: name, bufferIndex: bufferIndex))
        }
        metadataEntries = entries

        var graphs: [Subgraph] = []
        for (index, table) in try model.tables(2, what: "Model.subgraphs").enumerated() {
            graphs.append(
                try withContext("subgraph \(index)") { () throws(ModelFormatError) in
                    try Self.subgraph(table, reader: reader, codes: codes, bufferCount: locations.count)
                })
        }
        subgraphs = graphs
    }

    private static func operatorCode(_ table: FlatTable) throws(ModelFormatError) -> OperatorCode {
        let deprecated = try table.integer(0, default: Int8(0), what: "OperatorCode.deprecated_builtin_code")
        let extended = try table.integer(3, default: Int32(0), what: "OperatorCode.builtin_code")
        return OperatorCode(
            builtin: BuiltinOperator(rawValue: max(Int32(deprecated), extended)),
            customName: try table.string(1, what: "OperatorCode.custom_code"),
            version: try table.integer(2, default: Int32(1), what: "OperatorCode.version"))
    }

    /// A location outside the flatbuffer (`offset` > 1, as the schema defines), else the inline `data` vector.
    private static func buffer(_ table: FlatTable, fileSize: Int) throws(ModelFormatError) -> BufferLocation {
        let offset = try table.integer(1, default: UInt64(0), what: "Buffer.offset")
        if offset > 1 {
            let size = try table.integer(2, default: UInt64(0), what: "Buffer.size")
            guard offset <= UInt64(fileSize), size <= UInt64(fileSize) - offset else {
                throw .invalidOffset(what: "Buffer.offset/size (\(offset)+\(size))", offset: table.position)
            }
            return BufferLocation(range: Int(offset)..<Int(offset + size), isExternal: true)
        }
        guard let data = try table.vector(0, elementSize: 1, what: "Buffer.data") else {
            return BufferLocation(range: 0..<0, isExternal: false)
        }
        return BufferLocation(range: data.byteRange, isExternal: false)
    }

    private static func subgraph(
        _ table: FlatTable, reader: FlatBufferReader, codes: [OperatorCode], bufferCount: Int
    ) throws(ModelFormatError) -> Subgraph {
        var tensors: [TensorInfo] = []
        for (index, tensorTable) in try table.tables(0, what: "SubGraph.tensors").enumerated() {
            let tensor = try withContext("tensor \(index)") { () throws(ModelFormatError) in
                try Self.tensor(tensorTable)
            }
            guard tensor.bufferIndex < bufferCount else {
                throw .invalidReference(
                    what: "tensor \(index) '\(tensor.name)' buffer", index: tensor.bufferIndex,
                    count: bufferCount)
            }
            tensors.append(tensor)
        }
        let tensorCount = tensors.count
        let inputs = try table.ints(1, what: "SubGraph.inputs") ?? []
        let outputs = try table.ints(2, what: "SubGraph.outputs") ?? []
        for (kind, list) in [("input", inputs), ("output", outputs)] {
            for (position, index) in list.enumerated() where !(0..<tensorCount).contains(index) {
                throw .invalidReference(what: "subgraph \(kind) \(position)", index: index, count: tensorCount)
            }
        }

        var operators: [Operator] = []
        for (index, opTable) in try table.tables(3, what: "SubGraph.operators").enumerated() {
            let op = try withContext("operator \(index)") { () throws(ModelFormatError) in
                try Self.operator(opTable, reader: reader, codes: codes)
            }
            let name = codes[op.opcodeIndex].builtin.name
            for (position, tensor) in op.inputs.enumerated() where !(-1..<tensorCount).contains(tensor) {
                throw .invalidReference(
                    what: "operator \(index) (\(name)) input \(position)", index: tensor,
                    count: tensorCount)
            }
            for (position, tensor) in op.outputs.enumerated() where !(0..<tensorCount).contains(tensor) {
                throw .invalidReference(
                    what: "operator \(index) (\(name)) output \(position)", index: tensor,
                    count: tensorCount)
            }
            operators.append(op)
        }
        return Subgraph(
            name: try table.string(4, what: "SubGraph.name"), tensors: tensors, inputs: inputs, outputs: outputs,
            operators: operators)
    }

    private static func tensor(_ table: FlatTable) throws(ModelFormatError) -> TensorInfo {
        let name = try table.string(3, what: "Tensor.name") ?? ""
        return try withContext("'\(name)'") { () throws(ModelFormatError) in
            var quantization: QuantizationInfo?
            if let q = try table.table(4, what: "Tensor.quantization") {
                quantization = QuantizationInfo(
                    scales: try q.floats(2, what: "QuantizationParameters.scale") ?? [],
                    zeroPoints: try q.integers(3, as: Int64.self, what: "QuantizationParameters.zero_point") ?? [],
                    quantizedDimension: Int(try q.integer(6, default: Int32(0), what: "quantized_dimension")),
                    min: try q.floats(0, what: "QuantizationParameters.min") ?? [],
                    max: try q.floats(1, what: "QuantizationParameters.max") ?? [])
            }
            var sparsity: SparsityInfo?
            if let s = try table.table(6, what: "Tensor.sparsity") {
                sparsity = try Self.sparsity(s)
            }
            return TensorInfo(
                name: name,
                shape: try table.ints(0, what: "Tensor.shape") ?? [],
                shapeSignature: try table.ints(7, what: "Tensor.shape_signature"),
                type: try table.enumeration(1, what: "Tensor.type"),
                bufferIndex: Int(try table.integer(2, default: UInt32(0), what: "Tensor.buffer")),
                quantization: quantization,
                sparsity: sparsity,
                isVariable: try table.bool(5, default: false, what: "Tensor.is_variable"))
        }
    }

    private static func sparsity(_ table: FlatTable) throws(ModelFormatError) -> SparsityInfo {
        var dimensions: [DimensionMetadata] = []
        for (index, dim) in try table.tables(2, what: "SparsityParameters.dim_metadata").enumerated() {
            let format = try dim.integer(0, default: Int8(0), what: "DimensionMetadata.format")
            switch format {
            case 0:
                let size = try dim.integer(1, default: Int32(0), what: "DimensionMetadata.dense_size")
                dimensions.append(.dense(size: Int(size)))
            case 1:
                let segments = try sparseIndexVector(dim, unionID: 2, what: "dim_metadata \(index) array_segments")
                let indices = try sparseIndexVector(dim, unionID: 4, what: "dim_metadata \(index) array_indices")
                dimensions.append(.sparseCSR(segments: segments, indices: indices))
            default:
                throw .invalidValue(what: "dim_metadata \(index) format", value: Int64(format))
            }
        }
        return SparsityInfo(
            traversalOrder: try table.ints(0, what: "SparsityParameters.traversal_order") ?? [],
            blockMap: try table.ints(1, what: "SparsityParameters.block_map") ?? [],
            dimensionMetadata: dimensions)
    }

    /// A `SparseIndexVector` union (Int32Vector = 1, Uint16Vector = 2, Uint8Vector = 3) widened to `[Int]`.
    private static func sparseIndexVector(
        _ table: FlatTable, unionID: Int, what: String
    ) throws(ModelFormatError) -> [Int] {
        let (type, valueTable) = try table.union(unionID, what: what)
        guard let valueTable else { return [] }
        switch type {
        case 1: return try valueTable.integers(0, as: Int32.self, what: what)?.map { Int($0) } ?? []
        case 2: return try valueTable.integers(0, as: UInt16.self, what: what)?.map { Int($0) } ?? []
        case 3: return try valueTable.integers(0, as: UInt8.self, what: what)?.map { Int($0) } ?? []
        default: throw .invalidValue(what: "\(what) type", value: Int64(type))
        }
    }

    private static func `operator`(
        _ table: FlatTable, reader: FlatBufferReader, codes: [OperatorCode]
    ) throws(ModelFormatError) -> Operator {
        let opcodeIndex = Int(try table.integer(0, default: UInt32(0), what: "Operator.opcode_index"))
        guard opcodeIndex < codes.count else {
            throw .invalidReference(what: "opcode index", index: opcodeIndex, count: codes.count)
        }
        let (type, optionsTable) = try table.union(3, what: "Operator.builtin_options")
        let options: BuiltinOptions =
            if let optionsTable {
                try BuiltinOptions.decode(type: type, table: optionsTable)
            } else {
                BuiltinOptions.defaults(for: codes[opcodeIndex].builtin)
            }

        var customOptions: [UInt8]?
        let largeOffset = try table.integer(9, default: UInt64(0), what: "Operator.large_custom_options_offset")
        if largeOffset > 1 {
            let size = try table.integer(10, default: UInt64(0), what: "Operator.large_custom_options_size")
            guard largeOffset <= UInt64(reader.count), size <= UInt64(reader.count) - largeOffset else {
                throw .invalidOffset(
                    what: "Operator.large_custom_options (\(largeOffset)+\(size))",
                    offset: table.position)
            }
            try reader.charge(Int(size), what: "Operator.large_custom_options")
            customOptions = Array(reader.bytes[Int(largeOffset)..<Int(largeOffset + size)])
        } else if let vector = try table.vector(5, elementSize: 1, what: "Operator.custom_options") {
            try reader.charge(vector.count, what: "Operator.custom_options")
            customOptions = Array(reader.bytes[vector.byteRange])
        }
        return Operator(
            opcodeIndex: opcodeIndex,
            inputs: try table.ints(1, what: "Operator.inputs") ?? [],
            outputs: try table.ints(2, what: "Operator.outputs") ?? [],
            options: options,
            customOptions: customOptions)
    }
}
