import PureVisionCore
import PureVisionTFLite
import Testing

/// Facts below were read from the files with LiteRT 2.3.0's `schema_py_generated.py`.
struct TFLiteModelTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        var operatorCount: Int
        var tensorCount: Int
        var bufferCount: Int
        var opCounts: [String: Int]
        var inputs: [(name: String, shape: [Int])]
        var outputs: [(name: String, shape: [Int])]
        var description: String { file }
    }

    static let expectations: [Expectation] = [
        Expectation(
            file: "palm_detection_full.tflite", operatorCount: 272, tensorCount: 413, bufferCount: 286,
            opCounts: [
                "DEQUANTIZE": 133, "CONV_2D": 35, "PRELU": 31, "DEPTHWISE_CONV_2D": 28, "ADD": 30,
                "MAX_POOL_2D": 4, "PAD": 3, "RESIZE_BILINEAR": 2, "RESHAPE": 4, "CONCATENATION": 2,
            ],
            inputs: [("input_1", [1, 192, 192, 3])],
            outputs: [("Identity", [1, 2016, 18]), ("Identity_1", [1, 2016, 1])]),
        Expectation(
            file: "hand_landmark_full.tflite", operatorCount: 165, tensorCount: 269, bufferCount: 173,
            opCounts: [
                "DEQUANTIZE": 102, "CONV_2D": 31, "DEPTHWISE_CONV_2D": 16, "ADD": 9, "MEAN": 1,
                "FULLY_CONNECTED": 4, "LOGISTIC": 2,
            ],
            inputs: [("input_1", [1, 224, 224, 3])],
            outputs: [
                ("Identity", [1, 63]), ("Identity_1", [1, 1]), ("Identity_2", [1, 1]), ("Identity_3", [1, 63]),
            ]),
        Expectation(
            file: "face_detection_short_range.tflite", operatorCount: 164, tensorCount: 250, bufferCount: 89,
            opCounts: [
                "DEQUANTIZE": 74, "CONV_2D": 21, "RELU": 17, "DEPTHWISE_CONV_2D": 16, "ADD": 16, "PAD": 11,
                "MAX_POOL_2D": 3, "RESHAPE": 4, "CONCATENATION": 2,
            ],
            inputs: [("input", [1, 128, 128, 3])],
            outputs: [("regressors", [1, 896, 16]), ("classificators", [1, 896, 1])]),
        Expectation(
            file: "face_detection_full_range_sparse.tflite", operatorCount: 388, tensorCount: 577, bufferCount: 582,
            opCounts: [
                "PAD": 43, "DEQUANTIZE": 182, "CONV_2D": 49, "DEPTHWISE_CONV_2D": 42, "DENSIFY": 46, "ADD": 19,
                "RESIZE_BILINEAR": 3, "DEPTH_TO_SPACE": 2, "RESHAPE": 2,
            ],
            inputs: [("input_1", [1, 192, 192, 3])],
            outputs: [("Identity", [1, 2304, 16]), ("Identity_1", [1, 2304, 1])]),
        Expectation(
            file: "face_landmark.tflite", operatorCount: 210, tensorCount: 327, bufferCount: 120,
            opCounts: [
                "DEQUANTIZE": 113, "CONV_2D": 25, "PRELU": 23, "DEPTHWISE_CONV_2D": 20, "ADD": 20,
                "MAX_POOL_2D": 6, "PAD": 3,
            ],
            inputs: [("input_1", [1, 192, 192, 3])],
            outputs: [("conv2d_21", [1, 1, 1, 1404]), ("conv2d_31", [1, 1, 1, 1])]),
        Expectation(
            file: "efficientnet_lite0.tflite", operatorCount: 61, tensorCount: 163, bufferCount: 165,
            opCounts: [
                "CONV_2D": 33, "DEPTHWISE_CONV_2D": 16, "ADD": 9, "MEAN": 1, "FULLY_CONNECTED": 1, "SOFTMAX": 1,
            ],
            inputs: [("input", [1, 224, 224, 3])], outputs: [("probs", [1, 1000])]),
        Expectation(
            file: "efficientnet_lite0_int8.tflite", operatorCount: 61, tensorCount: 163, bufferCount: 102,
            opCounts: [
                "CONV_2D": 33, "DEPTHWISE_CONV_2D": 16, "ADD": 9, "MEAN": 1, "FULLY_CONNECTED": 1, "SOFTMAX": 1,
            ],
            inputs: [("input", [1, 224, 224, 3])], outputs: [("probs", [1, 1000])]),
    ]

    @Test(arguments: expectations)
    func bundledModelParses(_ expected: Expectation) throws {
        let model = try TestModels.model(expected.file)
        #expect(model.version == 3)
        try #require(model.subgraphs.count == 1)
        let graph = model.subgraphs[0]
        #expect(graph.operators.count == expected.operatorCount)
        #expect(graph.tensors.count == expected.tensorCount)
        #expect(model.buffers.count == expected.bufferCount)
        var counts: [String: Int] = [:]
        for op in graph.operators { counts[model.operatorCode(of: op).builtin.name, default: 0] += 1 }
        #expect(counts == expected.opCounts)
        #expect(graph.inputs.map { graph.tensors[$0].name } == expected.inputs.map(\.name))
        #expect(graph.inputs.map { graph.tensors[$0].shape } == expected.inputs.map(\.shape))
        #expect(graph.outputs.map { graph.tensors[$0].name } == expected.outputs.map(\.name))
        #expect(graph.outputs.map { graph.tensors[$0].shape } == expected.outputs.map(\.shape))
        for tensor in graph.tensors {
            #expect(model.bufferData(tensor.bufferIndex) != nil)
        }
    }

    @Test func contentsOfPathMatchesBytes() throws {
        let fromPath = try TFLiteModel(contentsOf: TestModels.path("face_detection_short_range.tflite"))
        let fromBytes = try TestModels.model("face_detection_short_range.tflite")
        #expect(fromPath.bytes == fromBytes.bytes)
        #expect(fromPath.modelDescription == "keras2tflite_facedetector-front.tflite.generated")
    }

    @Test func missingFileIsTypedError() {
        let path = TestModels.path("does_not_exist.tflite")
        #expect(throws: ModelFormatError.fileNotFound(path)) { try TFLiteModel(contentsOf: path) }
    }

    @Test func efficientNetInt8HasPerChannelQuantizationAndExternalBuffers() throws {
        let model = try TestModels.model("efficientnet_lite0_int8.tflite")
        let graph = model.subgraphs[0]
        #expect(model.buffers.filter(\.isExternal).count == 69)
        #expect(graph.tensors[0].type == .int8)
        #expect(graph.tensors[0].type.elementType == .int8)
        let perChannel = graph.tensors.filter { ($0.quantization?.scales.count ?? 0) > 1 }
        #expect(perChannel.count == 100)
        let stem = graph.tensors[1]
        #expect(stem.name == "stem/w")
        #expect(stem.shape == [32, 3, 3, 3])
        #expect(stem.bufferIndex == 1)
        let quantization = try #require(stem.quantization)
        #expect(quantization.scales.count == 32)
        #expect(quantization.scales.prefix(3) == [0.1329514, 0.0039365203, 0.0039330837])
        #expect(quantization.zeroPoints.prefix(3) == [0, 0, 0])
        #expect(quantization.quantizedDimension == 0)
        // The first buffer stored through offset/size: 96 × 1 × 1 × 16 int8 weights of tensor 10.
        let external = try #require(model.buffers.firstIndex { $0.isExternal })
        #expect(external == 7)
        #expect(model.buffers[7].range == 565_712..<(565_712 + 1536))
        #expect(graph.tensors[10].name == "_blocks.1.expand/w")
        #expect(graph.tensors[10].bufferIndex == 7)
        #expect(model.bufferData(7)?.count == 96 * 16)
        for location in model.buffers where location.isExternal {
            #expect(location.range.upperBound <= model.bytes.count)
        }
    }

    @Test func sparseModelHasDensifyAndSparseTensors() throws {
        let model = try TestModels.model("face_detection_full_range_sparse.tflite")
        let graph = model.subgraphs[0]
        let sparse = graph.tensors.enumerated().filter { $0.element.sparsity != nil }
        #expect(sparse.count == 46)
        let (index, tensor) = try #require(sparse.first)
        #expect(index == 14)
        #expect(tensor.name == "model_1/model/conv2d_1/Conv2D_dequantize")
        #expect(tensor.shape == [8, 1, 1, 32])
        #expect(tensor.type == .float16)
        #expect(tensor.bufferIndex == 15)
        let sparsity = try #require(tensor.sparsity)
        #expect(sparsity.traversalOrder == [0, 1, 2, 3])
        #expect(sparsity.blockMap.isEmpty)
        try #require(sparsity.dimensionMetadata.count == 4)
        #expect(sparsity.dimensionMetadata[0] == .dense(size: 8))
        #expect(sparsity.dimensionMetadata[1] == .dense(size: 1))
        #expect(sparsity.dimensionMetadata[2] == .dense(size: 1))
        guard case .sparseCSR(let segments, let indices) = sparsity.dimensionMetadata[3] else {
            Issue.record("dimension 3 should be sparse CSR")
            return
        }
        #expect(segments.count == 9)
        #expect(segments.prefix(6) == [0, 15, 30, 39, 48, 57])
        #expect(indices.count == 77)
        #expect(indices.prefix(6) == [0, 2, 4, 6, 7, 8])
    }

    @Test func convolutionOptionsAreTyped() throws {
        let model = try TestModels.model("palm_detection_full.tflite")
        var convolutions = 0
        for op in model.subgraphs[0].operators where model.operatorCode(of: op).builtin == .conv2D {
            guard case .conv2D(let options) = op.options else {
                Issue.record("CONV_2D without Conv2DOptions: \(op.options)")
                continue
            }
            #expect([1, 2].contains(options.strideW))
            #expect(options.strideW == options.strideH)
            #expect(options.dilationW == 1 && options.dilationH == 1)
            convolutions += 1
        }
        #expect(convolutions == 35)
    }

    @Test(arguments: [
        (BuiltinOperator.conv2D, BuiltinOptions.conv2D(Conv2DOptions())),
        (.maxPool2D, .pool2D(Pool2DOptions())),
        (.add, .add(activation: .none)),
        (.reshape, .reshape(newShape: nil)),
        (.mean, .reducer(keepDims: false)),
        (.dequantize, .none),
        (.prelu, .none),
    ])
    func defaultsForOperatorsWithoutOptions(op: BuiltinOperator, expected: BuiltinOptions) {
        #expect(BuiltinOptions.defaults(for: op) == expected)
    }

    @Test func conv2DDefaultsFollowSchema() {
        let options = Conv2DOptions()
        #expect(options.padding == .same)
        #expect(options.dilationW == 1 && options.dilationH == 1)
        #expect(options.strideW == 0 && options.strideH == 0)
        #expect(options.activation == .none)
    }

    @Test(arguments: [
        (Int32(0), "ADD"), (3, "CONV_2D"), (4, "DEPTHWISE_CONV_2D"), (124, "DENSIFY"),
        (161, "RIGHT_SHIFT"), (162, "UNKNOWN(162)"), (-1, "UNKNOWN(-1)"),
    ])
    func builtinOperatorNames(code: Int32, name: String) {
        let op = BuiltinOperator(rawValue: code)
        #expect(op.name == name)
        #expect(op.rawValue == code)
    }

    @Test func everyNamedOperatorRoundTrips() {
        for code in Int32(0)...BuiltinOperator.lastNamedCode {
            let op = BuiltinOperator(rawValue: code)
            #expect(op.rawValue == code)
            #expect(!op.name.hasPrefix("UNKNOWN"))
        }
    }

    @Test func tensorTypeCodes() {
        #expect(TensorType(rawValue: 0) == .float32)
        #expect(TensorType(rawValue: 9) == .int8)
        #expect(TensorType(rawValue: 10) == .float64)
        #expect(TensorType(rawValue: 10).rawValue == 10)
        #expect(TensorType(rawValue: 99) == .unknown(99))
        #expect(TensorType.string.elementType == nil)
    }
}
