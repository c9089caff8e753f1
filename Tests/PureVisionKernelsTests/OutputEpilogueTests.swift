import PureVisionKernels
import Testing

/// Convolutions with a fused ``OutputEpilogue`` against the same convolution followed by the reference element-wise
/// operators (ADD with a clamp, PRELU, a clamping activation): equal to the last bit, on odd shapes and every pool.
struct OutputEpilogueTests {
    enum Chain: String, CaseIterable, Sendable {
        case add, prelu, addRelu6, addPrelu, addClampPrelu, preluRelu, relu, addPreluReluN1, paddedAdd, paddedAddPrelu
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var depthwise: Bool
        var height: Int
        var width: Int
        var channels: Int
        var kernel: Int
        var stride: Int
        var chain: Chain
        var testDescription: String {
            (depthwise ? "dwconv" : "conv") + " \(height)x\(width)x\(channels) k\(kernel) s\(stride) \(chain.rawValue)"
        }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        let chains = Chain.allCases
        // Channel counts 1, tile−1, tile, tile+1 and primes; 1×1 (direct GEMM) and k×k (im2col) convolutions.
        for (index, channels) in [1, 3, 4, 5, 7, 16, 17, 31].enumerated() {
            for depthwise in [false, true] {
                let kernel = [1, 3, 5][index % 3]
                cases.append(
                    Case(
                        depthwise: depthwise, height: 5 + index % 3, width: 23 - index, channels: channels,
                        kernel: kernel, stride: 1 + index % 2,
                        chain: chains[(index + (depthwise ? 3 : 0)) % chains.count]))
            }
        }
        for chain in chains {
            cases.append(Case(depthwise: false, height: 9, width: 13, channels: 8, kernel: 1, stride: 1, chain: chain))
            cases.append(Case(depthwise: true, height: 7, width: 11, channels: 12, kernel: 3, stride: 1, chain: chain))
        }
        return cases
    }()

    /// The steps of a chain, and whether the ADD's residual comes first (it is an argument of a commutative add).
    static func steps(_ chain: Chain, alpha: [Float]) -> [OutputEpilogue.Step] {
        let half = alpha.count / 2
        return switch chain {
        case .add: [.addResidual(clamp: .none)]
        case .prelu: [.prelu(alpha: alpha)]
        case .addRelu6: [.addResidual(clamp: .relu6)]
        case .addPrelu: [.addResidual(clamp: .none), .prelu(alpha: alpha)]
        case .addClampPrelu: [.addResidual(clamp: .reluMinus1To1), .prelu(alpha: alpha)]
        case .preluRelu: [.prelu(alpha: alpha), .clamp(.relu)]
        case .relu: [.clamp(.relu)]
        case .addPreluReluN1: [.addResidual(clamp: .none), .prelu(alpha: alpha), .clamp(.reluMinus1To1)]
        case .paddedAdd: [.addResidual(clamp: .relu, residualChannels: half)]
        case .paddedAddPrelu: [.addResidual(clamp: .none, residualChannels: half), .prelu(alpha: alpha)]
        }
    }

    /// Applies `steps` to `values` with the reference PAD, ADD, PRELU and activation operators, one pass each.
    static func referenceSteps(
        _ steps: [OutputEpilogue.Step], values: [Float], residual unpadded: [Float], shape: [Int]
    ) -> [Float] {
        let channels = shape[3]
        let residualChannels = OutputEpilogue(steps).residualChannels(outputChannels: channels)
        var residual = [Float](repeating: 0, count: values.count)
        for pixel in 0..<(values.count / channels) {
            for c in 0..<residualChannels { residual[pixel * channels + c] = unpadded[pixel * residualChannels + c] }
        }
        var current = values
        for step in steps {
            var next = [Float](repeating: .nan, count: current.count)
            next.withUnsafeMutableBufferPointer { out in
                guard let y = out.baseAddress else { return }
                switch step {
                case .addResidual(let clamp, _):
                    Reference.binary(
                        .add, lhs: current, lhsShape: shape, rhs: residual, rhsShape: shape, output: y,
                        outputShape: shape, clamp: clamp)
                case .prelu(let alpha):
                    Reference.prelu(
                        input: current, inputShape: shape, alpha: alpha, alphaShape: [1, 1, alpha.count], output: y,
                        outputShape: shape)
                case .clamp(let clamp):
                    for i in current.indices { y[i] = clamp.apply(current[i]) }
                }
            }
            current = next
        }
        return current
    }

