import PureVisionKernels
import Testing

/// The generated int8 depthwise row kernel (`QuantizedDepthwiseCode` behind
/// `QuantizedDepthwiseConv2DKernel(generatesMachineCode: true)`) against the scalar reference twin, bit for bit:
/// channel counts on both sides of the 8- and 16-channel groups (the last `channels % 8` in Swift), 1×1 to 7×7 (odd
/// and even heights), stride 1 and 2, dilation, asymmetric padding, extreme zero points and multipliers, every
/// rounding, uint8, 1–3 threads; AVX2 and, where the CPU has it, AVX-512 VNNI (groups of 16, a last block of 8).
@Suite(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment)) struct QuantizedDepthwiseMachineCodeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var h: Int, w: Int, c: Int, kernel: Int, stride: Int
        var dilation = 1
        var pad: Int
        var testDescription: String { "\(h)×\(w)×\(c) k\(kernel) s\(stride) d\(dilation) p\(pad)" }
    }

    static let cases: [Case] = [
        Case(h: 7, w: 6, c: 8, kernel: 3, stride: 1, pad: 1),
        Case(h: 9, w: 8, c: 13, kernel: 3, stride: 2, pad: 1),
        Case(h: 5, w: 11, c: 16, kernel: 3, stride: 1, pad: 0),
        Case(h: 8, w: 7, c: 24, kernel: 5, stride: 2, pad: 2),
        Case(h: 6, w: 6, c: 33, kernel: 3, stride: 1, dilation: 2, pad: 2),
        Case(h: 4, w: 5, c: 40, kernel: 5, stride: 1, pad: 2),
        Case(h: 3, w: 3, c: 9, kernel: 3, stride: 2, pad: 0),
        // Even kernel heights fill both rows of every staged row pair; 1×1 leaves the second row empty.
        Case(h: 6, w: 9, c: 24, kernel: 4, stride: 1, pad: 1),
        Case(h: 5, w: 5, c: 16, kernel: 2, stride: 2, pad: 0),
        Case(h: 4, w: 3, c: 8, kernel: 1, stride: 1, pad: 0),
        // 7×7: 28 taps, more than the AVX-512 code keeps in registers (16), so it reads the weights from memory.
        Case(h: 9, w: 10, c: 40, kernel: 7, stride: 1, pad: 3),
        // Enough rows (2 images of 30) for several tasks per thread, each staging its first rows again.
        Case(h: 30, w: 5, c: 8, kernel: 3, stride: 1, pad: 1),
    ]

    /// Tasks of at least 6 rows where there are enough, a whole number per thread (at most 4), one per thread at
    /// least.
    @Test func cutsRowsIntoTasksOfSeveralRows() {
        typealias Kernel = QuantizedDepthwiseConv2DKernel
        let expected: [(rows: Int, threads: Int, tasks: Int)] = [
            (100, 1, 1), (1, 2, 1), (7, 2, 2), (14, 2, 2), (28, 2, 4), (56, 2, 8), (112, 2, 8), (60, 3, 9), (2, 3, 2),
        ]
        for (rows, threads, tasks) in expected {
            #expect(Kernel.taskCount(rows: rows, threads: threads) == tasks, "\(rows) rows, \(threads) threads")
        }
    }

    @Test(arguments: cases, [1, 2, 3])
    func int8MatchesReferenceTwin(_ c: Case, threads: Int) throws {
        for instructions in QuantizedGEMMMachineCodeTests.instructionSets {
            try Self.checkInt8(c, threads: threads, generated: true, instructions: instructions)
        }
    }

    @Test(arguments: [8, 21, 32], [1, 2])
    func uint8MatchesReferenceTwin(_ channels: Int, threads: Int) throws {
        for instructions in QuantizedGEMMMachineCodeTests.instructionSets {
            try Self.checkUInt8(channels: channels, threads: threads, generated: true, instructions: instructions)
        }
    }

    /// What generated code for `channels` channels runs when `instructions` is asked for: AVX-512 needs a group of
    /// 16.
    static func expectedInstructions(_ instructions: GeneratedInstructionSet, channels: Int) -> GeneratedInstructionSet
    {
        instructions == .avx512 && channels >= 16 ? .avx512 : .avx2
    }

    /// The int8 case `c` through the generated code or (`generated` false) the Swift loop over the same staged rows.
    static func checkInt8(
        _ c: Case, threads: Int, generated: Bool, instructions: GeneratedInstructionSet = .avx2
    ) throws {
        var random = Random(state: UInt64(c.c * 101 + c.kernel * 7 + c.stride))
        let span = (c.kernel - 1) * c.dilation + 1
        let oh = (c.h + 2 * c.pad - span) / c.stride + 1
        let ow = (c.w + 2 * c.pad - span) / c.stride + 1
        let g = DepthwiseConv2DGeometry(
            convolution: Conv2DGeometry(
                batch: 2, inputHeight: c.h, inputWidth: c.w, inputChannels: c.c, outputHeight: oh, outputWidth: ow,
                outputChannels: c.c,
                window: Window2D(
                    kernelHeight: c.kernel, kernelWidth: c.kernel, strideHeight: c.stride, strideWidth: c.stride,
                    dilationHeight: c.dilation, dilationWidth: c.dilation, paddingTop: c.pad, paddingLeft: c.pad)))
        let input = QuantizedKernelTests.int8s(2 * c.h * c.w * c.c, &random)
        let filter = QuantizedKernelTests.int8s(c.kernel * c.kernel * c.c, &random)
        let bias = (0..<c.c).map { i in
            i == 1 ? Int32.min : i == 2 ? Int32.max - 100_000 : Int32(Int(random.next() % 200_001) - 100_000)
        }
        let scales = [0.0009, 4e-10, 0.02, 0.9999, 0.0001, 0.4]
        let multipliers = (0..<c.c).map { i in
            let real = scales[i % scales.count] / (1 + Double(i) / 50)
            return QuantizedMultiplier(real, floatScale: Float(real))
        }
        for rounding in [RequantizationRounding.channelBlocksOf8, .ruy, .double, .xnnpack] {
            for (zeroPoint, range) in [
                (Int32(127), QuantizedRange(lower: -128, upper: 127)), (-128, .init(lower: -5, upper: 100)),
            ] {
                var expected = [Int8](repeating: 0, count: 2 * oh * ow * c.c)
                Reference.quantizedDepthwiseConv2D(
                    geometry: g, input: input, filter: filter, bias: bias, inputZeroPoint: zeroPoint,
                    outputZeroPoint: -3, multipliers: multipliers, range: range, rounding: rounding, output: &expected)
                let kernel = QuantizedDepthwiseConv2DKernel(
                    geometry: g, filter: filter, bias: bias, inputZeroPoint: zeroPoint, outputZeroPoint: -3,
                    multipliers: multipliers, range: range, rounding: rounding, threadCount: threads,
                    generatesMachineCode: generated, instructions: instructions)
                try #require(kernel.usesGeneratedCode == generated)
                if generated {
                    try #require(
                        kernel.generatedInstructions == expectedInstructions(instructions, channels: c.c / 8 * 8))
                }
                let scratch = UnsafeMutableRawPointer.allocate(byteCount: kernel.scratchBytes, alignment: 64)
                defer { scratch.deallocate() }
                var actual = [Int8](repeating: 55, count: expected.count + 1)
                kernel.run(input: input, output: &actual, scratch: scratch, pool: ThreadPool(threadCount: threads))
                #expect(actual.last == 55, "\(c.testDescription): wrote past the output")
                #expect(
                    Array(actual.dropLast()) == expected,
                    "\(c.testDescription) \(rounding) zp \(zeroPoint) threads \(threads) \(instructions)")
            }
        }
    }

    /// TFLite's uint8 scheme (products of two ±255 values) through the generated code or the Swift loop.
    static func checkUInt8(
        channels: Int, threads: Int, generated: Bool, instructions: GeneratedInstructionSet = .avx2
    ) throws {
        var random = Random(state: UInt64(channels * 3 + threads))
        let g = DepthwiseConv2DGeometry(
            convolution: Conv2DGeometry(
                batch: 1, inputHeight: 7, inputWidth: 9, inputChannels: channels, outputHeight: 4, outputWidth: 5,
                outputChannels: channels,
                window: Window2D(
                    kernelHeight: 3, kernelWidth: 3, strideHeight: 2, strideWidth: 2, dilationHeight: 1,
                    dilationWidth: 1, paddingTop: 1, paddingLeft: 1)))
        let input = (0..<(7 * 9 * channels)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let filter = (0..<(9 * channels)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let bias = (0..<channels).map { _ in Int32(Int(random.next() % 20_001) - 10_000) }
        let multipliers = (0..<channels).map { i in QuantizedMultiplier(0.0003 * (1 + Double(i % 4))) }
        let range = QuantizedRange(lower: 2, upper: 251)
        var expected = [UInt8](repeating: 0, count: 4 * 5 * channels)
        Reference.quantizedDepthwiseConv2D(
            geometry: g, input: input, filter: filter, bias: bias, inputZeroPoint: 131, weightZeroPoint: 119,
            outputZeroPoint: 125, multipliers: multipliers, range: range, rounding: .double, output: &expected)
        let kernel = QuantizedDepthwiseConv2DKernel(
            geometry: g, weight: { Int32(filter[$0]) - 119 }, bias: bias, inputZeroPoint: 131, outputZeroPoint: 125,
            multipliers: multipliers, range: range, unsigned: true, rounding: .double, threadCount: threads,
            generatesMachineCode: generated, instructions: instructions)
        try #require(kernel.usesGeneratedCode == generated)
        if generated {
            try #require(kernel.generatedInstructions == expectedInstructions(instructions, channels: channels / 8 * 8))
        }
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: kernel.scratchBytes, alignment: 64)
        defer { scratch.deallocate() }
        var actual = [Int8](repeating: 0, count: expected.count)
        input.withUnsafeBytes { bytes in
            kernel.run(
                input: bytes.baseAddress!.assumingMemoryBound(to: Int8.self), output: &actual, scratch: scratch,
                pool: ThreadPool(threadCount: threads))
        }
        #expect(actual.map { UInt8(bitPattern: $0) } == expected, "\(channels) channels \(instructions)")
    }
}
