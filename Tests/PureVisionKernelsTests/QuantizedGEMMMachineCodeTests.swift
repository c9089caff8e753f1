import PureVisionKernels
import Testing

/// The generated int8 GEMM (`QuantizedGEMMCode` behind `QuantizedConv2DKernel(generatesMachineCode: true)`) against
/// the scalar reference twin, bit for bit: output channels on both sides of the 8- and 16-channel panels, odd k,
/// pixel counts that leave a short last tile, stride 2, padding, extreme zero points, multipliers from 2^−31 to
/// just under 1, int32 overflow-range biases, uint8 activations, 1–3 threads; layers with fewer pixels than channels,
/// whose threads share the channels (the generated code cut into column parts, with and without a tail panel and a
/// short tile). Each case runs with AVX2 and, where the CPU has it, AVX-512 VNNI (panels of 32, byte-masked stores).
@Suite(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment)) struct QuantizedGEMMMachineCodeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var n = 1
        var h: Int, w: Int, c: Int, out: Int, kernel: Int, stride: Int, pad: Int
        /// Dilation of the kernel's rows.
        var dilationHeight = 1
        /// The thread counts at which the kernel cuts by columns.
        var cutsByColumnsAt: Set<Int> = []
        var testDescription: String {
            "\(n)×\(h)×\(w)×\(c) → \(out), k\(kernel) s\(stride) p\(pad)"
                + (dilationHeight > 1 ? " dh\(dilationHeight)" : "")
        }
        /// Whether AVX-512 gathers whole interior tiles with generated code: kernel rows whose bytes fit two 64-byte
        /// registers, with a masked load per kernel row and register it reaches, plus a masked store where the row
        /// (the depth rounded up to 4 bytes) ends inside a register, in at most 7 mask registers.
        var gathersWithGeneratedCode: Bool {
            let (span, depth) = (kernel * c, kernel * kernel * c)
            let rowBytes = (depth + 3) / 4 * 4
            guard kernel > 1, rowBytes <= 128 else { return false }
            let loads = (0..<kernel).reduce(0) { count, row in
                count + (row * span / 64 == ((row + 1) * span - 1) / 64 ? 1 : 2)
            }
            return loads + (rowBytes % 64 == 0 ? 0 : 1) <= 7
        }
    }

    static let cases: [Case] = [
        Case(h: 7, w: 6, c: 1, out: 1, kernel: 1, stride: 1, pad: 0),
        Case(h: 5, w: 5, c: 3, out: 7, kernel: 3, stride: 2, pad: 1),
        Case(h: 4, w: 9, c: 16, out: 8, kernel: 1, stride: 1, pad: 0),
        Case(h: 6, w: 5, c: 9, out: 9, kernel: 3, stride: 1, pad: 1),
        Case(h: 3, w: 11, c: 17, out: 15, kernel: 1, stride: 1, pad: 0),
        Case(h: 8, w: 8, c: 32, out: 16, kernel: 1, stride: 1, pad: 0),
        Case(h: 7, w: 7, c: 5, out: 17, kernel: 3, stride: 2, pad: 1),
        Case(h: 5, w: 4, c: 24, out: 24, kernel: 1, stride: 1, pad: 0),
        Case(n: 2, h: 5, w: 3, c: 33, out: 40, kernel: 2, stride: 2, pad: 1),
        Case(h: 1, w: 1, c: 71, out: 33, kernel: 1, stride: 1, pad: 0),
        Case(h: 9, w: 7, c: 8, out: 48, kernel: 3, stride: 1, pad: 1),
        // One pixel, 13 panels, an 11-channel tail: a classifier head.
        Case(h: 1, w: 1, c: 1001, out: 203, kernel: 1, stride: 1, pad: 0, cutsByColumnsAt: [2, 3]),
        // A full tile and a short one; three panels, the last a 13-channel tail.
        Case(h: 1, w: 7, c: 700, out: 45, kernel: 1, stride: 1, pad: 0, cutsByColumnsAt: [2, 3]),
        // An 8-wide last panel stored in place; too little work for three threads.
        Case(h: 2, w: 3, c: 600, out: 40, kernel: 1, stride: 1, pad: 0, cutsByColumnsAt: [2]),
        // Wide enough for whole tiles inside the input (the gather's interior path): a 3-channel first layer, and
        // 5 channels at stride 1.
        Case(h: 20, w: 23, c: 3, out: 24, kernel: 3, stride: 2, pad: 1),
        Case(h: 16, w: 19, c: 5, out: 40, kernel: 3, stride: 1, pad: 1),
        // Kernel rows two input rows apart; a 2×2 kernel over 16 channels (64-byte rows); 4 channels at 4×4.
        Case(h: 13, w: 21, c: 3, out: 9, kernel: 3, stride: 1, pad: 1, dilationHeight: 2),
        Case(h: 9, w: 40, c: 16, out: 33, kernel: 2, stride: 1, pad: 0),
        Case(h: 11, w: 45, c: 4, out: 8, kernel: 4, stride: 2, pad: 1),
        // Rows over two registers: palm detection's 5×5 first layer (75 bytes, the last kernel row split), 9
        // channels at 3×3 (81 bytes); and 7×7 over 2 channels, which needs more masks than there are.
        Case(h: 14, w: 30, c: 3, out: 16, kernel: 5, stride: 2, pad: 2),
        Case(h: 9, w: 20, c: 9, out: 12, kernel: 3, stride: 1, pad: 1),
        Case(h: 12, w: 30, c: 2, out: 8, kernel: 7, stride: 1, pad: 3),
        // 3×3, stride 2, padded, over 4 pixels.
        Case(h: 3, w: 3, c: 64, out: 72, kernel: 3, stride: 2, pad: 1, cutsByColumnsAt: [2]),
    ]

    /// Every instruction set this CPU runs: AVX2 always, AVX-512 VNNI where the CPU has it.
    static let instructionSets: [GeneratedInstructionSet] =
        HostCPU.supportsGeneratedAVX512VNNI ? [.avx2, .avx512] : [.avx2]

    @Test(arguments: cases, [1, 2, 3])
    func int8MatchesReferenceTwin(_ c: Case, threads: Int) throws {
        for instructions in Self.instructionSets {
            try int8MatchesReferenceTwin(c, threads: threads, instructions: instructions)
        }
    }

    private func int8MatchesReferenceTwin(_ c: Case, threads: Int, instructions: GeneratedInstructionSet) throws {
        var random = Random(state: UInt64(c.c * 7919 + c.out * 31 + c.kernel))
        let oh = (c.h + 2 * c.pad - (c.kernel - 1) * c.dilationHeight - 1) / c.stride + 1
        let ow = (c.w + 2 * c.pad - c.kernel) / c.stride + 1
        let g = Conv2DGeometry(
            batch: c.n, inputHeight: c.h, inputWidth: c.w, inputChannels: c.c, outputHeight: oh, outputWidth: ow,
            outputChannels: c.out,
            window: Window2D(
                kernelHeight: c.kernel, kernelWidth: c.kernel, strideHeight: c.stride, strideWidth: c.stride,
                dilationHeight: c.dilationHeight, dilationWidth: 1, paddingTop: c.pad, paddingLeft: c.pad))
        let input = QuantizedKernelTests.int8s(c.n * c.h * c.w * c.c, &random)
        let filter = QuantizedKernelTests.int8s(c.out * c.kernel * c.kernel * c.c, &random)
        let bias = (0..<c.out).map { i in
            i == 0 ? Int32.min : i == 1 ? Int32.max : Int32(Int(random.next() % 200_001) - 100_000)
        }
        // From a right shift of 31 through ordinary scales to just under 1 (shift 0).
        let scales = [4e-10, 0.003, 0.0004, 0.02, 0.9999, 0.5, 0.00007]
        let multipliers = (0..<c.out).map { i in
            let real = scales[i % scales.count] / (1 + Double(i) / 97)
            return QuantizedMultiplier(real, floatScale: Float(real))
        }
        for (zeroPoint, range, rounding) in [
            (Int32(-128), QuantizedRange(lower: -128, upper: 127), RequantizationRounding.ruy),
            (127, .init(lower: -3, upper: 90), .ruy), (-128, .init(lower: -128, upper: 127), .xnnpack),
            (127, .init(lower: -3, upper: 90), .xnnpack),
        ] {
            var expected = [Int8](repeating: 0, count: c.n * oh * ow * c.out)
            Reference.quantizedConv2D(
                geometry: g, input: input, filter: filter, bias: bias, inputZeroPoint: zeroPoint, outputZeroPoint: 9,
                multipliers: multipliers, range: range, rounding: rounding, output: &expected)
            let kernel = QuantizedConv2DKernel(
                geometry: g, filter: filter, bias: bias, inputZeroPoint: zeroPoint, outputZeroPoint: 9,
                multipliers: multipliers, range: range, rounding: rounding, threadCount: threads,
                generatesMachineCode: true, instructions: instructions)
            try #require(kernel.generatedInstructions == instructions)
            #expect(kernel.usesGeneratedGather == (instructions == .avx512 && c.gathersWithGeneratedCode))
            // VNNI panels are 32 channels wide: half as many as AVX2's to share between threads.
            if instructions == .avx2 { #expect(kernel.cutsByColumns == c.cutsByColumnsAt.contains(threads)) }
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: kernel.scratchBytes, alignment: 64)
            defer { scratch.deallocate() }
            // One byte past the output, to catch stores beyond it.
            var actual = [Int8](repeating: 77, count: expected.count + 1)
            kernel.run(input: input, output: &actual, scratch: scratch, pool: ThreadPool(threadCount: threads))
            #expect(actual.last == 77, "\(c.testDescription): wrote past the output")
            #expect(
                Array(actual.dropLast()) == expected,
                "\(c.testDescription) \(rounding) zp \(zeroPoint) threads \(threads) \(instructions)")
        }
    }

    /// uint8 weights with zero point 120 reach 135, beyond int8, so VNNI falls back to AVX2; with zero point 128
    /// every weight fits and VNNI runs where the CPU has it.
    @Test(arguments: [(10, 9), (20, 16), (3, 29), (40, 35)], [1, 2])
    func uint8MatchesReferenceTwin(_ channels: (input: Int, output: Int), threads: Int) throws {
        for (weightZeroPoint, instructions) in [
            (Int32(120), GeneratedInstructionSet.avx2), (128, Self.instructionSets.last ?? .avx2),
        ] {
            try uint8MatchesReferenceTwin(
                channels, threads: threads, weightZeroPoint: weightZeroPoint, instructions: instructions)
        }
    }

    private func uint8MatchesReferenceTwin(
        _ channels: (input: Int, output: Int), threads: Int, weightZeroPoint: Int32,
        instructions: GeneratedInstructionSet
    ) throws {
        var random = Random(state: UInt64(channels.input * 100 + channels.output))
        let g = Conv2DGeometry(
            batch: 1, inputHeight: 6, inputWidth: 7, inputChannels: channels.input, outputHeight: 6, outputWidth: 7,
            outputChannels: channels.output,
            window: Window2D(
                kernelHeight: 3, kernelWidth: 3, strideHeight: 1, strideWidth: 1, dilationHeight: 1, dilationWidth: 1,
                paddingTop: 1, paddingLeft: 1))
        let input = (0..<(6 * 7 * channels.input)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let filter = (0..<(channels.output * 9 * channels.input)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let bias = (0..<channels.output).map { _ in Int32(Int(random.next() % 20_001) - 10_000) }
        let multipliers = [QuantizedMultiplier(0.0004)]
        let range = QuantizedRange(lower: 3, upper: 250)
        var expected = [UInt8](repeating: 0, count: 6 * 7 * channels.output)
        Reference.quantizedConv2D(
            geometry: g, input: input, filter: filter, bias: bias, inputZeroPoint: 140,
            weightZeroPoint: weightZeroPoint,
            outputZeroPoint: 128, multipliers: multipliers, range: range, rounding: .ruy, output: &expected)
        let kernel = QuantizedConv2DKernel(
            geometry: g, weight: { Int32(filter[$0]) - weightZeroPoint }, bias: bias, inputZeroPoint: 140,
            outputZeroPoint: 128, multipliers: multipliers, range: range, unsigned: true, threadCount: threads,
            generatesMachineCode: true, instructions: .avx512)
        try #require(kernel.generatedInstructions == instructions)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: kernel.scratchBytes, alignment: 64)
        defer { scratch.deallocate() }
        var actual = [Int8](repeating: 0, count: expected.count)
        input.withUnsafeBytes { bytes in
            kernel.run(
                input: bytes.baseAddress!.assumingMemoryBound(to: Int8.self), output: &actual, scratch: scratch,
                pool: ThreadPool(threadCount: threads))
        }
        #expect(actual.map { UInt8(bitPattern: $0) } == expected, "weight zero point \(weightZeroPoint)")
    }

    /// A multiplier above 1 (a left shift) keeps the Swift path, which handles it.
    @Test func leftShiftKeepsSwiftPath() {
        let g = Conv2DGeometry(
            batch: 1, inputHeight: 2, inputWidth: 2, inputChannels: 3, outputHeight: 2, outputWidth: 2,
            outputChannels: 4,
            window: .pointwise)
        let filter = [Int8](repeating: 1, count: 12)
        let kernel = QuantizedConv2DKernel(
            geometry: g, filter: filter, bias: nil, inputZeroPoint: 0, outputZeroPoint: 0,
            multipliers: [QuantizedMultiplier(2.5)], range: QuantizedRange(lower: -128, upper: 127),
            generatesMachineCode: true)
        #expect(!kernel.usesGeneratedCode)
    }
}
