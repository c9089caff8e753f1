import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTFLite
import PureVisionTestSupport
import Testing

/// No operator runs on a tensor without elements: every operator that reads or writes one is refused at load with
/// `InterpreterError.emptyTensor`, in both kernel modes, before its kernel is prepared. One model per operator
/// (`tools/make_empty_tensor_models.py`, `Fixtures/empty/`); `cases.json` names the operator each must be refused at.
@Suite struct EmptyTensorTests {
    static let directory = Fixtures.testFile("PureVisionEngineTests/Fixtures/empty")

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var file: String = ""
        let operatorIndex: Int
        let `operator`: String
        var testDescription: String { file }
        enum CodingKeys: String, CodingKey { case operatorIndex, `operator` }
    }

    static func cases() throws -> [Case] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/cases.json"))
        let table = try JSONDecoder().decode([String: Case].self, from: data)
        return table.sorted { $0.key < $1.key }.map { entry in
            var item = entry.value
            item.file = entry.key + ".tflite"
            return item
        }
    }

    /// Cases for operators the engine does not run (yet) are skipped: they are written ahead for operators other
    /// branches add.
    @Test(arguments: try cases())
    func operatorOnAnEmptyTensorIsRefusedAtLoad(_ item: Case) throws {
        let supported = Interpreter.supportedOperators.map(\.name) + Interpreter.supportedCustomOperators
        guard supported.contains(item.operator) else { return }
        let bytes = try Fixtures.bytes(atPath: Self.directory + "/" + item.file)
        for mode in [InterpreterOptions.KernelMode.optimized, .reference] {
            #expect {
                try Interpreter(bytes: bytes, options: InterpreterOptions(threadCount: 2, kernelMode: mode))
            } throws: { error in
                guard case .emptyTensor(let index, let name, _, _, let shape) = error as? InterpreterError else {
                    Issue.record("\(item.file) (\(mode)): \(error)")
                    return false
                }
                return index == item.operatorIndex && name == item.operator && shape.elementCount == 0
            }
        }
    }

    /// A new operator in the engine needs its case in tools/make_empty_tensor_models.py.
    @Test func everySupportedOperatorHasACase() throws {
        let covered = Set(try Self.cases().map(\.operator))
        let supported = Interpreter.supportedOperators.map(\.name) + Interpreter.supportedCustomOperators
        let missing = supported.filter { !covered.contains($0) }
        #expect(missing.isEmpty, "no empty-tensor case for \(missing)")
    }

    /// The error names the operator, the tensor and its shape.
    @Test func errorDescribesTheTensor() throws {
        let bytes = try Fixtures.bytes(atPath: Self.directory + "/conv_2d.tflite")
        do {
            _ = try Interpreter(bytes: bytes)
            Issue.record("an empty CONV_2D input loaded")
        } catch {
            #expect("\(error)".contains("CONV_2D"))
            #expect("\(error)".contains("[1, 0, 4, 3]"))
            #expect("\(error)".contains("has no elements"))
        }
    }
}
