import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTestSupport
import Testing

/// A RESHAPE's output shares its input's arena slot, so the run copies nothing: chains of them share the first
/// tensor's slot, which lives as long as any of them; a reshape of a graph input keeps its own slot. The outputs are
/// checked against LiteRT by `OperatorCaseTests`; here they must match the same model in reference mode at 1-3
/// threads (bit for bit where both round once).
@Suite struct ReshapeSlotSharingTests {
    static let directory = Fixtures.testFile("PureVisionEngineTests/Fixtures/ops")

    @Test func reshapesShareTheirInputsSlot() throws {
        let path = Self.directory + "/reshape_chain_shares_slot.tflite"
        let input = try Fixtures.numpy(atPath: Self.directory + "/reshape_chain_shares_slot_input0.npy")
        let reference = try Interpreter(contentsOf: path, options: InterpreterOptions(kernelMode: .reference))
        let expected = try reference.run([input])
        for threads in [1, 2, 3] {
            let interpreter = try Interpreter(contentsOf: path, options: InterpreterOptions(threadCount: threads))
            // ADD → RESHAPE → RESHAPE: both reshaped tensors live in the ADD's slot; the graph input's reshape not.
            let owners = Set(interpreter.tensorsSharingSlots.values)
            #expect(interpreter.tensorsSharingSlots.count == 2 && owners.count == 1)
            #expect(owners.allSatisfy { owner in !interpreter.inputs.contains { $0.tensorIndex == owner } })
            // Twice, so that a second run reads slots the first one left behind.
            for _ in 0..<2 {
                let outputs = try interpreter.run([input])
                #expect(outputs.count == 4)
                // ADD and MUL round once in both modes; LOGISTIC and TANH may differ in the last bits.
                for (index, (output, golden)) in zip(outputs, expected).enumerated() {
                    if index == 0 || index == 2 {
                        #expect(output.bytes == golden.bytes, "output \(index) at \(threads) thread(s)")
                    } else {
                        let comparison = Comparison(output.floats, golden.floats, tolerance: .modelParity)
                        #expect(comparison.passed, "output \(index) at \(threads) thread(s): \(comparison)")
                    }
                }
            }
        }
    }
}
