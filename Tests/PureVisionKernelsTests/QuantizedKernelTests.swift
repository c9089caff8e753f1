import PureVisionKernels
import Testing

/// The int8 conv GEMM and depthwise kernels against their scalar reference twins (odd shapes, extreme scales,
/// weights of −128, several threads), and the fixed-point multiplier against exact rational arithmetic.
@Suite struct QuantizedKernelTests {
    static func int8s(_ count: Int, _ random: inout Random, lower: Int = -128) -> [Int8] {
        (0..<count).map { _ in Int8(Int(random.next() % UInt64(128 - lower)) + lower) }
    }

    struct ConvCase: Sendable, CustomTestStringConvertible {
        var shape: (n: Int, h: Int, w: Int, c: Int)
        var out: Int, kernel: Int, stride: Int, dilation: Int, pad: Int
        var realMultiplier: Double
        var minimumWeights: Bool
        var testDescription: String {
            "\(shape) → \(out), k\(kernel) s\(stride) d\(dilation) p\(pad), ×\(realMultiplier)\(minimumWeights ? ", −128 weights" : "")"
        }
    }

    static let convCases: [ConvCase] = [
        ConvCase(
            shape: (1, 7, 9, 3), out: 5, kernel: 3, stride: 1, dilation: 1, pad: 1, realMultiplier: 0.003,
            minimumWeights: false),
        ConvCase(
            shape: (2, 9, 8, 17), out: 19, kernel: 3, stride: 2, dilation: 1, pad: 0, realMultiplier: 0.0007,
            minimumWeights: false),
        ConvCase(
            shape: (1, 6, 7, 13), out: 9, kernel: 1, stride: 1, dilation: 1, pad: 0, realMultiplier: 0.01,
            minimumWeights: true),
        ConvCase(
            shape: (1, 11, 10, 4), out: 8, kernel: 5, stride: 1, dilation: 2, pad: 4, realMultiplier: 2.5,
            minimumWeights: false),
        ConvCase(
            shape: (1, 5, 5, 1), out: 3, kernel: 3, stride: 1, dilation: 1, pad: 1, realMultiplier: 1e-9,
            minimumWeights: true),
        ConvCase(
            shape: (3, 4, 3, 33), out: 17, kernel: 2, stride: 2, dilation: 1, pad: 1, realMultiplier: 0.00002,
            minimumWeights: false),
        // 1×1 over two images: the float path converts the pixels in place, across the image boundary.
        ConvCase(
            shape: (2, 5, 4, 19), out: 23, kernel: 1, stride: 1, dilation: 1, pad: 0, realMultiplier: 0.004,
            minimumWeights: false),
    ]

    /// The Swift path's arithmetics: int16, and float through GEMM and through the micro-kernel (exact for every
    /// case here).
    static let swiftArithmetics: [QuantizedGEMMArithmetic] = [.integer, .exactFloat, .exactFloatMicroKernel]

    @Test(arguments: convCases, [1, 3])
    func convMatchesReferenceTwin(_ c: ConvCase, threads: Int) {
        for arithmetic in Self.swiftArithmetics { convMatchesReferenceTwin(c, threads: threads, arithmetic) }
    }

