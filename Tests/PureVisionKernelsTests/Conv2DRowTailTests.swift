import PureVisionKernels
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The generated CONV_2D GEMM on small and odd shapes against `Reference`: output channel counts that are not a
/// multiple of 8 (each row's last vector stored in pieces, no staging) and the 24-column panel of 4-row tiles, small K
/// (3, 16, 24, 27: k loops shorter than or just past the unroll), 1×1 and 3×3 stride 2 over 3 input channels (read in
/// place), 1, 2 and 3 threads; output, input and residual flush against inaccessible pages, so a store or load past a row would fault.
@Suite(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment))
struct Conv2DRowTailTests {
    static let channelCounts = [1, 2, 3, 4, 5, 6, 7, 9, 12, 20, 24, 28, 36, 42, 88]

    /// (N, geometry): 1×1 with K = 3, 16, 24, 27 and row counts around the 4- and 6-row tiles; 3×3 stride 2 with
    /// Cin = 3 (K = 27), SAME padding on one side, batch 2.
    static let cases: [(Int, Conv2DGeometry)] = channelCounts.enumerated().flatMap { index, n in
        let k = [3, 16, 24, 27][index % 4]
        return [
            (
                n,
                Conv2DTests.geometry(
                    height: 1, width: 23 + index % 3, inputChannels: k, outputChannels: n, kernel: (1, 1))
            ),
            (
                n,
                Conv2DTests.geometry(
                    batch: 2, height: 9, width: 29, inputChannels: 3, outputChannels: n, kernel: (3, 3),
                    stride: (2, 2), padding: (0, 1, 0, 1))
            ),
        ]
    }

    @Test(arguments: cases)
    func matchesReference(_ n: Int, _ g: Conv2DGeometry) throws {
        var random = SplitMixSource(seed: stableSeed(g) + 3)
        let input = random.floats(g.batch * g.inputHeight * g.inputWidth * g.inputChannels)
        let filter = random.floats(n * g.window.kernelHeight * g.window.kernelWidth * g.inputChannels)
        let bias = random.floats(n)
        try Self.check(g, input: input, filter: filter, bias: bias, clamp: .relu6, steps: [], residual: [])
    }

    enum Chain: String, CaseIterable, Sendable {
        case add, paddedAdd, paddedAddMasked, prelu, clamp, addPreluClamp
    }

    /// The residual's channels for `chain` at `n` output channels: all, a multiple of 8 below `n`, or a count that
    /// ends inside a vector (loaded under a mask).
    static func steps(_ chain: Chain, n: Int, alpha: [Float]) -> [OutputEpilogue.Step] {
        switch chain {
        case .add: [.addResidual(clamp: .relu)]
        case .paddedAdd: [.addResidual(clamp: .relu, residualChannels: n / 8 * 8)]
        case .paddedAddMasked: [.addResidual(clamp: .none, residualChannels: max(1, n - 3))]
        case .prelu: [.prelu(alpha: alpha)]
        case .clamp: [.clamp(.reluMinus1To1)]
        case .addPreluClamp: [.addResidual(clamp: .none), .prelu(alpha: alpha), .clamp(.relu6)]
        }
    }

    /// Each in-register epilogue on odd channel counts, 1×1 (K = 24) and 3×3 stride 2 (Cin = 3), against the
    /// reference convolution followed by the reference operators.
    @Test(arguments: Chain.allCases, [5, 12, 20, 24, 28, 36, 42])
    func epilogueMatchesReference(_ chain: Chain, n: Int) throws {
        let geometries = [
            Conv2DTests.geometry(height: 3, width: 9, inputChannels: 24, outputChannels: n, kernel: (1, 1)),
            Conv2DTests.geometry(
                height: 11, width: 27, inputChannels: 3, outputChannels: n, kernel: (3, 3), stride: (2, 2),
                padding: (0, 1, 0, 1)),
        ]
        for g in geometries {
            var random = SplitMixSource(seed: stableSeed(g) + UInt64(chain.rawValue.count))
            let input = random.floats(g.batch * g.inputHeight * g.inputWidth * g.inputChannels)
            let filter = random.floats(n * g.window.kernelHeight * g.window.kernelWidth * g.inputChannels)
            let bias = random.floats(n)
            let alpha = (0..<n).map { $0 % 5 == 4 ? Float(0) : random.floats(1)[0] }
            let steps = Self.steps(chain, n: n, alpha: alpha)
            let pixels = g.batch * g.outputHeight * g.outputWidth
            let residual = random.floats(pixels * OutputEpilogue(steps).residualChannels(outputChannels: n))
            try Self.check(g, input: input, filter: filter, bias: bias, clamp: .none, steps: steps, residual: residual)
        }
    }

    /// Runs the generated kernel (with `steps` fused, all of them in registers) on guarded buffers for 1, 2 and 3
    /// threads and compares with the reference.
    static func check(
        _ g: Conv2DGeometry, input: [Float], filter: [Float], bias: [Float], clamp: ClampRange,
        steps: [OutputEpilogue.Step], residual: [Float]
    ) throws {
        let n = g.outputChannels
        let outputCount = g.batch * g.outputHeight * g.outputWidth * n
        var convolved = [Float](repeating: .nan, count: outputCount)
        convolved.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.conv2D(geometry: g, input: input, filter: filter, bias: bias, output: pointer, clamp: clamp)
        }
        let expected =
            steps.isEmpty
            ? convolved
            : OutputEpilogueTests.referenceSteps(
                steps, values: convolved, residual: residual, shape: [g.batch, g.outputHeight, g.outputWidth, n])
        let tolerance = 1e-5 * Float(g.window.kernelHeight * g.window.kernelWidth * g.inputChannels).squareRoot() * 4
        let guardedInput = try #require(GuardedFloats(count: input.count, atPageEnd: true))
        guardedInput.pointer.update(from: input, count: input.count)
        let guardedResidual = try #require(GuardedFloats(count: max(1, residual.count), atPageEnd: true))
        guardedResidual.pointer.update(from: residual, count: residual.count)
        let guardedOutput = try #require(GuardedFloats(count: outputCount, atPageEnd: true))
        for threads in 1...3 {
            for instructions in GeneratedCode.instructionSets {
                let pool = threads == 1 ? ThreadPool.serial : ThreadPool(threadCount: threads)
                let kernel = Conv2DKernel(
                    geometry: g, filter: filter, bias: bias, clamp: clamp, threadCount: threads,
                    generatesMachineCode: true, instructions: instructions
                ).withEpilogue(OutputEpilogue(steps))
                #expect(kernel.generatedInstructions == instructions)
                #expect(kernel.generatedEpilogueStepCount == steps.count)
                guardedOutput.pointer.update(repeating: .nan, count: outputCount)
                var scratch = [Float](repeating: .nan, count: max(1, kernel.scratchFloatCount))
                scratch.withUnsafeMutableBufferPointer { s in
                    guard let scratchPointer = s.baseAddress else { return }
                    kernel.run(
                        input: guardedInput.pointer, output: guardedOutput.pointer,
                        residual: OutputEpilogue(steps).addsResidual ? UnsafePointer(guardedResidual.pointer) : nil,
                        scratch: scratchPointer,
                        pool: pool)
                }
                let actual = Array(UnsafeBufferPointer(start: guardedOutput.pointer, count: outputCount))
                expectNearlyEqual(
                    actual, expected, tolerance: tolerance,
                    "\(g) \(steps.count) steps threads=\(threads) \(instructions)")
            }
        }
    }
}
