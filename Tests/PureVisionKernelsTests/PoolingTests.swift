import PureVisionKernels
import Testing

struct PoolingTests {
    enum Kind: Sendable { case max, average }

    struct Case: Sendable, CustomTestStringConvertible {
        var kind: Kind
        var geometry: Pool2DGeometry
        var clamp: ClampRange
        var testDescription: String {
            let g = geometry
            return "\(kind) n\(g.batch) \(g.inputHeight)x\(g.inputWidth)x\(g.channels)"
                + " f\(g.window.kernelHeight)x\(g.window.kernelWidth) s\(g.window.strideHeight)x\(g.window.strideWidth)"
                + " p\(g.window.paddingTop),\(g.window.paddingLeft) out\(g.outputHeight)x\(g.outputWidth) clamp\(clamp)"
        }
    }

    /// A geometry whose output size follows from the input, window, stride and all four paddings.
    static func geometry(
        batch: Int = 1, height: Int, width: Int, channels: Int, filter: (Int, Int), stride: (Int, Int),
        padding: (top: Int, bottom: Int, left: Int, right: Int) = (0, 0, 0, 0)
    ) -> Pool2DGeometry {
        Pool2DGeometry(
            batch: batch, inputHeight: height, inputWidth: width, channels: channels,
            outputHeight: (height + padding.top + padding.bottom - filter.0) / stride.0 + 1,
            outputWidth: (width + padding.left + padding.right - filter.1) / stride.1 + 1,
            window: Window2D(
                kernelHeight: filter.0, kernelWidth: filter.1, strideHeight: stride.0, strideWidth: stride.1,
                paddingTop: padding.top, paddingLeft: padding.left))
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        let clamps = [ClampRange.none, .relu, .relu6, .reluMinus1To1]
        let windows: [(filter: (Int, Int), stride: (Int, Int), padding: (Int, Int, Int, Int))] = [
            ((2, 2), (2, 2), (0, 0, 0, 0)),
            ((3, 3), (2, 2), (0, 1, 0, 1)),
            ((3, 3), (1, 1), (1, 1, 1, 1)),
            ((3, 3), (2, 2), (1, 1, 1, 1)),
            ((2, 3), (1, 2), (1, 0, 0, 2)),
            ((9, 11), (1, 1), (0, 0, 0, 0)),
            ((5, 5), (3, 3), (2, 2, 2, 2)),
        ]
        var index = 0
        for kind in [Kind.max, .average] {
            for w in windows {
                for channels in [1, 3, 7, 8, 9, 16, 17, 25, 40] {
                    cases.append(
                        Case(
                            kind: kind,
                            geometry: geometry(
                                batch: 1 + index % 2, height: 9, width: 11, channels: channels,
                                filter: w.filter, stride: w.stride, padding: w.padding),
                            clamp: clamps[index % clamps.count]))
                    index += 1
                }
            }
        }
        return cases
    }()

    static func pooled(
        _ kind: Kind, geometry g: Pool2DGeometry, input: [Float], clamp: ClampRange, pool: ThreadPool?
    ) -> [Float] {
        var output = [Float](repeating: .nan, count: g.batch * g.outputHeight * g.outputWidth * g.channels)
        output.withUnsafeMutableBufferPointer { out in
            guard let pointer = out.baseAddress else { return }
            switch (kind, pool) {
            case (.max, nil): Reference.maxPool2D(geometry: g, input: input, output: pointer, clamp: clamp)
            case (.average, nil):
                Reference.averagePool2D(geometry: g, input: input, output: pointer, clamp: clamp, arithmetic: .xnnpack)
            case (.max, let pool?):
                Pooling.maxPool2D(geometry: g, input: input, output: pointer, clamp: clamp, pool: pool)
            case (.average, let pool?):
                Pooling.averagePool2D(geometry: g, input: input, output: pointer, clamp: clamp, pool: pool)
            }
        }
        return output
    }

