import PureVisionCore
import PureVisionEngine
import PureVisionKernels
import PureVisionTestSupport
import Testing

/// DeepLab v3's image-pooling branch (a one-pixel map resized to 33×33, concatenated in front of the other branch,
/// then a 1×1 convolution): with generated code the convolution runs the constant channels once per image and reads
/// the other branch in place (`BroadcastPrefixFolding`), and must compute exactly what the separate operators do.
@Suite struct BroadcastPrefixFoldingTests {
    static let path = Fixtures.model("deeplab_v3.tflite")

    @Test(arguments: [1, 2])
    func deeplabFoldsTheImagePoolingBranchBitForBit(threads: Int) throws {
        let folded = try Interpreter(contentsOf: Self.path, options: InterpreterOptions(threadCount: threads))
        let unfused = try Interpreter(
            contentsOf: Self.path, options: InterpreterOptions(threadCount: threads, fusesElementwiseEpilogues: false))
        func count(_ interpreter: Interpreter, _ name: String) -> Int {
            interpreter.stepLabels.filter { $0.split(separator: " ")[1] == name }.count
        }
        #expect(count(unfused, "CONCATENATION") == 1 && count(unfused, "RESIZE_BILINEAR") == 3)
        if HostCPU.supportsGeneratedAVX2 {
            #expect(count(folded, "CONCATENATION+CONV_2D") == 1)
            #expect(count(folded, "CONCATENATION") == 0 && count(folded, "RESIZE_BILINEAR") == 2)
        } else {
            // The Swift kernels keep the operators: the split is exact only in the generated code's order.
            #expect(count(folded, "CONCATENATION") == 1)
        }
        var random = SplitMix64(seed: 41)
        let shape = folded.inputs[0].shape
        let inputs = [
            try Tensor(shape: shape, floats: random.signedUnitFloats(shape.elementCount)),
            try Tensor(shape: shape, floats: random.signedUnitFloats(shape.elementCount).map { $0 * 40 }),
            try Tensor(shape: shape, floats: [Float](repeating: 0, count: shape.elementCount)),
        ]
        for (index, input) in inputs.enumerated() {
            let a = try folded.run([input])
            let b = try unfused.run([input])
            let mismatch = zip(a[0].floats, b[0].floats).enumerated().first {
                $0.element.0.bitPattern != $0.element.1.bitPattern
            }
            #expect(mismatch == nil, "input \(index), \(threads) threads: \(String(describing: mismatch))")
        }
    }

    /// The op fixtures (`tools/make_op_models.py`, checked against LiteRT by `OperatorCaseTests`): a bilinear and a
    /// nearest-neighbour map leading the concatenation, over two images, fold into one operator; trailing, they do
    /// not; a map that is also a graph output keeps its resize. Each equals the unfused interpreter bit for bit (NaN
    /// for NaN) at 1–3 threads, on the fixture's inputs and on maps holding −0, ±∞, NaN and a subnormal.
    @Test(arguments: [
        ("concat_broadcast_conv", 1), ("concat_broadcast_conv_trailing", 4), ("concat_broadcast_conv_shared", 2),
    ])
    func opFixturesFoldExactly(_ expected: (name: String, operators: Int)) throws {
        let directory = OperatorCaseTests.directory
        let path = directory + "/\(expected.name).tflite"
        let inputs = try (0..<3).map { try Fixtures.numpy(atPath: directory + "/\(expected.name)_input\($0).npy") }
        var special = inputs
        special[0] = try Tensor(shape: inputs[0].shape, floats: [-0.0, .infinity, 3, -.infinity, .nan, 1e30, -0.0, 2])
        special[1] = try Tensor(shape: inputs[1].shape, floats: [-0.0, 0, -Float.leastNonzeroMagnitude, 5, -0.0, 7])
        for threads in [1, 2, 3] {
            let folded = try Interpreter(contentsOf: path, options: InterpreterOptions(threadCount: threads))
            let unfused = try Interpreter(
                contentsOf: path, options: InterpreterOptions(threadCount: threads, fusesElementwiseEpilogues: false))
            #expect(unfused.operatorCount == 4)
            #expect(folded.operatorCount == (HostCPU.supportsGeneratedAVX2 ? expected.operators : 4))
            for (index, set) in [inputs, special].enumerated() {
                for (x, y) in zip(try folded.run(set), try unfused.run(set)) {
                    let mismatch = zip(x.floats, y.floats).enumerated().first { _, pair in
                        pair.0.bitPattern != pair.1.bitPattern && !(pair.0.isNaN && pair.1.isNaN)
                    }
                    #expect(
                        mismatch == nil,
                        "\(expected.name), \(threads) threads, inputs \(index): \(String(describing: mismatch))")
                }
            }
        }
    }

    /// Reference mode runs every operator as the model has it.
    @Test func referenceModeDoesNotFold() throws {
        let reference = try Interpreter(
            contentsOf: Self.path, options: InterpreterOptions(kernelMode: .reference))
        #expect(!reference.stepLabels.contains { $0.contains("+") })
    }
}