    /// - Parameter cutsByColumns: when given, whether each kernel made must share a run's output channels among its
    ///   tasks instead of its pixels.
    func convMatchesReferenceTwin(
        _ c: ConvCase, threads: Int, _ arithmetic: QuantizedGEMMArithmetic, cutsByColumns: Bool? = nil
    ) {
        var random = Random(state: UInt64(c.shape.c * 131 + c.out))
        let oh = (c.shape.h + 2 * c.pad - ((c.kernel - 1) * c.dilation + 1)) / c.stride + 1
        let ow = (c.shape.w + 2 * c.pad - ((c.kernel - 1) * c.dilation + 1)) / c.stride + 1
        let g = Conv2DGeometry(
            batch: c.shape.n, inputHeight: c.shape.h, inputWidth: c.shape.w, inputChannels: c.shape.c, outputHeight: oh,
            outputWidth: ow, outputChannels: c.out,
            window: Window2D(
                kernelHeight: c.kernel, kernelWidth: c.kernel, strideHeight: c.stride, strideWidth: c.stride,
                dilationHeight: c.dilation, dilationWidth: c.dilation, paddingTop: c.pad, paddingLeft: c.pad))
        let input = Self.int8s(c.shape.n * c.shape.h * c.shape.w * c.shape.c, &random)
        let filter = Self.int8s(c.out * c.kernel * c.kernel * c.shape.c, &random, lower: c.minimumWeights ? -128 : -127)
        let bias = (0..<c.out).map { i in i == 0 ? Int32.min : Int32(Int(random.next() % 200_001) - 100_000) }
        let multipliers = (0..<c.out).map { i in
            let real = c.realMultiplier * (1 + Double(i) / 7)
            return QuantizedMultiplier(real, floatScale: Float(real))
        }
        let range = QuantizedRange(lower: -100, upper: 120)
        var expected = [Int8](repeating: 0, count: g.batch * oh * ow * c.out)
        var actual = expected
        for rounding in [RequantizationRounding.ruy, .double, .xnnpack] {
            Reference.quantizedConv2D(
                geometry: g, input: input, filter: filter, bias: bias, inputZeroPoint: -7, outputZeroPoint: 5,
                multipliers: multipliers, range: range, rounding: rounding, output: &expected)
            let kernel = QuantizedConv2DKernel(
                geometry: g, filter: filter, bias: bias, inputZeroPoint: -7, outputZeroPoint: 5,
                multipliers: multipliers, range: range, rounding: rounding, threadCount: threads,
                arithmetic: arithmetic)
            #expect(kernel.multipliesInFloat == (arithmetic != .integer))
            #expect(kernel.multipliesWithMicroKernel == (arithmetic == .exactFloatMicroKernel))
            if let cutsByColumns {
                #expect(kernel.cutsByColumns == cutsByColumns, "\(c.testDescription) on \(threads) thread(s)")
            }
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: kernel.scratchBytes, alignment: 64)
            defer { scratch.deallocate() }
            let pool = ThreadPool(threadCount: threads)
            kernel.run(input: input, output: &actual, scratch: scratch, pool: pool)
            #expect(actual == expected, "\(c.testDescription) \(rounding) \(arithmetic)")
        }
    }

    /// The packed-pair GEMM on odd channel counts (both sides of the 8-lane block and of the k pairs), 1×1 and 3×3,
    /// stride 1 and 2, extreme input zero points and 1–3 threads.
    @Test(arguments: [1, 7, 8, 9, 17], [(1, 1), (1, 2), (3, 1), (3, 2)])
    func convOddChannelsMatchReferenceTwin(_ channels: Int, _ shape: (kernel: Int, stride: Int)) {
        var random = Random(state: UInt64(channels * 1009 + shape.kernel * 10 + shape.stride))
        let (n, h, w, pad) = (1, 7, 6, shape.kernel / 2)
        let out = [1, 8, 9, 17][(channels + shape.kernel + shape.stride) % 4]
        let oh = (h + 2 * pad - shape.kernel) / shape.stride + 1
        let ow = (w + 2 * pad - shape.kernel) / shape.stride + 1
        let g = Conv2DGeometry(
            batch: n, inputHeight: h, inputWidth: w, inputChannels: channels, outputHeight: oh, outputWidth: ow,
            outputChannels: out,
            window: Window2D(
                kernelHeight: shape.kernel, kernelWidth: shape.kernel, strideHeight: shape.stride,
                strideWidth: shape.stride, dilationHeight: 1, dilationWidth: 1, paddingTop: pad, paddingLeft: pad))
        let input = Self.int8s(n * h * w * channels, &random)
        let filter = Self.int8s(out * shape.kernel * shape.kernel * channels, &random)
        let bias = (0..<out).map { _ in Int32(Int(random.next() % 200_001) - 100_000) }
        let multipliers = (0..<out).map { i in QuantizedMultiplier(0.002 * (1 + Double(i) / 5)) }
        let range = QuantizedRange(lower: -128, upper: 127)
        for zeroPoint: Int32 in [-128, 127, 0] {
            var expected = [Int8](repeating: 0, count: n * oh * ow * out)
            Reference.quantizedConv2D(
                geometry: g, input: input, filter: filter, bias: bias, inputZeroPoint: zeroPoint, outputZeroPoint: -2,
                multipliers: multipliers, range: range, rounding: .ruy, output: &expected)
            for threads in 1...3 {
                for arithmetic in Self.swiftArithmetics {
                    let kernel = QuantizedConv2DKernel(
                        geometry: g, filter: filter, bias: bias, inputZeroPoint: zeroPoint, outputZeroPoint: -2,
                        multipliers: multipliers, range: range, rounding: .ruy, threadCount: threads,
                        arithmetic: arithmetic)
                    let scratch = UnsafeMutableRawPointer.allocate(byteCount: kernel.scratchBytes, alignment: 64)
                    defer { scratch.deallocate() }
                    var actual = [Int8](repeating: 0, count: expected.count)
                    kernel.run(input: input, output: &actual, scratch: scratch, pool: ThreadPool(threadCount: threads))
                    #expect(
                        actual == expected,
                        "c\(channels) → \(out) \(shape) zp \(zeroPoint) threads \(threads) \(arithmetic)")
                }
            }
        }
    }

    /// The integer path's blocks of 8 channels in the groups its loops take them (pairs where built for AVX2, fours
    /// for a tile of one row, then the ones left over), every rounding, with short last tiles of 3 rows (15 pixels)
    /// and of 1 row (9 pixels): 2–6 blocks, the last one full or partial.
    @Test(arguments: [16, 24, 31, 33, 40, 47], [5, 3])
    func convBlockGroupsMatchReferenceTwin(_ out: Int, height: Int) {
        let c = ConvCase(
            shape: (1, height, 3, 13), out: out, kernel: 3, stride: 1, dilation: 1, pad: 1, realMultiplier: 0.003,
            minimumWeights: false)
        for threads in [1, 2] { convMatchesReferenceTwin(c, threads: threads, .integer) }
    }

    /// The BLAS path with few pixels per task: its tasks take runs of whole 8-channel blocks (the last one short for
    /// 9 and 44 channels) over every pixel, instead of a few pixels each, and give the reference's bits.
    @Test(arguments: [9, 44, 64], [1, 2, 3])
    func blasColumnPartsMatchReferenceTwin(_ out: Int, threads: Int) {
        let c = ConvCase(
            shape: (1, 7, 7, 20), out: out, kernel: 3, stride: 1, dilation: 1, pad: 1, realMultiplier: 0.002,
            minimumWeights: false)
        convMatchesReferenceTwin(c, threads: threads, .exactFloat, cutsByColumns: threads > 1)
    }

    /// One output pixel (a fully connected layer) on the integer path: its threads share the weight blocks (runs of
    /// four, the last with the 3-channel tail of 259) and give the reference's bits.
    @Test(arguments: [1, 2, 3])
    func oneRowBlockPartsMatchReferenceTwin(threads: Int) {
        let c = ConvCase(
            shape: (1, 1, 1, 1024), out: 259, kernel: 1, stride: 1, dilation: 1, pad: 0, realMultiplier: 0.0002,
            minimumWeights: false)
        convMatchesReferenceTwin(c, threads: threads, .integer, cutsByColumns: threads > 1)
    }

    /// TFLite's uint8 scheme: uint8 activations and weights with a weight zero point (weights − zero point up to
    /// ±255, products beyond int8 × int8).
    @Test(arguments: [1, 2], swiftArithmetics)
    func uint8ConvMatchesReferenceTwin(threads: Int, arithmetic: QuantizedGEMMArithmetic) {
        var random = Random(state: 2024)
        let g = Conv2DGeometry(
            batch: 1, inputHeight: 6, inputWidth: 7, inputChannels: 11, outputHeight: 6, outputWidth: 7,
            outputChannels: 10,
            window: Window2D(
                kernelHeight: 3, kernelWidth: 3, strideHeight: 1, strideWidth: 1, dilationHeight: 1, dilationWidth: 1,
                paddingTop: 1, paddingLeft: 1))
        let input = (0..<(6 * 7 * 11)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let filter = (0..<(10 * 9 * 11)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let bias = (0..<10).map { _ in Int32(Int(random.next() % 20_001) - 10_000) }
        let multipliers = [QuantizedMultiplier(0.0004)]
        let range = QuantizedRange(lower: 3, upper: 250)
        var expected = [UInt8](repeating: 0, count: 6 * 7 * 10)
        Reference.quantizedConv2D(
            geometry: g, input: input, filter: filter, bias: bias, inputZeroPoint: 140, weightZeroPoint: 120,
            outputZeroPoint: 128, multipliers: multipliers, range: range, rounding: .ruy, output: &expected)
        let kernel = QuantizedConv2DKernel(
            geometry: g, weight: { Int32(filter[$0]) - 120 }, bias: bias, inputZeroPoint: 140, outputZeroPoint: 128,
            multipliers: multipliers, range: range, unsigned: true, threadCount: threads, arithmetic: arithmetic)
        #expect(kernel.multipliesInFloat == (arithmetic != .integer))
        #expect(kernel.multipliesWithMicroKernel == (arithmetic == .exactFloatMicroKernel))
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: kernel.scratchBytes, alignment: 64)
        defer { scratch.deallocate() }
        var actual = [Int8](repeating: 0, count: expected.count)
        input.withUnsafeBytes { bytes in
            kernel.run(
                input: bytes.baseAddress!.assumingMemoryBound(to: Int8.self), output: &actual, scratch: scratch,
                pool: ThreadPool(threadCount: threads))
        }
        #expect(actual.map { UInt8(bitPattern: $0) } == expected)
    }

    /// The float path's exactness bound at its edge: weights and inputs of −128 and −127, so that a channel's sum
    /// reaches 128 · Σ|w|; each bias cancels all but a small remainder, which a multiplier of 1/2 halves into the
    /// output, so a unit lost to float rounding would show. At depth 1024 with −128 weights the bound is exactly 2^24 and the float path
    /// runs; one more input channel and the kernel must keep int16.
    @Test(arguments: [(1024, true), (1025, false), (1100, false)])
    func floatPathStopsAtTheExactnessBound(_ depth: Int, floatAllowed: Bool) {
        var random = Random(state: UInt64(depth))
        let (pixels, out) = (24, 11)
        let g = Conv2DGeometry(
            batch: 1, inputHeight: 4, inputWidth: 6, inputChannels: depth, outputHeight: 4, outputWidth: 6,
            outputChannels: out,
            window: .pointwise)
        // Pixel 0's values, −128 or −127; every other pixel the same with one value toggled, so that its sums stay
        // within a weight of pixel 0's and its outputs within range too.
        let first = (0..<depth).map { _ in Int8(-128 + Int(random.next() % 2)) }
        let input = (0..<(pixels * depth)).map { i in
            let (p, k) = (i / depth, i % depth)
            return p > 0 && k == (p * 37) % depth ? first[k] ^ 1 : first[k]
        }
        // Channel 0 all −128 (the bound's worst case); the others −128 or −127.
        let filter = (0..<(out * depth)).map { i in Int8(i < depth ? -128 : -128 + Int(random.next() % 2)) }
        let bias = (0..<out).map { o -> Int32 in
            var sum: Int64 = 0
            for k in 0..<depth { sum += Int64(input[k]) * Int64(filter[o * depth + k]) }
            return Int32(-sum + Int64(random.next() % 101) - 50)
        }
        let multipliers = [QuantizedMultiplier(0.5, floatScale: 0.5)]
        let range = QuantizedRange(lower: -128, upper: 127)
        for rounding in [RequantizationRounding.ruy, .xnnpack] {
            for arithmetic in [QuantizedGEMMArithmetic.exactFloat, .exactFloatMicroKernel] {
                checkAtBound(rounding: rounding, arithmetic: arithmetic)
            }
        }
        func checkAtBound(rounding: RequantizationRounding, arithmetic: QuantizedGEMMArithmetic) {
            var expected = [Int8](repeating: 0, count: pixels * out)
            Reference.quantizedConv2D(
                geometry: g, input: input, filter: filter, bias: bias, inputZeroPoint: 0, outputZeroPoint: 0,
                multipliers: multipliers, range: range, rounding: rounding, output: &expected)
            let kernel = QuantizedConv2DKernel(
                geometry: g, filter: filter, bias: bias, inputZeroPoint: 0, outputZeroPoint: 0,
                multipliers: multipliers,
                range: range, rounding: rounding, arithmetic: arithmetic)
            #expect(kernel.multipliesInFloat == floatAllowed)
            #expect(kernel.multipliesWithMicroKernel == (floatAllowed && arithmetic == .exactFloatMicroKernel))
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: kernel.scratchBytes, alignment: 64)
            defer { scratch.deallocate() }
            var actual = [Int8](repeating: 0, count: expected.count)
            kernel.run(input: input, output: &actual, scratch: scratch, pool: ThreadPool(threadCount: 1))
            #expect(actual == expected, "depth \(depth) \(rounding) \(arithmetic)")
            #expect(Set(expected).count > 10, "the remainders reach the output")
            #expect(expected.filter { $0 == -128 || $0 == 127 }.isEmpty, "no output saturates")
        }
    }

    @Test(arguments: [(16, 1, 1, 3), (13, 1, 2, 5), (3, 2, 1, 3), (24, 1, 1, 5), (1, 3, 2, 3)], [1, 2])
    func depthwiseMatchesReferenceTwin(
        _ shape: (channels: Int, multiplier: Int, stride: Int, kernel: Int), threads: Int
    ) {
        var random = Random(state: UInt64(shape.channels * 17 + shape.multiplier))
        let (h, w, c, k) = (9, 8, shape.channels, shape.kernel)
        let out = c * shape.multiplier
        let pad = k / 2
        let oh = (h + 2 * pad - k) / shape.stride + 1
        let ow = (w + 2 * pad - k) / shape.stride + 1
        let g = DepthwiseConv2DGeometry(
            convolution: Conv2DGeometry(
                batch: 1, inputHeight: h, inputWidth: w, inputChannels: c, outputHeight: oh, outputWidth: ow,
                outputChannels: out,
                window: Window2D(
                    kernelHeight: k, kernelWidth: k, strideHeight: shape.stride, strideWidth: shape.stride,
                    dilationHeight: 1, dilationWidth: 1, paddingTop: pad, paddingLeft: pad)))
        let input = Self.int8s(h * w * c, &random)
        let filter = Self.int8s(k * k * out, &random)
        let bias = (0..<out).map { _ in Int32(Int(random.next() % 20_001) - 10_000) }
        let multipliers = (0..<out).map { i in
            let real = 0.0009 * (1 + Double(i % 5))
            return QuantizedMultiplier(real, floatScale: Float(real))
        }
        let range = QuantizedRange(lower: -128, upper: 127)
        for zeroPoint: Int32 in [127, -128, 3] {
            for rounding in [RequantizationRounding.channelBlocksOf8, .xnnpack] {
                var expected = [Int8](repeating: 0, count: oh * ow * out)
                var actual = expected
                Reference.quantizedDepthwiseConv2D(
                    geometry: g, input: input, filter: filter, bias: bias, inputZeroPoint: zeroPoint,
                    outputZeroPoint: -3, multipliers: multipliers, range: range, rounding: rounding, output: &expected)
                let kernel = QuantizedDepthwiseConv2DKernel(
                    geometry: g, filter: filter, bias: bias, inputZeroPoint: zeroPoint, outputZeroPoint: -3,
                    multipliers: multipliers, range: range, rounding: rounding, threadCount: threads)
                let scratch = UnsafeMutableRawPointer.allocate(byteCount: max(kernel.scratchBytes, 1), alignment: 64)
                defer { scratch.deallocate() }
                kernel.run(input: input, output: &actual, scratch: scratch, pool: ThreadPool(threadCount: threads))
                #expect(
                    actual == expected,
                    "channels \(c) multiplier \(shape.multiplier) zero point \(zeroPoint) \(rounding)")
            }
        }
    }

    /// The Swift depthwise loop over staged rows on the generated code's cases: 3×3 and 5×5, strides, dilation,
    /// padding, extreme zero points, biases and multipliers, every rounding, 1–3 threads; and uint8.
    @Test(arguments: QuantizedDepthwiseMachineCodeTests.cases, [1, 3])
    func stagedDepthwiseMatchesReferenceTwin(_ c: QuantizedDepthwiseMachineCodeTests.Case, threads: Int) throws {
        try QuantizedDepthwiseMachineCodeTests.checkInt8(c, threads: threads, generated: false)
    }

    @Test(arguments: [8, 21, 32])
    func stagedUInt8DepthwiseMatchesReferenceTwin(_ channels: Int) throws {
        try QuantizedDepthwiseMachineCodeTests.checkUInt8(channels: channels, threads: 2, generated: false)
    }

    /// A kernel made for `made` threads, run on a pool of `runs` threads: scratch has one slot per thread the kernel
    /// was made for, so a larger pool must fall back to the caller's thread and a smaller one use fewer slots; the
    /// output is the reference's either way (conv and depthwise, Swift and generated code, tasks finer than threads).
    @Test(arguments: [(2, 4), (2, 1), (3, 2), (1, 2)], [false, true])
    func poolOtherThanMadeForMatchesReferenceTwin(_ threads: (made: Int, runs: Int), generated: Bool) {
        var random = Random(state: UInt64(threads.made * 10 + threads.runs))
        let (h, w, c, out) = (23, 9, 13, 19)
        let conv = Conv2DGeometry(
            batch: 1, inputHeight: h, inputWidth: w, inputChannels: c, outputHeight: h, outputWidth: w,
            outputChannels: out,
            window: Window2D(
                kernelHeight: 3, kernelWidth: 3, strideHeight: 1, strideWidth: 1, dilationHeight: 1, dilationWidth: 1,
                paddingTop: 1, paddingLeft: 1))
        let depthwise = DepthwiseConv2DGeometry(
            convolution: Conv2DGeometry(
                batch: 1, inputHeight: h, inputWidth: w, inputChannels: c, outputHeight: h, outputWidth: w,
                outputChannels: c,
                window: Window2D(
                    kernelHeight: 3, kernelWidth: 3, strideHeight: 1, strideWidth: 1, dilationHeight: 1,
                    dilationWidth: 1, paddingTop: 1, paddingLeft: 1)))
        let input = Self.int8s(h * w * c, &random)
        let convFilter = Self.int8s(out * 9 * c, &random, lower: -127)
        let depthwiseFilter = Self.int8s(9 * c, &random, lower: -127)
        let bias = (0..<out).map { _ in Int32(Int(random.next() % 20_001) - 10_000) }
        let multipliers = (0..<out).map { i in QuantizedMultiplier(0.001 * (1 + Double(i % 5))) }
        let range = QuantizedRange(lower: -128, upper: 127)
        let pool = ThreadPool(threadCount: threads.runs)

        var expected = [Int8](repeating: 0, count: h * w * out)
        Reference.quantizedConv2D(
            geometry: conv, input: input, filter: convFilter, bias: bias, inputZeroPoint: 4, outputZeroPoint: -1,
            multipliers: multipliers, range: range, rounding: .ruy, output: &expected)
        let convKernel = QuantizedConv2DKernel(
            geometry: conv, filter: convFilter, bias: bias, inputZeroPoint: 4, outputZeroPoint: -1,
            multipliers: multipliers, range: range, rounding: .ruy, threadCount: threads.made,
            generatesMachineCode: generated)
        var scratch = UnsafeMutableRawPointer.allocate(byteCount: convKernel.scratchBytes, alignment: 64)
        var actual = [Int8](repeating: 0, count: expected.count)
        convKernel.run(input: input, output: &actual, scratch: scratch, pool: pool)
        scratch.deallocate()
        #expect(actual == expected, "conv made for \(threads.made) threads, run on \(threads.runs)")

        let depthwiseMultipliers = Array(multipliers.prefix(c))
        expected = [Int8](repeating: 0, count: h * w * c)
        Reference.quantizedDepthwiseConv2D(
            geometry: depthwise, input: input, filter: depthwiseFilter, bias: Array(bias.prefix(c)),
            inputZeroPoint: 4, outputZeroPoint: -1, multipliers: depthwiseMultipliers, range: range,
            rounding: .channelBlocksOf8, output: &expected)
        let depthwiseKernel = QuantizedDepthwiseConv2DKernel(
            geometry: depthwise, filter: depthwiseFilter, bias: Array(bias.prefix(c)), inputZeroPoint: 4,
            outputZeroPoint: -1, multipliers: depthwiseMultipliers, range: range, threadCount: threads.made,
            generatesMachineCode: generated)
        scratch = UnsafeMutableRawPointer.allocate(byteCount: max(depthwiseKernel.scratchBytes, 1), alignment: 64)
        defer { scratch.deallocate() }
        actual = [Int8](repeating: 0, count: expected.count)
        depthwiseKernel.run(input: input, output: &actual, scratch: scratch, pool: pool)
        #expect(actual == expected, "depthwise made for \(threads.made) threads, run on \(threads.runs)")
    }

    /// `QuantizedMultiplier` represents the real to 31 bits, and both requantizations stay within one step of the
    /// exactly rounded product (they differ from it only on near-ties).
    @Test func multiplierMatchesExactArithmetic() {
        var random = Random(state: 99)
        for exponent in stride(from: -40, through: 8, by: 3) {
            let real = Double(1 + random.next() % 1000) / 1000 * Double.pow2(exponent)
            let m = QuantizedMultiplier(real)
            if real < Double.pow2(-32) {
                // frexp's exponent is below −31: TFLite flushes the multiplier to zero.
                #expect(m == QuantizedMultiplier(multiplier: 0, shift: 0), "\(real): \(m)")
                continue
            }
            let represented = Double(m.multiplier) * Double.pow2(m.shift - 31)
            #expect(abs(represented - real) <= real * 1e-9, "\(real): \(m)")
            #expect(m.multiplier >= 1 << 30 && m.shift <= 30)
            for _ in 0..<200 {
                let x = Int32(truncatingIfNeeded: Int64(random.next() % (1 << 22)) - (1 << 21))
                guard abs(Double(x) * real) < 1e9 else { continue }
                let exact = (Double(x) * represented).rounded(.toNearestOrAwayFromZero)
                #expect(abs(Double(m.apply(x)) - exact) <= 1, "\(x) × \(real)")
                #expect(abs(Double(m.applyRuy(x)) - exact) <= 1, "\(x) × \(real) (ruy)")
            }
        }
        #expect(QuantizedMultiplier(0.5) == QuantizedMultiplier(multiplier: 1 << 30, shift: 0))
        #expect(QuantizedMultiplier(0) == QuantizedMultiplier(multiplier: 0, shift: 0))
        // Ties of the final shift: ±6 × 0.25 = ±1.5 rounds away from zero (gemmlowp) or toward +∞ (ruy / NEON).
        let quarter = QuantizedMultiplier(0.25)
        #expect(quarter == QuantizedMultiplier(multiplier: 1 << 30, shift: -1))
        #expect(quarter.apply(6) == 2 && quarter.apply(-6) == -2)
        #expect(quarter.applyRuy(6) == 2 && quarter.applyRuy(-6) == -1)
    }
}

extension Double {
    fileprivate static func pow2(_ exponent: Int) -> Double { Double(sign: .plus, exponent: exponent, significand: 1) }
}
