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

    /// Reference mode runs every operator as the model has it.
    @Test func referenceModeDoesNotFold() throws {
        let reference = try Interpreter(
            contentsOf: Self.path, options: InterpreterOptions(kernelMode: .reference))
        #expect(!reference.stepLabels.contains { $0.contains("+") })
    }
}
