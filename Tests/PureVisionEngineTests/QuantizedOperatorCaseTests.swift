import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTestSupport
import Testing

/// Quantized (int8 / uint8) single-operator and few-operator models — every quantized operator, fused activations,
/// extreme scales, odd shapes, both directions of QUANTIZE / DEQUANTIZE, graphs mixing float and int8 — checked
/// against LiteRT's builtin kernels (made by `tools/make_int8_op_models.py`): 8-bit outputs must be identical,
/// float outputs within 1e-4 + 1e-3·|LiteRT|; optimized kernels on 1 and 2 threads, and the reference twins.
@Suite struct QuantizedOperatorCaseTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let model: String
        let inputs: [String]
        let outputs: [String]
        var testDescription: String { name }
    }

    static let directory = Fixtures.testFile("PureVisionEngineTests/Fixtures/int8_ops")

    static let cases: [Case] = {
        guard let data = FileManager.default.contents(atPath: directory + "/cases.json"),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["cases"] as? [[String: Any]]
        else { return [Case(name: "cases.json is missing or unreadable", model: "", inputs: [], outputs: [])] }
        return list.map { entry in
            let files = { (key: String) in ((entry[key] as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }
            }
            return Case(
                name: entry["name"] as? String ?? "?", model: entry["model"] as? String ?? "",
                inputs: files("inputs"), outputs: files("outputs"))
        }
    }()

    static let configurations = [
        InterpreterOptions(threadCount: 1), InterpreterOptions(threadCount: 2),
        InterpreterOptions(kernelMode: .reference),
    ]

    @Test func coversEveryQuantizedOperator() {
        let names = Set(Self.cases.map(\.name))
        #expect(names.count >= 60, "\(names.count) cases")
        for prefix in [
            "quantize_", "requantize_", "dequantize_", "conv_", "dwconv_", "fc_", "add_", "sub_", "mul_", "mean_",
            "avgpool_", "maxpool_", "relu", "logistic", "tanh", "hard_swish", "softmax", "prelu", "pad",
            "concatenation",
            "resize_bilinear", "resize_nearest", "mixed_",
        ] {
            #expect(names.contains { $0.hasPrefix(prefix) }, "no case for \(prefix)")
        }
    }

    /// DEQUANTIZE, channel-wise float operators and QUANTIZE between two 8-bit tensors run as one lookup operator,
    /// and so do chains from an 8-bit tensor to a float one (an 8-bit LOGISTIC then DEQUANTIZE), unless a tensor
    /// inside the chain is also a graph output; with fusion off they run one by one. Fused and unfused give the same
    /// bits at 1 and 2 threads (the results are checked against LiteRT by `matchesLiteRT`).
    @Test(arguments: [
        ("mixed_chain_dequantize_prelu_quantize_odd", 1, 3), ("mixed_chain_uint8_prelu_relu6_leaky_to_int8", 1, 5),
        ("mixed_chain_inner_tensor_also_output", 2, 3), ("mixed_chain_after_add_two_readers", 3, 5),
        ("mixed_float_prelu_between_int8", 3, 5), ("mixed_chain_logistic_dequantize", 1, 2),
        ("mixed_chain_dequantize_prelu_float_out", 1, 2), ("mixed_chain_logistic_dequantize_prelu_quantize", 1, 4),
        ("mixed_chain_logistic_output_also_read", 2, 2),
    ])
    func floatIslandRunsAsOneLookup(_ expected: (name: String, fused: Int, separate: Int)) throws {
        let path = Self.directory + "/" + expected.name + ".tflite"
        let testCase = try #require(Self.cases.first { $0.name == expected.name })
        let inputs = try testCase.inputs.map { try Fixtures.numpy(atPath: Self.directory + "/" + $0) }
        for threads in [1, 2] {
            let fused = try Interpreter(contentsOf: path, options: InterpreterOptions(threadCount: threads))
            #expect(fused.operatorCount == expected.fused, "\(expected.name)")
            let unfused = try Interpreter(
                contentsOf: path, options: InterpreterOptions(threadCount: threads, fusesElementwiseEpilogues: false))
            #expect(unfused.operatorCount == expected.separate, "\(expected.name) unfused")
            let (a, b) = (try fused.run(inputs), try unfused.run(inputs))
            #expect(a.map(\.bytes) == b.map(\.bytes), "\(expected.name) at \(threads) thread(s)")
        }
    }

    @Test(arguments: cases, 0..<3)
    func matchesLiteRT(_ testCase: Case, configuration: Int) throws {
        let options = Self.configurations[configuration]
        let interpreter = try Interpreter(contentsOf: Self.directory + "/" + testCase.model, options: options)
        let inputs = try testCase.inputs.map { try Fixtures.numpy(atPath: Self.directory + "/" + $0) }
        let outputs = try interpreter.run(inputs)
        #expect(outputs.count == testCase.outputs.count)
        for (output, file) in zip(outputs, testCase.outputs) {
            let golden = try Fixtures.numpy(atPath: Self.directory + "/" + file)
            #expect(output.shape.elementCount == golden.shape.elementCount, "\(file)")
            #expect(output.elementType == golden.elementType, "\(file)")
            let label = "\(testCase.name) \(options.kernelMode) \(options.threadCount) thread(s) \(file)"
            if golden.elementType == .float32 {
                let comparison = Comparison(output.floats, golden.floats, tolerance: .modelParity)
                #expect(comparison.passed, "\(label): \(comparison)")
            } else {
                let differing = zip(output.bytes, golden.bytes).filter { $0 != $1 }.count
                #expect(differing == 0, "\(label): \(differing) of \(golden.bytes.count) values differ")
            }
        }
    }
}
