import PureVisionTFLite
import Testing

/// Hostile and damaged input: every case must throw or parse, never crash, hang or allocate without bound.
struct MalformedInputTests {
    @Test(arguments: [0, 1, 4, 7, 8, 11])
    func tinyInputsThrow(length: Int) {
        #expect(throws: ModelFormatError.self) { try TFLiteModel(bytes: [UInt8](repeating: 0, count: length)) }
    }

    @Test func truncationsAtManyLengthsThrow() throws {
        let bytes = try TestModels.bytes("face_detection_short_range.tflite")
        let original = try TFLiteModel(bytes: bytes)
        var lengths = Array(stride(from: 0, to: bytes.count, by: 997))
        lengths += [bytes.count - 1, bytes.count / 2, 64, 65]
        for length in lengths {
            do {
                let model = try TFLiteModel(bytes: Array(bytes.prefix(length)))
                // Only a cut inside trailing bytes the flatbuffer does not reference may still parse.
                #expect(model.subgraphs[0].operators.count == original.subgraphs[0].operators.count)
            } catch {
                continue
            }
        }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<300 {
            let count = Int.random(in: 0..<4096, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if count >= 8, Bool.random(using: &generator) { bytes.replaceSubrange(4..<8, with: Array("TFL3".utf8)) }
            _ = try? TFLiteModel(bytes: bytes)
            _ = try? ModelMetadata(bytes: bytes)
        }
    }

    /// ≥ 1,000 seeded mutations of a real model, aimed at the structural bytes (not at weight data).
    @Test func mutatedRealModelNeverCrashes() throws {
        let bytes = try TestModels.bytes("face_detection_short_range.tflite")
        let original = try TFLiteModel(bytes: bytes)
        var isData = [Bool](repeating: false, count: bytes.count)
        for location in original.buffers where location.count > 64 {
            for index in location.range { isData[index] = true }
        }
        let structural = bytes.indices.filter { !isData[$0] }
        try #require(structural.count > 1000)

        var generator = SeededGenerator(seed: 0x5EED)
        var rejected = 0
        let variants = 1200
        for variant in 0..<variants {
            var mutated = bytes
            switch variant % 4 {
            case 0:
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let index = structural.randomElement(using: &generator)!
                    mutated[index] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
                }
            case 1:
                let index = structural.randomElement(using: &generator)! & ~3
                let value: UInt32 = [0, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, UInt32(bytes.count), 4]
                    .randomElement(using: &generator)!
                for offset in 0..<4 where index + offset < mutated.count {
                    mutated[index + offset] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(offset)))
                }
            case 2:
                for _ in 0..<Int.random(in: 1...16, using: &generator) {
                    mutated[structural.randomElement(using: &generator)!] = UInt8.random(in: 0...255, using: &generator)
                }
            default:
                let index = structural.randomElement(using: &generator)!
                mutated[index] = UInt8.random(in: 0...255, using: &generator)
                mutated.removeLast(Int.random(in: 0..<(bytes.count / 2), using: &generator))
            }
            do {
                let model = try TFLiteModel(bytes: mutated)
                _ = try? model.modelMetadata()
                _ = model.associatedFiles()
                for graph in model.subgraphs {
                    for tensor in graph.tensors { #expect(model.bufferData(tensor.bufferIndex) != nil) }
                    for op in graph.operators { _ = model.operatorCode(of: op) }
                }
            } catch {
                rejected += 1
            }
        }
        #expect(rejected > 0)
        #expect(rejected < variants)
    }

    @Test func badIdentifierReportedWhenRootDoesNotParse() {
        var writer = ByteWriter(count: 16)
        writer.put(UInt32(0xFFFF_FF00), at: 0)
        writer.put("ABCD", at: 4)
        #expect(throws: ModelFormatError.badIdentifier(expected: "TFL3", found: "ABCD")) {
            try TFLiteModel(bytes: writer.bytes)
        }
    }

    /// Root `Model` table with the given fields (id → inline 4-byte value or offset target), followed by `body`.
    /// Layout: root offset, "TFL3", vtable at 8, table at 8 + vtable size (4-aligned).
    static func model(fields: [Int: (isOffset: Bool, value: Int)], bodySize: Int, body: (inout ByteWriter, Int) -> Void)
        -> [UInt8]
    {
        let maxID = fields.keys.max() ?? 0
        let vtableSize = 4 + 2 * (maxID + 1)
        let table = (8 + vtableSize + 3) & ~3
        let objectSize = 4 + 4 * (maxID + 1)
        let bodyStart = table + objectSize
        var writer = ByteWriter(count: bodyStart + bodySize)
        writer.offset(at: 0, to: table)
        writer.put("TFL3", at: 4)
        writer.put(UInt16(vtableSize), at: 8)
        writer.put(UInt16(objectSize), at: 10)
        writer.put(Int32(table - 8), at: table)
        for (id, field) in fields {
            let slot = 4 + 4 * id
            writer.put(UInt16(slot), at: 12 + 2 * id)
            if field.isOffset {
                writer.offset(at: table + slot, to: bodyStart + field.value)
            } else {
                writer.put(UInt32(field.value), at: table + slot)
            }
        }
        body(&writer, bodyStart)
        return writer.bytes
    }

    /// Refused from the length field alone (no attempt to read or allocate 1 G elements); a generous time limit
    /// catches a hang, the time itself belongs to no unit test.
    @Test(.timeLimit(.minutes(1))) func hugeVectorLengthIsRejectedQuickly() {
        let bytes = Self.model(fields: [0: (false, 3), 2: (true, 0)], bodySize: 8) { writer, body in
            writer.put(UInt32(0x3FFF_FFFF), at: body)
        }
        #expect(throws: ModelFormatError.truncated(what: "Model.subgraphs", offset: bytes.count - 8)) {
            try TFLiteModel(bytes: bytes)
        }
    }

    @Test func unsupportedVersion() {
        let bytes = Self.model(fields: [0: (false, 2)], bodySize: 0) { _, _ in }
        #expect(throws: ModelFormatError.unsupportedSchemaVersion(2)) { try TFLiteModel(bytes: bytes) }
    }

    /// K subgraph offsets all pointing at one subgraph whose K tensor offsets all point at one tensor: K² work from
    /// O(K) bytes. The work budget must stop it.
    @Test(.timeLimit(.minutes(1))) func sharedReferencesHitTheWorkLimit() {
        let k = 20_000
        // body: [subgraphs vector][buffers vector (1)][subgraph vtable][subgraph][tensors vector][empty vtable+table]
        let subgraphs = 0
        let buffers = 4 + 4 * k
        let subgraphVTable = buffers + 8
        let subgraph = subgraphVTable + 8
        let tensors = subgraph + 8
        let emptyVTable = tensors + 4 + 4 * k
        let emptyTable = emptyVTable + 4
        let bytes = Self.model(
            fields: [0: (false, 3), 2: (true, subgraphs), 4: (true, buffers)], bodySize: emptyTable + 4
        ) { writer, body in
            writer.put(UInt32(k), at: body + subgraphs)
            for index in 0..<k { writer.offset(at: body + subgraphs + 4 + 4 * index, to: body + subgraph) }
            writer.put(UInt32(1), at: body + buffers)
            writer.offset(at: body + buffers + 4, to: body + emptyTable)
            writer.put(UInt16(6), at: body + subgraphVTable)
            writer.put(UInt16(8), at: body + subgraphVTable + 2)
            writer.put(UInt16(4), at: body + subgraphVTable + 4)
            writer.put(Int32(8), at: body + subgraph)
            writer.offset(at: body + subgraph + 4, to: body + tensors)
            writer.put(UInt32(k), at: body + tensors)
            for index in 0..<k { writer.offset(at: body + tensors + 4 + 4 * index, to: body + emptyTable) }
            writer.put(UInt16(4), at: body + emptyVTable)
            writer.put(UInt16(4), at: body + emptyVTable + 2)
            writer.put(Int32(4), at: body + emptyTable)
        }
        #expect {
            try TFLiteModel(bytes: bytes)
        } throws: { error in
            guard case .workLimitExceeded = (error as? ModelFormatError)?.underlying else { return false }
            return true
        }
    }

    /// A chain of tables, each one's field 0 pointing at the next: the reader stops at its depth cap.
    @Test func deepNestingIsCapped() throws {
        let depth = 100
        // Each link: vtable (6 bytes, padded to 8) then table (soffset + uoffset = 8 bytes).
        var writer = ByteWriter(count: 8 + 16 * depth + 8)
        writer.offset(at: 0, to: 8 + 8)
        for link in 0..<depth {
            let vtable = 8 + 16 * link
            let table = vtable + 8
            writer.put(UInt16(6), at: vtable)
            writer.put(UInt16(8), at: vtable + 2)
            writer.put(UInt16(4), at: vtable + 4)
            writer.put(Int32(8), at: table)
            writer.offset(at: table + 4, to: table + 16)
        }
        let reader = FlatBufferReader(bytes: writer.bytes)
        var table: FlatTable? = try reader.rootTable(what: "chain")
        var reached = 0
        #expect(throws: ModelFormatError.nestingTooDeep(what: "link", depth: FlatBufferReader.maxDepth)) {
            while let current = table {
                table = try current.table(0, what: "link")
                reached += 1
            }
        }
        #expect(reached == FlatBufferReader.maxDepth)
    }

    @Test func unterminatedStringIsRejected() throws {
        // Root table with field 0 = string "abc" whose terminator is overwritten.
        var writer = ByteWriter(count: 35)
        writer.offset(at: 0, to: 16)
        writer.put(UInt16(6), at: 8)
        writer.put(UInt16(8), at: 10)
        writer.put(UInt16(4), at: 12)
        writer.put(Int32(8), at: 16)
        writer.offset(at: 20, to: 24)
        writer.put(UInt32(7), at: 24)
        writer.put("abcdefg", at: 28)
        let reader = FlatBufferReader(bytes: writer.bytes)
        let root = try reader.rootTable(what: "root")
        #expect(throws: ModelFormatError.unterminatedString(what: "name", offset: 24)) {
            try root.string(0, what: "name")
        }
        writer.put(UInt32(2), at: 24)
        writer.put(UInt8(0), at: 30)
        #expect(try FlatBufferReader(bytes: writer.bytes).rootTable(what: "root").string(0, what: "name") == "ab")
    }

    @Test func bogusVTableSizesAreRejected() throws {
        var writer = ByteWriter(count: 24)
        writer.offset(at: 0, to: 16)
        writer.put(UInt16(6), at: 8)
        writer.put(UInt16(200), at: 10)  // object size past the end
        writer.put(Int32(8), at: 16)
        #expect(throws: ModelFormatError.invalidVTable(what: "root", offset: 16)) {
            try FlatBufferReader(bytes: writer.bytes).rootTable(what: "root")
        }
        writer.put(UInt16(8), at: 10)
        writer.put(UInt16(8), at: 12)  // field 0 at offset 8 with object size 8: past the object
        let root = try FlatBufferReader(bytes: writer.bytes).rootTable(what: "root")
        #expect(throws: ModelFormatError.invalidOffset(what: "f", offset: 12)) {
            try root.integer(0, default: UInt32(0), what: "f")
        }
        writer.put(Int32(-100), at: 16)  // vtable past the end
        #expect(throws: ModelFormatError.invalidVTable(what: "root", offset: 16)) {
            try FlatBufferReader(bytes: writer.bytes).rootTable(what: "root")
        }
    }

    @Test func invalidCrossReferenceCarriesContext() throws {
        // A valid model whose only operator's output names tensor 5 of a subgraph with none.
        var bytes = try TestModels.bytes("face_detection_short_range.tflite")
        let model = try TFLiteModel(bytes: bytes)
        let graph = model.subgraphs[0]
        // Corrupt the subgraph's first input index (found by value) to an out-of-range tensor.
        let reader = FlatBufferReader(bytes: bytes)
        let root = try reader.rootTable(what: "Model")
        let subgraph = try #require(try root.tables(2, what: "subgraphs").first)
        let inputs = try #require(try subgraph.vector(1, elementSize: 4, what: "inputs"))
        bytes.replaceSubrange(inputs.start..<(inputs.start + 4), with: [0x10, 0x27, 0, 0])  // 10_000
        #expect(
            throws: ModelFormatError.context(
                "subgraph 0", .invalidReference(what: "subgraph input 0", index: 10_000, count: graph.tensors.count))
        ) {
            try TFLiteModel(bytes: bytes)
        }
    }

    @Test func errorDescriptionsAreOneLine() {
        let errors: [ModelFormatError] = [
            .truncated(what: "Model.buffers", offset: 12),
            .context("subgraph 0 tensor 3", .invalidReference(what: "buffer", index: 9, count: 4)),
            .missingZipEntry("x", available: ["a", "b"]),
            .zipChecksumMismatch(name: "a", expected: 1, actual: 0xABCDEF),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"))
            #expect(!error.description.isEmpty)
        }
        #expect(
            ModelFormatError.zipChecksumMismatch(name: "a", expected: 1, actual: 0xABCDEF).description
                == "zip entry a: CRC-32 0x00abcdef does not match the recorded 0x00000001")
    }
}
