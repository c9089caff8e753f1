import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTestSupport
import Testing

/// TRANSPOSE_CONV (goldens from LiteRT, `tools/make_op_models.py`) and MediaPipe's custom `Convolution2DTransposeBias`
/// (goldens from the reference semantics checked against MediaPipe, `tools/make_transpose_conv_bias_goldens.py`) in
/// every kernel configuration: reference, optimized with and without generated code, on 1–3 threads.
@Suite struct TransposeConvTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let model: String
        let input: String
        let output: String
        var testDescription: String { name }
    }

    struct Configuration: CustomTestStringConvertible, Sendable {
        let options: InterpreterOptions
        var testDescription: String {
            options.kernelMode == .reference
                ? "reference"
                : "optimized \(options.threadCount) thread(s), codegen \(options.generatesMachineCode ? "on" : "off")"
        }
    }

    static let directory = Fixtures.testFile("PureVisionEngineTests/Fixtures/ops")

    static func manifest(_ file: String) -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: directory + "/" + file),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return root
    }

    static func cases(_ list: [[String: Any]]) -> [Case] {
        list.map { entry in
            let file = { (key: String) in
                ((entry[key] as? [[String: Any]])?.first?["file"] as? String) ?? "missing"
            }
            return Case(
                name: entry["name"] as? String ?? "?", model: entry["model"] as? String ?? "", input: file("inputs"),
                output: file("outputs"))
        }
    }

    static let builtinCases: [Case] = cases(
        ((manifest("cases.json")["cases"] as? [[String: Any]]) ?? []).filter {
            ($0["name"] as? String)?.hasPrefix("transpose_conv") == true
        })
    static let customCases: [Case] = cases((manifest("transpose_conv_bias.json")["cases"] as? [[String: Any]]) ?? [])
    static let refusals: [String] =
        ((manifest("transpose_conv_bias.json")["refuse"] as? [[String: Any]]) ?? []).compactMap {
            $0["model"] as? String
        }

    static let configurations: [Configuration] = [
        Configuration(options: InterpreterOptions(kernelMode: .reference)),
        Configuration(options: InterpreterOptions(threadCount: 1, generatesMachineCode: true)),
        Configuration(options: InterpreterOptions(threadCount: 2, generatesMachineCode: true)),
        Configuration(options: InterpreterOptions(threadCount: 3, generatesMachineCode: true)),
        Configuration(options: InterpreterOptions(threadCount: 1, generatesMachineCode: false)),
        Configuration(options: InterpreterOptions(threadCount: 3, generatesMachineCode: false)),
    ]

    @Test func fixturesArePresent() {
        #expect(Self.builtinCases.count == 7)
        #expect(Self.customCases.count == 7)
        #expect(Self.refusals.count == 5)
    }

    @Test(arguments: builtinCases + customCases, configurations)
    func matchesGolden(_ testCase: Case, configuration: Configuration) throws {
        let interpreter = try Interpreter(
            contentsOf: Self.directory + "/" + testCase.model, options: configuration.options)
        let input = try Fixtures.numpy(atPath: Self.directory + "/" + testCase.input)
        let golden = try Fixtures.numpy(atPath: Self.directory + "/" + testCase.output)
        let outputs = try interpreter.run([input])
        #expect(outputs.count == 1)
        guard let output = outputs.first else { return }
        #expect(output.shape == golden.shape, "\(testCase.name)")
        let comparison = Comparison(output.floats, golden.floats, tolerance: .modelParity)
        #expect(comparison.passed, "\(testCase.name) \(configuration.testDescription): \(comparison)")
    }

    @Test(arguments: refusals)
    func refusesMalformedCustomOperator(_ model: String) {
        #expect {
            _ = try Interpreter(contentsOf: Self.directory + "/" + model)
        } throws: { error in
            guard case .invalidOperator(_, let name, _) = error as? InterpreterError else { return false }
            return name == "Convolution2DTransposeBias"
        }
    }

    @Test func listsTheCustomOperator() {
        #expect(Interpreter.supportedCustomOperators.contains("Convolution2DTransposeBias"))
        #expect(Interpreter.supportedOperators.contains(.transposeConv))
    }
}