    @Test(arguments: cases)
    func kernelMatchesReference(_ c: Case) {
        let g = c.geometry
        var random = SplitMixSource(seed: stableSeed(g) + 13)
        let input = random.floats(g.batch * g.inputHeight * g.inputWidth * g.channels)
        let expected = PoolingTests.pooled(c.kind, geometry: g, input: input, clamp: c.clamp, pool: nil)
        for pool in testPools {
            let actual = PoolingTests.pooled(c.kind, geometry: g, input: input, clamp: c.clamp, pool: pool)
            // The same operations per channel in the same tap order (XNNPACK's for a global average), so the same
            // bits.
            #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern), "\(c) threads=\(pool.threadCount)")
        }
    }

    /// 4×4 single-channel ramp `x[r][c] = 4r + c`, 3×3 windows, stride 2, SAME padding (one row/column after):
    /// windows cover rows {0,1,2} or {2,3} and likewise columns; averages count in-bounds taps only.
    @Test(arguments: [false, true])
    func handCheckedRamp(optimized: Bool) {
        let g = PoolingTests.geometry(
            height: 4, width: 4, channels: 1, filter: (3, 3), stride: (2, 2),
            padding: (0, 1, 0, 1))
        let input = (0..<16).map(Float.init)
        let pool: ThreadPool? = optimized ? .serial : nil
        #expect(PoolingTests.pooled(.max, geometry: g, input: input, clamp: .none, pool: pool) == [10, 11, 14, 15])
        // Means: rows 0-2 × cols 0-2 → 5; rows 0-2 × cols 2-3 → 6.5; rows 2-3 × cols 0-2 → 11; rows 2-3 × 2-3 → 12.5.
        #expect(
            PoolingTests.pooled(.average, geometry: g, input: input, clamp: .none, pool: pool)
                == [5, 6.5, 11, 12.5])
        #expect(PoolingTests.pooled(.average, geometry: g, input: input, clamp: .relu6, pool: pool) == [5, 6, 6, 6])
    }

    /// Max pooling of all-negative values is negative: the running maximum must not start at zero.
    @Test(arguments: [false, true])
    func maxOfNegativesStaysNegative(optimized: Bool) {
        let g = PoolingTests.geometry(
            height: 2, width: 2, channels: 2, filter: (2, 2), stride: (1, 1),
            padding: (1, 0, 1, 0))
        let input: [Float] = [-4, -40, -3, -30, -2, -20, -1, -10]
        let result = PoolingTests.pooled(
            .max, geometry: g, input: input, clamp: .none,
            pool: optimized ? .serial : nil)
        #expect(result == [-4, -40, -3, -30, -2, -20, -1, -10])
    }
}

extension PoolingTests {
    /// NaN inputs give the reference's bits: the kernel makes the same `max` / `min` selects and additions, in the
    /// 8-channel and the one-channel loops alike.
    @Test(arguments: [Kind.max, .average])
    func nanInputsGiveTheReferenceBits(_ kind: Kind) {
        let g = PoolingTests.geometry(
            height: 5, width: 6, channels: 27, filter: (3, 3), stride: (2, 2), padding: (1, 1, 1, 1))
        var random = SplitMixSource(seed: 77)
        var input = random.floats(g.inputHeight * g.inputWidth * g.channels)
        for index in stride(from: 0, to: input.count, by: 7) { input[index] = .nan }
        for clamp in [ClampRange.none, .relu6] {
            let expected = PoolingTests.pooled(kind, geometry: g, input: input, clamp: clamp, pool: nil)
            // A maximum starts finite and skips NaN taps; an average with a NaN tap is NaN until clamped.
            #expect(kind == .max || clamp != .none || expected.contains { $0.isNaN }, "the case must reach NaNs")
            for pool in testPools {
                let actual = PoolingTests.pooled(kind, geometry: g, input: input, clamp: clamp, pool: pool)
                #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern), "\(kind) \(clamp) \(pool.threadCount)")
            }
        }
    }
}

