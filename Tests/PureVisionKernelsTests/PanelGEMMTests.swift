import PureVisionKernels
import Testing

/// The Swift micro-kernel GEMM against its scalar twin, bit for bit: both start each sum at the bias and add the
/// products in `k` order, fused exactly where the kernels are compiled to fuse.
struct PanelGEMMTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var m, n, k: Int
        var testDescription: String { "m\(m) n\(n) k\(k)" }
    }

    /// Rows around the 4- and 6-row tiles and every remainder after 6-row ones (which 4- and 5-row tiles cover),
    /// columns around the 8-, 16- and 24-wide panels (and 24-wide ones followed by 16-wide ones), `k` from none to odd lengths; one shape large enough that the panels
    /// go outermost.
    static let cases: [Case] =
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14].flatMap { m in
            [1, 7, 8, 9, 16, 17, 24, 25, 33, 40, 56].flatMap { n in
                [0, 1, 5, 16].map { k in Case(m: m, n: n, k: k) }
            }
        } + [Case(m: 11, n: 70, k: 301), Case(m: 6, n: 130, k: 131)]

    /// The arithmetic ``PanelGEMM`` reproduces on this build.
    static var arithmetic: Reference.Arithmetic { SwiftKernelTarget.fusesMultiplyAdd ? .xnnpack : .liteRT }

    @Test(arguments: cases)
    func matchesScalarTwinBitForBit(_ c: Case) {
        var random = SplitMixSource(seed: UInt64(c.m * 10_007 + c.n * 101 + c.k))
        // Rows padded on every operand, so that a read or write past a row shows up.
        let (lda, ldb, ldc) = (c.k + 3, c.n + 2, c.n + 5)
        let a = random.floats(c.m * lda)
        let b = random.floats(max(c.k, 1) * ldb)
        let bias = random.floats(c.n)
        let clamp = ClampRange(lower: -0.75, upper: 0.5)
        let fill: Float = 42
        var expected = [Float](repeating: fill, count: c.m * ldc)
        var actual = expected
        let panels = b.withUnsafeBufferPointer {
            PackedPanels(k: c.k, n: c.n, b: $0.baseAddress!, rowStride: ldb, columnStride: 1)
        }
        #expect(panels.widths.reduce(0, +) >= c.n && panels.widths.reduce(0, +) < c.n + 16)
        Reference.biasedMatrixProduct(
            m: c.m, n: c.n, k: c.k, a: a, lda: lda, b: b, ldb: ldb, bias: bias, c: &expected, ldc: ldc, clamp: clamp,
            arithmetic: Self.arithmetic)
        PanelGEMM.multiply(
            rows: c.m, a: a, lda: lda, panels: panels, panelRange: 0..<panels.widths.count, bias: bias, clamp: clamp,
            c: &actual, ldc: ldc)
        expectBitIdentical(actual, expected, "\(c)")
    }

    /// The row tiles cover every row once, in order; a tile of fewer than 4 rows (whose sums wait on each other) only
    /// when there are fewer than 8 rows; every tile but the tail's at most 3 the full height.
    @Test func rowTilesCoverEveryRowOnce() {
        for tile in [4, 6] {
            for rows in 0...64 {
                let tiling = PanelGEMM.RowTiling(rows: rows, tile: tile)
                var next = 0
                var sizes: [Int] = []
                tiling.forEachTile { first, count in
                    #expect(first == next, "tile \(tile), rows \(rows)")
                    next = first + count
                    sizes.append(count)
                }
                #expect(next == rows, "tile \(tile), rows \(rows)")
                #expect(sizes.allSatisfy { $0 >= 1 && $0 <= tile }, "tile \(tile), rows \(rows): \(sizes)")
                #expect(sizes.dropFirst(tiling.fullTiles).count <= 3, "tile \(tile), rows \(rows): \(sizes)")
                if tile == 6 && rows >= 8 {
                    #expect(sizes.allSatisfy { $0 >= 4 }, "rows \(rows): \(sizes)")
                }
            }
        }
    }

    /// Rows of `A` given as runs (a convolution read in place: one run per filter row) give the bits of the same
    /// rows given contiguously, on every row count around the tile sizes.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 17])
    func rowRunsGiveTheContiguousSums(rows m: Int) {
        let (count, length, gap, n) = (3, 7, 5, 21)
        let k = count * length
        let runStride = length + gap
        let lda = 2
        var random = SplitMixSource(seed: UInt64(m * 31 + 5))
        // Row i's run r starts at i * lda + r * runStride: rows overlap, as neighbouring pixels' patches do.
        let a = random.floats((m - 1) * lda + (count - 1) * runStride + length)
        let b = random.floats(k * n)
        let bias = random.floats(n)
        let panels = b.withUnsafeBufferPointer {
            PackedPanels(k: k, n: n, b: $0.baseAddress!, rowStride: n, columnStride: 1)
        }
        var gathered = [Float](repeating: 0, count: m * k)
        for i in 0..<m {
            for r in 0..<count {
                for p in 0..<length { gathered[i * k + r * length + p] = a[i * lda + r * runStride + p] }
            }
        }
        let clamp = ClampRange(lower: -0.5, upper: 0.75)
        var expected = [Float](repeating: .nan, count: m * n)
        PanelGEMM.multiply(
            rows: m, a: gathered, lda: k, panels: panels, panelRange: 0..<panels.widths.count, bias: bias,
            clamp: clamp, c: &expected, ldc: n)
        var actual = [Float](repeating: .nan, count: m * n)
        PanelGEMM.multiply(
            rows: m, a: a, lda: lda, panels: panels, panelRange: 0..<panels.widths.count, bias: bias, clamp: clamp,
            c: &actual, ldc: n, runs: (count: count, length: length, stride: runStride))
        expectBitIdentical(actual, expected, "rows \(m)")
    }

    /// Panels run one range at a time write exactly their columns, with the sums of a run over all panels.
    @Test func panelRangesWriteTheirColumns() {
        let (m, n, k) = (7, 61, 19)
        var random = SplitMixSource(seed: 45)
        let a = random.floats(m * k)
        let b = random.floats(k * n)
        let bias = random.floats(n)
        let panels = b.withUnsafeBufferPointer {
            PackedPanels(k: k, n: n, b: $0.baseAddress!, rowStride: n, columnStride: 1)
        }
        #expect(panels.widths == [24, 24, 16] && panels.widePanelCount == 2)
        var whole = [Float](repeating: 0, count: m * n)
        PanelGEMM.multiply(
            rows: m, a: a, lda: k, panels: panels, panelRange: 0..<3, bias: bias, clamp: .none, c: &whole, ldc: n)
        var pieces = [Float](repeating: .nan, count: m * n)
        var columnsRun = Set<Int>()
        for panel in [2, 0, 1] {
            PanelGEMM.multiply(
                rows: m, a: a, lda: k, panels: panels, panelRange: panel..<(panel + 1), bias: bias, clamp: .none,
                c: &pieces, ldc: n)
            columnsRun.formUnion(panels.columnStarts[panel]..<min(n, panels.columnStarts[panel] + panels.widths[panel]))
            // Every row of exactly the columns of the panels run so far, nothing else.
            let written = pieces.indices.filter { !pieces[$0].isNaN }
            #expect(written == pieces.indices.filter { columnsRun.contains($0 % n) }, "after panel \(panel)")
        }
        #expect(pieces.map(\.bitPattern) == whole.map(\.bitPattern))
    }

    /// A 1×1 convolution with more channels than pixels on the Swift path shares its panels between threads: every
    /// epilogue chain then gives the bits of one thread, which match the scalar convolution followed by the chain.
    @Test(arguments: Conv2DMachineCodeTests.Chain.allCases)
    func columnCutConvolutionMatchesOneThread(_ chain: Conv2DMachineCodeTests.Chain) {
        let g = Conv2DGeometry(
            batch: 1, inputHeight: 3, inputWidth: 3, inputChannels: 120, outputHeight: 3, outputWidth: 3,
            outputChannels: 203,
            window: .pointwise)
        let n = g.outputChannels
        var random = SplitMixSource(seed: UInt64(chain.rawValue.count * 31 + n))
        let input = random.floats(9 * 120)
        let filter = random.floats(n * 120)
        let bias = random.floats(n)
        let alpha = (0..<n).map { $0 % 5 == 4 ? Float(0) : random.floats(1)[0] }
        let epilogue = OutputEpilogue(Conv2DMachineCodeTests.steps(chain, alpha: alpha).steps)
        let residual = random.floats(9 * epilogue.residualChannels(outputChannels: n))
        var expected = [Float](repeating: 0, count: 9 * n)
        Reference.conv2D(
            geometry: g, input: input, filter: filter, bias: bias, output: &expected, clamp: .relu6,
            arithmetic: PanelGEMMTests.arithmetic)
        expected.withUnsafeMutableBufferPointer { y in
            epilogue.apply(rows: 9, channels: n, output: y.baseAddress!, residual: residual)
        }
        for pool in testPools {
            // The micro-kernel whatever this build's target would choose, so that every build tests it.
            let kernel = Conv2DKernel(
                geometry: g, filter: filter, bias: bias, clamp: .relu6, threadCount: pool.threadCount,
                microKernel: true
            ).withEpilogue(epilogue)
            let (family, cutsByColumns) = (kernel.kernelFamily, kernel.cutsByPanelColumns)
            #expect(family == .swiftSIMD)
            // 9 · 203 · 120 multiply-adds: enough to share between 2 or 3 threads, not 16 (13 panels).
            #expect(cutsByColumns == (pool.threadCount == 2 || pool.threadCount == 3))
            var actual = [Float](repeating: .nan, count: 9 * n)
            var scratch = [Float](repeating: 0, count: max(1, kernel.scratchFloatCount))
            kernel.run(input: input, output: &actual, residual: residual, scratch: &scratch, pool: pool)
            #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern), "\(pool.threadCount) threads")
        }
    }
}
