import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTestSupport
import Testing

/// Tensors computed in place in another's arena slot, so that RESHAPE and CONCATENATION copy nothing: a RESHAPE's
/// output in its input's slot (chains in the first tensor's), a CONCATENATION's inputs at their places in its output
/// when its leading extents are 1; graph inputs and a tensor concatenated twice keep their own place (copied). The
/// fixtures (`tools/make_op_models.py`, `tools/make_int8_op_models.py`) are checked against LiteRT in every mode by
/// the operator case suites; here the placements are checked, and the outputs against the LiteRT goldens over two
/// consecutive runs (the second reads slots the first left behind) at 1-3 threads.
@Suite struct SlotSharingTests {
    static let floatDirectory = Fixtures.testFile("PureVisionEngineTests/Fixtures/ops")
    static let int8Directory = Fixtures.testFile("PureVisionEngineTests/Fixtures/int8_ops")

    /// The interpreter for fixture `name` at `threads`, its inputs and its LiteRT goldens.
    static func load(_ name: String, in directory: String, threads: Int) throws -> (Interpreter, [Tensor], [Tensor]) {
        let interpreter = try Interpreter(
            contentsOf: directory + "/\(name).tflite", options: InterpreterOptions(threadCount: threads))
        let inputs = try (0..<interpreter.inputs.count).map {
            try Fixtures.numpy(atPath: directory + "/\(name)_input\($0).npy")
        }
        let goldens = try (0..<interpreter.outputs.count).map {
            try Fixtures.numpy(atPath: directory + "/\(name)_output\($0).npy")
        }
        return (interpreter, inputs, goldens)
    }

    /// Checks output `index` against its golden: bit for bit when `exact`, else within model parity.
    static func check(_ output: Tensor, _ golden: Tensor, exact: Bool, _ label: String) {
        if exact {
            #expect(output.bytes == golden.bytes, "\(label)")
        } else {
            let comparison = Comparison(output.floats, golden.floats, tolerance: .modelParity)
            #expect(comparison.passed, "\(label): \(comparison)")
        }
    }

    /// ADD → RESHAPE → RESHAPE, the ADD's output read again after both, a reshaped tensor that is a graph output
    /// and a reshape of the graph input. ADD and MUL round once, as LiteRT's; LOGISTIC and TANH may differ in the
    /// last bits.
    @Test(arguments: [1, 2, 3])
    func reshapesShareTheirInputsSlot(threads: Int) throws {
        let (interpreter, inputs, goldens) = try Self.load(
            "reshape_chain_shares_slot", in: Self.floatDirectory, threads: threads)
        let placements = Array(interpreter.tensorsSharingSlots.values)
        #expect(placements.count == 2 && Set(placements.map(\.container)).count == 1)
        #expect(placements.allSatisfy { $0.byteOffset == 0 })
        #expect(placements.allSatisfy { p in !interpreter.inputs.contains { $0.tensorIndex == p.container } })
        for _ in 0..<2 {
            let outputs = try interpreter.run(inputs)
            for (index, (output, golden)) in zip(outputs, goldens).enumerated() {
                Self.check(output, golden, exact: index == 0 || index == 2, "output \(index), \(threads) thread(s)")
            }
        }
    }

    /// concat(a, m, a, x) along axis 1 of [1, n, 4] floats: a and m computed in place (at bytes 0 and 48), the
    /// second a and the graph input x copied; m is read again after the concatenation.
    @Test(arguments: [1, 2, 3])
    func concatenationInputsLiveInItsOutput(threads: Int) throws {
        let (interpreter, inputs, goldens) = try Self.load(
            "concat_inputs_in_output_slot", in: Self.floatDirectory, threads: threads)
        let placements = interpreter.tensorsSharingSlots.values.sorted { $0.byteOffset < $1.byteOffset }
        #expect(placements.map(\.byteOffset) == [0, 48])
        #expect(Set(placements.map(\.container)).count == 1)
        for _ in 0..<2 {
            let outputs = try interpreter.run(inputs)
            Self.check(outputs[0], goldens[0], exact: true, "concatenation, \(threads) thread(s)")
            Self.check(outputs[1], goldens[1], exact: false, "tanh, \(threads) thread(s)")
        }
    }

    /// An int8 EfficientDet's head pattern: two ADDs, each RESHAPEd, concatenated along axis 1; the ADDs write
    /// straight into the concatenation's output (the ADDs and their reshapes at bytes 0 and 24), and the result is
    /// LiteRT's bit for bit.
    @Test(arguments: [1, 2, 3])
    func int8HeadsAreComputedInPlace(threads: Int) throws {
        let (interpreter, inputs, goldens) = try Self.load(
            "concatenation_inputs_in_output_slot", in: Self.int8Directory, threads: threads)
        let placements = Array(interpreter.tensorsSharingSlots.values)
        #expect(placements.map(\.byteOffset).sorted() == [0, 0, 24, 24])
        #expect(Set(placements.map(\.container)).count == 1)
        for _ in 0..<2 {
            let outputs = try interpreter.run(inputs)
            Self.check(outputs[0], goldens[0], exact: true, "\(threads) thread(s)")
        }
    }
}