/// 8-bit MAX_POOL_2D and AVERAGE_POOL_2D (channels innermost, vectorized, split over threads) against their
/// channel-by-channel reference twins.
struct QuantizedPoolTests {
    enum Kind: Sendable { case max, average }

    static func check<T: QuantizedElement>(
        _: T.Type, _ kind: Kind, geometry g: Pool2DGeometry, range: QuantizedRange, seed: UInt64
    ) {
        var random = Random(state: seed)
        let input = (0..<(g.batch * g.inputHeight * g.inputWidth * g.channels)).map { _ in
            T(truncatingIfNeeded: random.next())
        }
        let count = g.batch * g.outputHeight * g.outputWidth * g.channels
        var reference = [T](repeating: 1, count: count)
        switch kind {
        case .max: Reference.quantizedMaxPool(geometry: g, input: input, output: &reference, range: range)
        case .average: Reference.quantizedAveragePool(geometry: g, input: input, output: &reference, range: range)
        }
        for pool in testPools {
            var fast = [T](repeating: 0, count: count)
            switch kind {
            case .max: Quantized.maxPool(geometry: g, input: input, output: &fast, range: range, pool: pool)
            case .average: Quantized.averagePool(geometry: g, input: input, output: &fast, range: range, pool: pool)
            }
            let mismatch = fast.indices.first { fast[$0] != reference[$0] }
            #expect(mismatch == nil, "\(kind) \(T.self) \(g) \(range) threads \(pool.threadCount)")
        }
    }

    @Test(arguments: [Kind.max, .average], [1, 3, 16, 17, 33, 70])
    func vectorizedEqualsReference(_ kind: Kind, channels: Int) {
        // Windows inside, overlapping the padding, and one missing the input entirely (padding 3 before a 2×2
        // window); a global window over a 7 × 7 input; a large input, so that its rows are shared between threads.
        let geometries = [
            PoolingTests.geometry(height: 7, width: 9, channels: channels, filter: (2, 2), stride: (2, 2)),
            PoolingTests.geometry(
                batch: 2, height: 6, width: 5, channels: channels, filter: (3, 3), stride: (2, 1),
                padding: (1, 1, 1, 1)),
            PoolingTests.geometry(
                height: 4, width: 4, channels: channels, filter: (2, 2), stride: (1, 1), padding: (3, 0, 0, 3)),
            PoolingTests.geometry(batch: 2, height: 7, width: 7, channels: channels, filter: (7, 7), stride: (1, 1)),
            PoolingTests.geometry(height: 48, width: 47, channels: channels, filter: (3, 3), stride: (1, 1)),
        ]
        for (index, g) in geometries.enumerated() {
            Self.check(
                Int8.self, kind, geometry: g, range: QuantizedRange(lower: -128, upper: 127), seed: UInt64(index))
            Self.check(
                Int8.self, kind, geometry: g, range: QuantizedRange(lower: -20, upper: 90), seed: UInt64(index + 9))
            Self.check(
                UInt8.self, kind, geometry: g, range: QuantizedRange(lower: 0, upper: 255), seed: UInt64(index + 3))
            Self.check(
                UInt8.self, kind, geometry: g, range: QuantizedRange(lower: 7, upper: 200), seed: UInt64(index + 5))
        }
    }

    /// A global pool of 1280 channels (efficientnet's last one) is shared between threads by channel blocks.
    @Test func globalAverageOfManyChannels() {
        let g = PoolingTests.geometry(height: 7, width: 7, channels: 1280, filter: (7, 7), stride: (1, 1))
        Self.check(UInt8.self, .average, geometry: g, range: QuantizedRange(lower: 0, upper: 255), seed: 41)
        Self.check(Int8.self, .average, geometry: g, range: QuantizedRange(lower: -128, upper: 127), seed: 43)
    }
}
