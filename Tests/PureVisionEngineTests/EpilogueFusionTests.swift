import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionKernels
import PureVisionTestSupport
import Testing

/// Fusing element-wise consumers into convolutions: which chains fuse (and which must not), and that fused models
/// compute exactly what the unfused operators compute.
@Suite struct EpilogueFusionTests {
    /// A stand-in operator: `name`, reading and writing tensors, recording what fusion asked of it.
    final class Log: @unchecked Sendable {
        var fused: [(producer: String, epilogue: OutputEpilogue, residual: Int?, output: Int)] = []
    }

    static func producer(_ name: String, _ input: Int, _ output: Int, channels: Int = 4, log: Log) -> LoweredOperator {
        var op = LoweredOperator(
            operatorIndex: output, name: name, inputs: [input], outputs: [output], scratchBytes: 0,
            bind: { _ in {} })
        op.epilogueFusion = EpilogueFusion(channels: channels) { epilogue, residual, fusedOutput in
            log.fused.append((name, epilogue, residual, fusedOutput))
            return { _ in {} }
        }
        return op
    }

    static func consumer(_ name: String, _ inputs: [Int], _ output: Int, _ source: EpilogueSource?) -> LoweredOperator {
        var op = LoweredOperator(
            operatorIndex: output, name: name, inputs: inputs, outputs: [output], scratchBytes: 0, bind: { _ in {} })
        op.epilogueSource = source
        return op
    }