    @Test(arguments: cases)
    func fusedEqualsSeparatePasses(_ c: Case) {
        var random = SplitMixSource(seed: UInt64(c.channels * 131 + c.height * 7 + c.width) + (c.depthwise ? 5 : 0))
        let pad = c.kernel / 2
        let outputHeight = (c.height + 2 * pad - c.kernel) / c.stride + 1
        let outputWidth = (c.width + 2 * pad - c.kernel) / c.stride + 1
        let inputChannels = c.depthwise ? c.channels : 3 + c.channels % 5
        let input = random.floats(c.height * c.width * inputChannels)
        let filter = random.floats(c.kernel * c.kernel * inputChannels * (c.depthwise ? 1 : c.channels))
        let bias = random.floats(c.channels)
        let outputCount = outputHeight * outputWidth * c.channels
        // Slopes of both signs, and zero.
        let alpha = (0..<c.channels).map { $0 % 5 == 4 ? Float(0) : random.floats(1)[0] }
        let steps = Self.steps(c.chain, alpha: alpha)
        let residual = random.floats(
            outputHeight * outputWidth * OutputEpilogue(steps).residualChannels(outputChannels: c.channels))
        let shape = [1, outputHeight, outputWidth, c.channels]

        for pool in testPools {
            let unfused: [Float]
            let fused: [Float]
            if c.depthwise {
                let g = DepthwiseConv2DGeometry(
                    convolution: Conv2DGeometry(
                        batch: 1, inputHeight: c.height, inputWidth: c.width, inputChannels: c.channels,
                        outputHeight: outputHeight, outputWidth: outputWidth, outputChannels: c.channels,
                        window: Window2D(
                            kernelHeight: c.kernel, kernelWidth: c.kernel, strideHeight: c.stride,
                            strideWidth: c.stride, dilationHeight: 1, dilationWidth: 1, paddingTop: pad,
                            paddingLeft: pad)))
                let kernel = DepthwiseConv2DKernel(geometry: g, filter: filter, bias: bias, clamp: .none)
                unfused = Self.run(count: outputCount, scratch: 0, residual: nil) { x, r, s in
                    kernel.run(input: input, output: x, residual: r, scratch: s, pool: pool)
                }
                let withEpilogue = kernel.withEpilogue(OutputEpilogue(steps))
                fused = Self.run(count: outputCount, scratch: 0, residual: residual) { x, r, s in
                    withEpilogue.run(input: input, output: x, residual: r, scratch: s, pool: pool)
                }
            } else {
                let g = Conv2DGeometry(
                    batch: 1, inputHeight: c.height, inputWidth: c.width, inputChannels: inputChannels,
                    outputHeight: outputHeight, outputWidth: outputWidth, outputChannels: c.channels,
                    window: Window2D(
                        kernelHeight: c.kernel, kernelWidth: c.kernel, strideHeight: c.stride, strideWidth: c.stride,
                        dilationHeight: 1, dilationWidth: 1, paddingTop: pad, paddingLeft: pad))
                let kernel = Conv2DKernel(geometry: g, filter: filter, bias: bias, clamp: .none)
                unfused = Self.run(count: outputCount, scratch: kernel.scratchFloatCount, residual: nil) { x, r, s in
                    kernel.run(input: input, output: x, residual: r, scratch: s, pool: pool)
                }
                let withEpilogue = kernel.withEpilogue(OutputEpilogue(steps))
                fused = Self.run(count: outputCount, scratch: kernel.scratchFloatCount, residual: residual) { x, r, s in
                    withEpilogue.run(input: input, output: x, residual: r, scratch: s, pool: pool)
                }
            }
            let expected = Self.referenceSteps(steps, values: unfused, residual: residual, shape: shape)
            #expect(fused.count == expected.count)
            let mismatch = zip(fused, expected).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(mismatch == nil, "\(c) threads=\(pool.threadCount): element \(mismatch.map { "\($0)" } ?? "")")
        }
    }

    /// Runs `body` with an output of `count` NaNs, the residual (if any) and scratch, and returns the output.
    static func run(
        count: Int, scratch: Int, residual: [Float]?,
        _ body: (UnsafeMutablePointer<Float>, UnsafePointer<Float>?, UnsafeMutablePointer<Float>) -> Void
    ) -> [Float] {
        var output = [Float](repeating: .nan, count: count)
        var scratchBuffer = [Float](repeating: .nan, count: max(scratch, 1))
        let skip = residual ?? [0]
        output.withUnsafeMutableBufferPointer { out in
            scratchBuffer.withUnsafeMutableBufferPointer { s in
                skip.withUnsafeBufferPointer { r in
                    guard let x = out.baseAddress, let sp = s.baseAddress, let rp = r.baseAddress else { return }
                    body(x, residual == nil ? nil : rp, sp)
                }
            }
        }
        return output
    }

    @Test func residualIsRequiredOnlyForAnAdd() {
        #expect(
            OutputEpilogue([.addResidual(clamp: .none, residualChannels: 3)]).residualChannels(outputChannels: 8) == 3)
        #expect(OutputEpilogue([.prelu(alpha: [1])]).residualChannels(outputChannels: 8) == 8)
        #expect(OutputEpilogue([.addResidual(clamp: .none), .prelu(alpha: [1])]).addsResidual)
        #expect(!OutputEpilogue([.prelu(alpha: [1]), .clamp(.relu)]).addsResidual)
        #expect(OutputEpilogue.none.isEmpty)
    }
}
