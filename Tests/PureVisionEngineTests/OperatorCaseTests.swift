import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTestSupport
import Testing

/// Single-operator and small multi-operator models covering every supported operator and option variant, each
/// checked against LiteRT's reference kernels (made by `tools/make_op_models.py`), in optimized and reference mode.
@Suite struct OperatorCaseTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let model: String
        let inputs: [String]
        let outputs: [String]
        var testDescription: String { name }
    }

    static let directory = Fixtures.testFile("PureVisionEngineTests/Fixtures/ops")

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

    @Test(arguments: cases, [InterpreterOptions.KernelMode.optimized, .reference])
    func matchesLiteRT(_ testCase: Case, mode: InterpreterOptions.KernelMode) throws {
        let interpreter = try Interpreter(
            contentsOf: Self.directory + "/" + testCase.model, options: InterpreterOptions(kernelMode: mode))
        let inputs = try testCase.inputs.map { try Fixtures.numpy(atPath: Self.directory + "/" + $0) }
        let outputs = try interpreter.run(inputs)
        #expect(outputs.count == testCase.outputs.count)
        for (output, file) in zip(outputs, testCase.outputs) {
            let golden = try Fixtures.numpy(atPath: Self.directory + "/" + file)
            #expect(output.shape == golden.shape, "\(file)")
            let comparison = Comparison(output.floats, golden.floats, tolerance: .modelParity)
            #expect(comparison.passed, "\(testCase.name) \(mode) \(file): \(comparison)")
        }
    }

    /// A PAD of zero rows and columns runs inside the VALID convolutions that read it when its zeros lie within
    /// their kernels' reach (the results are checked against LiteRT by `matchesLiteRT`); it stays an operator of its
    /// own when too wide, before a SAME convolution, or read by another operator, and when fusion is off.
    @Test(arguments: [
        ("pad_conv_asymmetric", 1), ("pad_conv_stride2", 1), ("padv2_zero_dw_dilated", 1), ("pad_dw_two_readers", 2),
        ("pad_conv_too_wide", 2), ("pad_conv_same", 2), ("pad_conv_and_add", 3),
    ])
    func zeroSpatialPadRunsInsideItsConvolutions(_ expected: (name: String, operators: Int)) throws {
        let path = Self.directory + "/" + expected.name + ".tflite"
        #expect(try Interpreter(contentsOf: path).operatorCount == expected.operators, "\(expected.name)")
        let unfused = try Interpreter(contentsOf: path, options: InterpreterOptions(fusesElementwiseEpilogues: false))
        let separate = expected.name.hasPrefix("pad_dw_two") ? 3 : expected.name == "pad_conv_and_add" ? 3 : 2
        #expect(unfused.operatorCount == separate, "\(expected.name) unfused")
    }

    @Test func refusesCustomOperatorByName() throws {
        #expect {
            _ = try Interpreter(contentsOf: Self.directory + "/custom_op.tflite")
        } throws: { error in
            guard case .unsupportedOperator(_, _, let custom) = error as? InterpreterError else { return false }
            return custom == "MyCustomOp" && "\(error)".contains("MyCustomOp")
        }
    }
}