    @Test func convAddPReLUChainBecomesOneOperatorAtTheLastPosition() {
        let log = Log()
        // 0 → conv → 1; 1 + 0 → add → 2; prelu(2) → 3; relu(3) → 4 (graph output).
        let ops = [
            Self.producer("CONV_2D", 0, 1, log: log),
            Self.consumer("ADD", [1, 0], 2, .add(lhs: 1, rhs: 0, clamp: .relu6)),
            Self.consumer("PRELU", [2], 3, .prelu(input: 2, alpha: [1, 2, 3, 4])),
            Self.consumer("RELU", [3], 4, .clamp(input: 3, .relu)),
        ]
        let fused = EpilogueFuser.fuse(ops, graphOutputs: [4])
        #expect(fused.map(\.name) == ["CONV_2D+ADD+PRELU+RELU"])
        #expect(fused.first?.inputs == [0, 0])
        #expect(fused.first?.outputs == [4])
        let last = log.fused.last
        #expect(
            last?.epilogue
                == OutputEpilogue([.addResidual(clamp: .relu6), .prelu(alpha: [1, 2, 3, 4]), .clamp(.relu)]))
        #expect(last?.residual == 0)
        #expect(last?.output == 4)
    }

    @Test func zeroChannelPadOfTheResidualIsSkipped() {
        let log = Log()
        var pad = Self.consumer("PAD", [5], 6, nil)
        pad.channelZeroPadding = (input: 5, channels: 3)
        // 5 → pad → 6; 0 → conv → 1; 1 + 6 → add → 2 (graph output).
        let ops = [
            Self.consumer("MAX_POOL_2D", [9], 5, nil), pad, Self.producer("CONV_2D", 0, 1, log: log),
            Self.consumer("ADD", [6, 1], 2, .add(lhs: 6, rhs: 1, clamp: .relu)),
        ]
        let fused = EpilogueFuser.fuse(ops, graphOutputs: [2])
        #expect(fused.map(\.name) == ["MAX_POOL_2D", "CONV_2D+PAD+ADD"])
        #expect(fused.last?.inputs == [0, 5])
        #expect(log.fused.last?.epilogue == OutputEpilogue([.addResidual(clamp: .relu, residualChannels: 3)]))
        #expect(log.fused.last?.residual == 5)
        // A padded tensor that something else reads too keeps its PAD, and the ADD reads the padded tensor.
        let shared = ops + [Self.consumer("RELU", [6], 7, nil)]
        let kept = EpilogueFuser.fuse(shared, graphOutputs: [2, 7])
        #expect(kept.map(\.name) == ["MAX_POOL_2D", "PAD", "CONV_2D+ADD", "RELU"])
        #expect(log.fused.last?.residual == 6)
    }

    @Test func intermediateReadTwiceOrAGraphOutputStaysUnfused() {
        let log = Log()
        let twoReaders = [
            Self.producer("CONV_2D", 0, 1, log: log),
            Self.consumer("PRELU", [1], 2, .prelu(input: 1, alpha: [1, 1, 1, 1])),
            Self.consumer("ADD", [1, 2], 3, .add(lhs: 1, rhs: 2, clamp: .none)),
        ]
        #expect(EpilogueFuser.fuse(twoReaders, graphOutputs: [3]).map(\.name) == ["CONV_2D", "PRELU", "ADD"])
        let graphOutput = [
            Self.producer("DEPTHWISE_CONV_2D", 0, 1, log: log),
            Self.consumer("RELU", [1], 2, .clamp(input: 1, .relu)),
        ]
        #expect(EpilogueFuser.fuse(graphOutput, graphOutputs: [1, 2]).map(\.name) == ["DEPTHWISE_CONV_2D", "RELU"])
        #expect(log.fused.isEmpty)
    }

    @Test func onlyOneResidualAndMatchingSlopes() {
        let log = Log()
        let ops = [
            Self.producer("CONV_2D", 0, 1, log: log),
            Self.consumer("ADD", [1, 0], 2, .add(lhs: 1, rhs: 0, clamp: .none)),
            Self.consumer("ADD", [5, 2], 3, .add(lhs: 5, rhs: 2, clamp: .none)),
        ]
        #expect(EpilogueFuser.fuse(ops, graphOutputs: [3]).map(\.name) == ["CONV_2D+ADD", "ADD"])
        let slopes = [
            Self.producer("CONV_2D", 0, 1, channels: 8, log: log),
            Self.consumer("PRELU", [1], 2, .prelu(input: 1, alpha: [1, 2, 3])),
            Self.consumer("ADD", [2, 2], 3, .add(lhs: 2, rhs: 2, clamp: .none)),
        ]
        #expect(EpilogueFuser.fuse(slopes, graphOutputs: [3]).map(\.name) == ["CONV_2D", "PRELU", "ADD"])
        let selfAdd = [
            Self.producer("CONV_2D", 0, 1, log: log),
            Self.consumer("ADD", [1, 1], 2, .add(lhs: 1, rhs: 1, clamp: .none)),
        ]
        #expect(EpilogueFuser.fuse(selfAdd, graphOutputs: [2]).map(\.name) == ["CONV_2D", "ADD"])
    }

    static let models = [
        "palm_detection_full", "hand_landmark_full", "face_detection_short_range",
        "face_detection_full_range_sparse", "face_landmark", "efficientnet_lite0",
    ]

    /// Fused and unfused interpreters give bit-identical outputs, and the fused one runs fewer operators.
    @Test(arguments: models)
    func fusedModelEqualsUnfused(_ model: String) throws {
        let path = Fixtures.model("\(model).tflite")
        for threads in [1, 2] {
            let fused = try Interpreter(contentsOf: path, options: InterpreterOptions(threadCount: threads))
            let unfused = try Interpreter(
                contentsOf: path, options: InterpreterOptions(threadCount: threads, fusesElementwiseEpilogues: false))
            #expect(fused.operatorCount < unfused.operatorCount, "\(model): no operator was fused")
            #expect(fused.stepLabels.contains { $0.contains("CONV_2D+") })
            #expect(!unfused.stepLabels.contains { $0.contains("+") })
            var random = SplitMix64(seed: 7)
            let inputs = try fused.inputs.map { description in
                try Tensor(shape: description.shape, floats: random.signedUnitFloats(description.shape.elementCount))
            }
            let a = try fused.run(inputs)
            let b = try unfused.run(inputs)
            for (index, (x, y)) in zip(a, b).enumerated() {
                let mismatch = zip(x.floats, y.floats).enumerated().first { $0.element.0 != $0.element.1 }
                #expect(mismatch == nil, "\(model) threads \(threads) output \(index): \(String(describing: mismatch))")
            }
        }
    }

    /// Reference mode never fuses: it is the oracle.
    @Test func referenceModeRunsEveryOperator() throws {
        let path = Fixtures.model("face_landmark.tflite")
        let reference = try Interpreter(contentsOf: path, options: InterpreterOptions(kernelMode: .reference))
        let unfused = try Interpreter(contentsOf: path, options: InterpreterOptions(fusesElementwiseEpilogues: false))
        #expect(reference.operatorCount == unfused.operatorCount)
    }
}
