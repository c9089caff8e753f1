import PureVisionTFLite
import Testing

/// Expected values were read with MediaPipe 0.10.14's `metadata_schema_py_generated.py` and Python `zipfile`.
struct ModelMetadataTests {
    @Test func efficientNetMetadataAndLabels() throws {
        let model = try TestModels.model("efficientnet_lite0.tflite")
        #expect(model.metadataEntries == [MetadataEntry(name: "TFLITE_METADATA", bufferIndex: 164)])
        let metadata = try #require(try model.modelMetadata())
        #expect(metadata.name == "ImageClassifier")
        #expect(metadata.minParserVersion == "1.0.0")
        #expect(metadata.version == nil)
        try #require(metadata.subgraphs.count == 1)
        let graph = metadata.subgraphs[0]
        try #require(graph.inputTensors.count == 1 && graph.outputTensors.count == 1)
        let input = graph.inputTensors[0]
        #expect(input.name == "image")
        #expect(input.content == .image(colorSpace: .rgb))
        #expect(input.processUnits == [.normalization(mean: [127], std: [128])])
        #expect(input.stats.max == [1.0] && input.stats.min == [-0.9921875])
        let output = graph.outputTensors[0]
        #expect(output.name == "score")
        #expect(output.content == .feature)
        #expect(
            output.associatedFiles == [
                AssociatedFile(
                    name: "labels.txt", description: "Labels for categories that the model can recognize.",
                    type: .tensorAxisLabels)
            ])

        let archive = try #require(model.associatedFiles())
        #expect(archive.names == ["labels.txt"])
        let labels = try archive.data(named: "labels.txt")
        #expect(labels.count == 10473)
        let firstLine = String(decoding: labels.prefix { $0 != 10 }, as: UTF8.self)
        #expect(firstLine == "tench")
    }

    @Test(arguments: [
        ("face_detection_short_range.tflite", "Short Range Face Detection", Float(127.5), Float(127.5)),
        ("palm_detection_full.tflite", "Multi Hand Detection", 0, 255),
    ])
    func detectorNormalization(file: String, name: String, mean: Float, std: Float) throws {
        let metadata = try #require(try TestModels.model(file).modelMetadata())
        #expect(metadata.name == name)
        let input = try #require(metadata.subgraphs.first?.inputTensors.first)
        #expect(input.processUnits == [.normalization(mean: [mean], std: [std])])
        #expect(metadata.subgraphs.first?.outputTensors.count == 2)
    }

    @Test func handLandmarkAppendedZip() throws {
        let archive = try #require(try TestModels.model("hand_landmark_full.tflite").associatedFiles())
        #expect(Array(try archive.data(named: "handedness.txt")) == Array("Left\nRight\n".utf8))
    }

    @Test func modelWithoutMetadataEntry() throws {
        let model = try TestModels.model("efficientnet_lite0_int8.tflite")
        #expect(model.metadataEntries.isEmpty)
        #expect(try model.modelMetadata() == nil)
        #expect(model.associatedFiles() == nil)
    }

    @Test func wrongIdentifierIsRejected() throws {
        let model = try TestModels.model("efficientnet_lite0.tflite")
        var bytes = Array(try #require(model.bufferData(164)))
        bytes[4] = UInt8(ascii: "X")
        #expect(throws: ModelFormatError.malformedMetadata("identifier is \"X001\", expected \"M001\"")) {
            try ModelMetadata(bytes: bytes)
        }
    }

    /// Every cut of the metadata flatbuffer before its last string's final character is refused. (The buffer ends
    /// with "ImageClassifier" and its NUL terminator, which the reader does not need, so only the full length and
    /// the cut of that NUL may parse — and then to the same metadata.)
    @Test func truncatedMetadataThrows() throws {
        let model = try TestModels.model("efficientnet_lite0.tflite")
        let bytes = Array(try #require(model.bufferData(164)))
        let full = String(describing: try ModelMetadata(bytes: bytes))
        #expect(bytes.count == 676 && bytes.last == 0)
        for length in Array(0..<16) + Array(stride(from: 16, to: bytes.count - 1, by: 7)) + [bytes.count - 2] {
            #expect(throws: ModelFormatError.self, "metadata cut to \(length) of \(bytes.count) bytes parsed") {
                try ModelMetadata(bytes: Array(bytes.prefix(length)))
            }
        }
        if let parsed = try? ModelMetadata(bytes: Array(bytes.dropLast())) {
            #expect(String(describing: parsed) == full, "the cut of the final NUL parsed to other metadata")
        }
    }
}
