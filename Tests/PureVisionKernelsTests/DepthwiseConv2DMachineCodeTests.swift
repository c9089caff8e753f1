import PureVisionKernels
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The depthwise kernel with generated AVX2 code for its rows, against `Reference` (bit for bit); where the CPU has
/// it, with AVX-512 code as well (blocks of 16 channels, a partial last block overlapping the one before).
struct DepthwiseConv2DMachineCodeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var geometry: DepthwiseConv2DGeometry
        var clamp: ClampRange
        var testDescription: String {
            let g = geometry.convolution
            return "n\(g.batch) \(g.inputHeight)x\(g.inputWidth)x\(g.inputChannels)"
                + " k\(g.window.kernelHeight)x\(g.window.kernelWidth) s\(g.window.strideHeight)x\(g.window.strideWidth)"
                + " d\(g.window.dilationHeight)x\(g.window.dilationWidth) p\(g.window.paddingTop),\(g.window.paddingLeft)"
                + " out\(g.outputHeight)x\(g.outputWidth) clamp\(clamp)"
        }
    }

    /// A multiplier-1 geometry with `outputWidth` columns and `outputHeight` rows under TFLite's SAME padding
    /// (`same`) or VALID.
    static func geometry(
        batch: Int, outputHeight: Int, outputWidth: Int, channels: Int, kernel: (Int, Int), stride: Int,
        dilation: Int, same: Bool
    ) -> DepthwiseConv2DGeometry {
        let extentHeight = (kernel.0 - 1) * dilation + 1
        let extentWidth = (kernel.1 - 1) * dilation + 1
        // SAME: input = output · stride (TFLite pads max((out − 1) · s + extent − in, 0), the smaller half first).
        // VALID: the smallest input with that output.
        let height = same ? outputHeight * stride : (outputHeight - 1) * stride + extentHeight
        let width = same ? outputWidth * stride : (outputWidth - 1) * stride + extentWidth
        let padTop = same ? max((outputHeight - 1) * stride + extentHeight - height, 0) / 2 : 0
        let padLeft = same ? max((outputWidth - 1) * stride + extentWidth - width, 0) / 2 : 0
        return DepthwiseConv2DGeometry(
            convolution: Conv2DGeometry(
                batch: batch, inputHeight: height, inputWidth: width, inputChannels: channels,
                outputHeight: outputHeight, outputWidth: outputWidth, outputChannels: channels,
                window: Window2D(
                    kernelHeight: kernel.0, kernelWidth: kernel.1, strideHeight: stride, strideWidth: stride,
                    dilationHeight: dilation, dilationWidth: dilation, paddingTop: padTop, paddingLeft: padLeft)))
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        let spatial: [(kernel: (Int, Int), stride: Int, dilation: Int)] = [
            ((3, 3), 1, 1), ((5, 5), 1, 1), ((3, 5), 1, 1), ((3, 3), 2, 1), ((5, 5), 2, 1), ((3, 3), 1, 2),
        ]
        var index = 0
        for s in spatial {
            for channels in [8, 12, 16, 24, 40, 42, 264] {
                for width in [1, 3, 4, 5, 7, 97] {
                    index += 1
                    // Large rows only for the narrower channel counts, to keep the suite fast.
                    if width == 97 && channels == 264 && s.kernel.0 == 3 && s.stride == 1 { continue }
                    cases.append(
                        Case(
                            geometry: geometry(
                                batch: 1 + index % 2, outputHeight: 2 + index % 4, outputWidth: width,
                                channels: channels, kernel: s.kernel, stride: s.stride, dilation: s.dilation,
                                same: index % 3 != 0),
                            clamp: index % 2 == 0 ? .none : .relu6))
                }
            }
        }
        // Padding so deep that some rows have no tap row inside the input (zero filter rows for the code).
        cases.append(
            Case(
                geometry: DepthwiseConv2DTests.geometry(
                    height: 3, width: 9, channels: 16, kernel: (3, 3), padding: (4, 4, 1, 1)),
                clamp: .relu))
        // … and columns with no filter column inside the input.
        cases.append(
            Case(
                geometry: DepthwiseConv2DTests.geometry(
                    batch: 2, height: 4, width: 6, channels: 24, kernel: (3, 3), padding: (1, 1, 4, 5)),
                clamp: .relu6))
        // Wide channel counts with a partial last block, where each channel step sweeps the row.
        for (channels, width, stride) in [(100, 14, 1), (172, 9, 2), (1000, 6, 1)] {
            cases.append(
                Case(
                    geometry: geometry(
                        batch: 1, outputHeight: 4, outputWidth: width, channels: channels, kernel: (5, 5),
                        stride: stride, dilation: 1, same: true),
                    clamp: .relu6))
        }
        // Lower bound only, upper only, both finite and non-zero.
        for (index, clamp) in [
            ClampRange.relu, ClampRange(lower: -.infinity, upper: 0.5), .reluMinus1To1,
        ].enumerated() {
            cases.append(
                Case(
                    geometry: geometry(
                        batch: 1, outputHeight: 3, outputWidth: 11, channels: 8 * (index + 1), kernel: (3, 3),
                        stride: 1, dilation: 1, same: true),
                    clamp: clamp))
        }
        return cases
    }()

    static func data(_ g: DepthwiseConv2DGeometry) -> (input: [Float], filter: [Float], bias: [Float]) {
        var random = SplitMixSource(seed: stableSeed(g) + 23)
        let input = random.floats(
            g.convolution.batch * g.convolution.inputHeight * g.convolution.inputWidth * g.convolution.inputChannels)
        let filter = random.floats(
            g.convolution.window.kernelHeight * g.convolution.window.kernelWidth * g.convolution.outputChannels)
        return (input, filter, random.floats(g.convolution.outputChannels))
    }

    /// `Reference.depthwiseConv2D` of `g` on the given data, in XNNPACK's arithmetic (the generated code's).
    static func reference(
        _ g: DepthwiseConv2DGeometry, input: [Float], filter: [Float], bias: [Float], clamp: ClampRange
    ) -> [Float] {
        var expected = [Float](
            repeating: .nan,
            count: g.convolution.batch * g.convolution.outputHeight * g.convolution.outputWidth
                * g.convolution.outputChannels)
        expected.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            Reference.depthwiseConv2D(
                geometry: g, input: input, filter: filter, bias: bias, output: pointer, clamp: clamp,
                arithmetic: .xnnpack)
        }
        return expected
    }

    /// The generated kernel for case `c` uses generated code and, on each of `pools`, equals the reference bit for
    /// bit (same taps, same order: filter column outer, one fused multiply-add each).
    static func expectBitwiseReference(_ c: Case, pools: [ThreadPool]) {
        let g = c.geometry
        let (input, filter, bias) = data(g)
        let expected = reference(g, input: input, filter: filter, bias: bias, clamp: c.clamp)
        for instructions in GeneratedCode.instructionSets {
            let kernel = DepthwiseConv2DKernel(
                geometry: g, filter: filter, bias: bias, clamp: c.clamp, generatesMachineCode: true,
                instructions: instructions)
            #expect(
                kernel.generatedInstructions
                    == expectedInstructions(instructions, channels: g.convolution.outputChannels))
            for pool in pools {
                let actual = DepthwiseConv2DTests.runKernel(kernel, input: input, pool: pool)
                expectBitIdentical(actual, expected, "\(c) threads=\(pool.threadCount) \(instructions)")
            }
        }
    }

    /// What the generated rows run when `instructions` is asked for: AVX-512 needs 16 channels.
    static func expectedInstructions(_ instructions: GeneratedInstructionSet, channels: Int) -> GeneratedInstructionSet
    {
        instructions == .avx512 && channels >= 16 ? .avx512 : .avx2
    }

    @Test(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment), arguments: cases)
    func generatedMatchesReference(_ c: Case) {
        Self.expectBitwiseReference(c, pools: [ThreadPool.serial, ThreadPool(threadCount: 2)])
    }

    /// Small and wide maps as efficientnet and the face models have them: every row width 1 … 9, 13 and 14 (short
    /// rows unrolled whole, border columns grouped with interior ones, channel steps sweeping all rows), channel
    /// counts with and without a partial last block up to 672, 3×3 and 5×5, strides 1 and 2, SAME and VALID.
    static let rowGroupCases: [Case] = {
        var cases: [Case] = []
        var index = 0
        for width in [1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14] {
            for channels in [8, 9, 16, 24, 672] {
                for kernel in [3, 5] {
                    for stride in [1, 2] {
                        index += 1
                        cases.append(
                            Case(
                                geometry: geometry(
                                    batch: 1 + index % 2, outputHeight: 1 + index % 5, outputWidth: width,
                                    channels: channels, kernel: (kernel, kernel), stride: stride, dilation: 1,
                                    same: index % 4 != 0),
                                clamp: index % 3 == 0 ? .none : .relu6))
                    }
                }
            }
        }
        return cases
    }()

    @Test(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment), arguments: rowGroupCases)
    func rowGroupsMatchReference(_ c: Case) {
        Self.expectBitwiseReference(c, pools: [ThreadPool.serial, Self.twoThreads, Self.threeThreads])
    }

    static let twoThreads = ThreadPool(threadCount: 2)
    static let threeThreads = ThreadPool(threadCount: 3)

    /// Both loop orders occur with each way of walking a row: unrolled whole (every row-group case, at most 16
    /// columns) and looping over interior groups (the 97-column cases).
    @Test(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment))
    func rowGroupCasesCoverTheirPaths() throws {
        var seen = Set<[Bool]>()
        for c in Self.rowGroupCases + Self.cases {
            let (_, filter, bias) = Self.data(c.geometry)
            let code = try #require(
                DepthwiseConv2DMachineCode(geometry: c.geometry, clamp: c.clamp, filter: filter, bias: bias))
            #expect(code.sweepsRows == code.channelsOutermost)
            if c.geometry.convolution.outputWidth <= 16 { #expect(code.loopedColumns.isEmpty, "\(c)") }
            seen.insert([code.channelsOutermost, code.loopedColumns.isEmpty])
        }
        #expect(seen == [[false, false], [false, true], [true, false], [true, true]])
    }

    /// The cases run both loop orders (pixel groups outermost, channel steps outermost), with and without a partial
    /// last channel block.
    @Test(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment))
    func casesCoverBothLoopOrders() throws {
        var seen = Set<[Bool]>()
        for c in Self.cases {
            let (_, filter, bias) = Self.data(c.geometry)
            let code = try #require(
                DepthwiseConv2DMachineCode(geometry: c.geometry, clamp: c.clamp, filter: filter, bias: bias))
            seen.insert([code.channelsOutermost, c.geometry.convolution.outputChannels % 8 == 0])
        }
        #expect(seen == [[false, false], [false, true], [true, false], [true, true]])
    }

    /// A fused residual ADD + PRELU + RELU6 after the generated rows equals the same epilogue after the Swift rows
    /// (the 672- and 264-channel cases sweep rows, the epilogue following each thread's range).
    @Test(
        .enabled(if: GeneratedCode.runs, GeneratedCode.skipComment),
        arguments: [(8, 1), (40, 2), (24, 1), (672, 1), (264, 2)])
    func epilogueFollowsGeneratedRows(channels: Int, stride: Int) {
        let g = Self.geometry(
            batch: 2, outputHeight: 5, outputWidth: 13, channels: channels, kernel: (5, 5), stride: stride,
            dilation: 1, same: true)
        let (input, filter, bias) = Self.data(g)
        var random = SplitMixSource(seed: UInt64(channels * 7 + stride))
        let count = g.convolution.batch * g.convolution.outputHeight * g.convolution.outputWidth * channels
        let residual = random.floats(count)
        let alpha = random.floats(channels)
        let epilogue = OutputEpilogue([.addResidual(clamp: .none), .prelu(alpha: alpha), .clamp(.relu6)])
        func run(_ kernel: DepthwiseConv2DKernel, pool: ThreadPool) -> [Float] {
            var output = [Float](repeating: .nan, count: count)
            var scratch: [Float] = [0]
            output.withUnsafeMutableBufferPointer { out in
                scratch.withUnsafeMutableBufferPointer { s in
                    guard let pointer = out.baseAddress, let scratchPointer = s.baseAddress else { return }
                    kernel.run(input: input, output: pointer, residual: residual, scratch: scratchPointer, pool: pool)
                }
            }
            return output
        }
        let swift = DepthwiseConv2DKernel(geometry: g, filter: filter, bias: bias, clamp: .relu)
            .withEpilogue(epilogue)
        let generated = DepthwiseConv2DKernel(
            geometry: g, filter: filter, bias: bias, clamp: .relu, generatesMachineCode: true
        ).withEpilogue(epilogue)
        #expect(generated.usesGeneratedCode)
        #expect(!swift.usesGeneratedCode)
        let expected = run(swift, pool: .serial)
        let code = DepthwiseConv2DMachineCode(geometry: g, clamp: .relu, filter: filter, bias: bias)
        #expect(code?.sweepsRows == (channels >= 264))
        for pool in [ThreadPool.serial, Self.twoThreads, Self.threeThreads] {
            expectNearlyEqual(run(generated, pool: pool), expected, tolerance: 1e-5 * 5, "threads=\(pool.threadCount)")
        }
    }

    /// The generated rows round like XNNPACK's kernels: one fused multiply-add per tap. With input 1 + 2⁻²³, a centre
    /// weight 1 − 2⁻²³ (other weights 0) and bias −1, the exact product is 1 − 2⁻⁴⁶, so every pixel, interior and
    /// SAME-padded border, is exactly −2⁻⁴⁶; a rounded product (LiteRT's builtin kernel) would give 0.
    @Test(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment))
    func roundsLikeFusedMultiplyAdd() {
        let g = Self.geometry(
            batch: 1, outputHeight: 3, outputWidth: 9, channels: 16, kernel: (3, 3), stride: 1, dilation: 1,
            same: true)
        let input = [Float](repeating: 1 + 0x1p-23, count: g.convolution.inputHeight * g.convolution.inputWidth * 16)
        var filter = [Float](repeating: 0, count: 9 * 16)
        for c in 0..<16 { filter[4 * 16 + c] = 1 - 0x1p-23 }
        let bias = [Float](repeating: -1, count: 16)
        let kernel = DepthwiseConv2DKernel(
            geometry: g, filter: filter, bias: bias, clamp: .none, generatesMachineCode: true)
        #expect(kernel.usesGeneratedCode)
        let output = DepthwiseConv2DTests.runKernel(kernel, input: input, pool: .serial)
        for oy in 0..<3 {
            for ox in 0..<9 {
                let pixel = Array(output[((oy * 9 + ox) * 16)..<((oy * 9 + ox + 1) * 16)])
                #expect(pixel == [Float](repeating: -0x1p-46, count: 16), "pixel (\(oy), \(ox))")
            }
        }
    }

    /// Geometries the generator does not take fall back to the Swift path, which still matches the reference.
    @Test func unsupportedGeometriesStaySwift() {
        let geometries = [
            DepthwiseConv2DTests.geometry(height: 5, width: 9, channels: 7, kernel: (3, 3), padding: (1, 1, 1, 1)),
            DepthwiseConv2DTests.geometry(
                height: 5, width: 9, channels: 4, multiplier: 2, kernel: (3, 3), padding: (1, 1, 1, 1)),
        ]
        for g in geometries {
            let (input, filter, bias) = Self.data(g)
            let kernel = DepthwiseConv2DKernel(
                geometry: g, filter: filter, bias: bias, clamp: .relu6, generatesMachineCode: true)
            #expect(!kernel.usesGeneratedCode)
            let expected = Self.reference(g, input: input, filter: filter, bias: bias, clamp: .relu6)
            let actual = DepthwiseConv2DTests.runKernel(kernel, input: input, pool: .serial)
            expectNearlyEqual(actual, expected, tolerance: 1e-5 * 3, "\(g)")
        }
        let supported = DepthwiseConv2DTests.geometry(height: 5, width: 9, channels: 8, kernel: (3, 3))
        let filter = [Float](repeating: 1, count: 9 * 8)
        #expect(
            DepthwiseConv2DKernel(geometry: supported, filter: filter, bias: nil, clamp: .none).usesGeneratedCode
                == false)
        #expect(
            DepthwiseConv2DKernel(
                geometry: supported, filter: filter, bias: nil, clamp: .none, generatesMachineCode: true
            ).usesGeneratedCode == HostCPU.supportsGeneratedAVX2)
    }

    /// The generated code reads only the input and writes only the output: with the input flush against an
    /// inaccessible page on either side and the output flush against one after it, a stray access would fault.
    @Test(.enabled(if: GeneratedCode.runs, GeneratedCode.skipComment), arguments: [false, true])
    func accessesStayInsideTheTensors(inputAtPageEnd: Bool) throws {
        let geometries = [
            Self.geometry(
                batch: 1, outputHeight: 4, outputWidth: 7, channels: 12, kernel: (5, 5), stride: 1, dilation: 1,
                same: true),
            Self.geometry(
                batch: 2, outputHeight: 3, outputWidth: 6, channels: 42, kernel: (3, 3), stride: 2, dilation: 1,
                same: true),
            Self.geometry(
                batch: 1, outputHeight: 3, outputWidth: 5, channels: 264, kernel: (3, 5), stride: 1, dilation: 2,
                same: false),
            Self.geometry(
                batch: 1, outputHeight: 2, outputWidth: 9, channels: 8, kernel: (3, 3), stride: 1, dilation: 1,
                same: true),
            // Channel steps sweeping all rows (row table), with and without a partial last block.
            Self.geometry(
                batch: 2, outputHeight: 5, outputWidth: 7, channels: 676, kernel: (5, 5), stride: 1, dilation: 1,
                same: true),
            Self.geometry(
                batch: 1, outputHeight: 3, outputWidth: 14, channels: 672, kernel: (5, 5), stride: 2, dilation: 1,
                same: true),
        ]
        for g in geometries {
            let (input, filter, bias) = Self.data(g)
            let outputCount =
                g.convolution.batch * g.convolution.outputHeight * g.convolution.outputWidth
                * g.convolution.outputChannels
            let expected = Self.reference(g, input: input, filter: filter, bias: bias, clamp: .relu6)
            for instructions in GeneratedCode.instructionSets {
                let kernel = DepthwiseConv2DKernel(
                    geometry: g, filter: filter, bias: bias, clamp: .relu6, generatesMachineCode: true,
                    instructions: instructions)
                #expect(
                    kernel.generatedInstructions
                        == Self.expectedInstructions(instructions, channels: g.convolution.outputChannels))
                let guardedInput = try #require(GuardedFloats(count: input.count, atPageEnd: inputAtPageEnd))
                let guardedOutput = try #require(GuardedFloats(count: outputCount, atPageEnd: true))
                guardedInput.pointer.update(from: input, count: input.count)
                var scratch: [Float] = [0]
                for pool in [ThreadPool.serial, Self.twoThreads, Self.threeThreads] {
                    guardedOutput.pointer.update(repeating: .nan, count: outputCount)
                    scratch.withUnsafeMutableBufferPointer { s in
                        guard let scratchPointer = s.baseAddress else { return }
                        kernel.run(
                            input: guardedInput.pointer, output: guardedOutput.pointer, scratch: scratchPointer,
                            pool: pool)
                    }
                    let actual = Array(UnsafeBufferPointer(start: guardedOutput.pointer, count: outputCount))
                    expectNearlyEqual(
                        actual, expected, tolerance: 1e-5 * 4, "\(g) threads=\(pool.threadCount) \(instructions)")
                }
            }
        }
    }
}
