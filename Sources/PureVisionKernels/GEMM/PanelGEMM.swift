/// The right-hand matrix `B` (`k × n`) of a ``PanelGEMM`` product, packed once at load into column panels.
///
/// Panel `p` holds columns `columnStarts[p] ..< columnStarts[p] + widths[p]` as `k` rows of `widths[p]` contiguous
/// floats, so a micro-kernel reads one row of a panel as one or two vectors and the whole panel in one forward
/// sweep. Panels are 16 columns wide; the last is 8 wide when at most 8 columns remain, and columns past `n` are
/// zeros (their sums are computed and never stored).
package struct PackedPanels: Sendable {
    /// Rows of `B`.
    package let k: Int
    /// Columns of `B`.
    package let n: Int
    /// Each panel's width: 16, or 8 for a narrow last panel.
    package let widths: [Int]
    /// Each panel's first column.
    package let columnStarts: [Int]
    /// Each panel's first float in ``floats``.
    private let offsets: [Int]
    /// The panels, one after the other.
    private let floats: [Float]

    /// The widest panel.
    package static let maximumWidth = 16

    /// Packs `B` given as a `k × n` matrix whose element `(p, j)` is at `b[j * columnStride + p * rowStride]`:
    /// `rowStride: n, columnStride: 1` for a row-major `[k, n]`, `rowStride: 1, columnStride: k` for OHWI
    /// convolution filters (`[n, k]`, one output channel per row).
    package init(k: Int, n: Int, b: UnsafePointer<Float>, rowStride: Int, columnStride: Int) {
        precondition(k >= 0 && n >= 0, "PackedPanels: negative dimension k=\(k) n=\(n)")
        self.k = k
        self.n = n
        var widths: [Int] = []
        var starts: [Int] = []
        var offsets: [Int] = []
        var column = 0
        var offset = 0
        while column < n {
            let width = n - column <= 8 ? 8 : Self.maximumWidth
            widths.append(width)
            starts.append(column)
            offsets.append(offset)
            column += width
            offset += width * k
        }
        self.widths = widths
        self.columnStarts = starts
        self.offsets = offsets
        // At least one float, so that the storage has an address even when `k` is 0.
        floats = [Float](unsafeUninitializedCapacity: max(offset, 1)) { buffer, count in
            guard let packed = buffer.baseAddress else {
                count = 0
                return
            }
            packed[0] = 0
            for panel in widths.indices {
                let start = starts[panel]
                let width = widths[panel]
                let target = packed + offsets[panel]
                for p in 0..<k {
                    for j in 0..<width {
                        let column = start + j
                        target[p * width + j] = column < n ? b[column * columnStride + p * rowStride] : 0
                    }
                }
            }
            count = max(offset, 1)
        }
    }

    /// Floats of all panels.
    package var floatCount: Int { widths.count == 0 ? 0 : offsets[offsets.count - 1] + widths[widths.count - 1] * k }

    /// Calls `body` with the packed floats and each panel's offset into them; does nothing when there is no panel.
    @inline(__always)
    func withPanels(_ body: (UnsafePointer<Float>, UnsafePointer<Int>) -> Void) {
        floats.withUnsafeBufferPointer { floatBuffer in
            offsets.withUnsafeBufferPointer { offsetBuffer in
                // `floats` always holds at least one float (see `init`), so both exist whenever there is a panel.
                guard let packed = floatBuffer.baseAddress, let starts = offsetBuffer.baseAddress else { return }
                body(packed, starts)
            }
        }
    }
}

/// A register-blocked single-precision GEMM in portable Swift SIMD: `C = clamp(bias + A · B)` over a range of `B`'s
/// ``PackedPanels``, for the convolutions on the path that runs without generated code (iOS, arm64, x86 without the
/// generator) where a BLAS call costs more than it saves: few output rows, or small `k` and `n`.
///
/// The micro-kernel computes a tile of 4 rows × one panel (16 columns: 8 accumulators of 8 floats, 16 NEON or 16
/// AVX registers' worth split as the target allows) from the bias, one broadcast `A` element and one panel row per
/// step of `k`, and clamps at the only store. Each sum starts at the bias and adds the products in `k` order, one
/// ``FloatVector/multiplyAdd(_:_:_:)`` each: exactly ``Reference/conv2D`` with `.xnnpack` arithmetic where the target
/// fuses multiply-adds, with `.liteRT` arithmetic where it does not; a row's sums do not depend on how the rows or
/// panels are cut.
package enum PanelGEMM {
    /// Tile rows of the micro-kernel: 6 where its 12 accumulators of a 16-wide panel stay in registers (AVX's 16
    /// ymm, NEON's 32 q), else 4.
    package static var tileRows: Int { SwiftKernelTarget.runsMicroKernels ? 6 : 4 }
    /// Where each row of `A` lies: `count` runs of `length` contiguous floats, `stride` floats apart (`count ×
    /// length` is `k`). One run for a plain matrix; a convolution read in place, without gathering its patches
    /// (im2col), has one run per filter row, each a filter row's taps and channels.
    package typealias RowRuns = (count: Int, length: Int, stride: Int)

    /// Packed floats up to which a block runs its row tiles outermost (each tile sweeps every panel, which stay in
    /// L1 / L2); above it, panels go outermost so that one panel stays in L1 while every row tile reads it.
    static let rowsOutermostFloats = 1 << 14

    /// `C[i, j] = clamp(bias[j] + Σ_p A[i, p] · B[p, j])` for `rows` rows and the columns of panels `panelRange`.
    ///
    /// - Parameters:
    ///   - a: `A`, element `(i, p)` at `a[i * lda + p]`, or with `runs`, at `a[i * lda + (p / length) * stride +
    ///     p % length]`.
    ///   - bias: `n` floats indexed by column (only the columns of `panelRange` are read).
    ///   - c: `C`, element `(i, j)` at `c[i * ldc + j]`; only columns `< n` of the panels are written. Must not
    ///     overlap `a`.
    ///   - runs: how a row of `A` lies in memory (by default `k` contiguous floats); the sums are the same either
    ///     way.
    package static func multiply(
        rows: Int, a: UnsafePointer<Float>, lda: Int, panels: PackedPanels, panelRange: Range<Int>,
        bias: UnsafePointer<Float>, clamp: ClampRange, c: UnsafeMutablePointer<Float>, ldc: Int,
        runs: RowRuns? = nil
    ) {
        let runs = runs ?? (count: 1, length: panels.k, stride: panels.k)
        precondition(
            runs.count >= 0 && runs.length >= 0 && runs.count * runs.length == panels.k
                && (runs.count <= 1 || runs.stride >= runs.length),
            "PanelGEMM: row runs \(runs) do not make k = \(panels.k)")
        precondition(
            rows >= 0 && ldc >= panels.n && (runs.count > 1 || lda >= panels.k), "PanelGEMM: bad dimensions")
        precondition(
            panelRange.lowerBound >= 0 && panelRange.upperBound <= panels.widths.count, "PanelGEMM: bad panel range")
        guard rows > 0, !panelRange.isEmpty else { return }
        panels.withPanels { floats, offsets in
            let tiles = Tiles(
                a: a, lda: lda, runs: runs, n: panels.n,
                floats: floats, offsets: offsets, panels: panels,
                bias: bias, lower: clamp.lower, upper: clamp.upper, c: c, ldc: ldc)
            let tile = tileRows
            let fullTiles = rows / tile
            let tailStart = fullTiles * tile
            let remainder = rows - tailStart
            // The rows after the full tiles: 2, 3 or 5 of them as one more full tile ending at the last row (it
            // stores again rows the previous tile stored, the same sums); 4 or more as a 4-row tile; the rest one
            // row at a time.
            let tail: (first: Int, rows: Int)?
            if tile == 6 && fullTiles > 0 && (remainder == 2 || remainder == 3 || remainder == 5) {
                tail = (rows - tile, tile)
            } else if tile > 4 && remainder >= 4 {
                tail = (tailStart, 4)
            } else {
                tail = nil
            }
            let singleStart = tail.map { $0.first + $0.rows } ?? tailStart
            if panels.floatCount <= rowsOutermostFloats {
                for index in 0..<fullTiles {
                    for panel in panelRange { tiles.run(panel: panel, firstRow: index * tile, rows: tile) }
                }
                if let tail {
                    for panel in panelRange { tiles.run(panel: panel, firstRow: tail.first, rows: tail.rows) }
                }
                for row in singleStart..<rows {
                    for panel in panelRange { tiles.run(panel: panel, firstRow: row, rows: 1) }
                }
            } else {
                for panel in panelRange {
                    for index in 0..<fullTiles { tiles.run(panel: panel, firstRow: index * tile, rows: tile) }
                    if let tail { tiles.run(panel: panel, firstRow: tail.first, rows: tail.rows) }
                    for row in singleStart..<rows { tiles.run(panel: panel, firstRow: row, rows: 1) }
                }
            }
        }
    }

    /// One product's operands, shared by its tiles.
    private struct Tiles {
        let a: UnsafePointer<Float>
        let lda: Int
        let runs: RowRuns
        let n: Int
        let floats: UnsafePointer<Float>
        let offsets: UnsafePointer<Int>
        let panels: PackedPanels
        let bias: UnsafePointer<Float>
        let lower: Float
        let upper: Float
        let c: UnsafeMutablePointer<Float>
        let ldc: Int

        /// Rows `firstRow ..< firstRow + rows` (`rows` is 6, 4 or 1) of panel `panel`.
        @inline(__always)
        func run(panel: Int, firstRow: Int, rows: Int) {
            let width = panels.widths[panel]
            let column = panels.columnStarts[panel]
            let b = floats + offsets[panel]
            let stored = min(width, n - column)
            let aRows = a + firstRow * lda
            let out = c + firstRow * ldc + column
            if width == PackedPanels.maximumWidth {
                typealias Wide = FloatVectorPair<SIMD8<Float>>
                switch rows {
                case 6: sixRows(Wide.self, aRows, b, bias + column, stored: stored, out: out)
                case 4: fourRows(Wide.self, aRows, b, bias + column, stored: stored, out: out)
                default: oneRow(Wide.self, aRows, b, bias + column, stored: stored, out: out)
                }
            } else {
                switch rows {
                case 6: sixRows(SIMD8<Float>.self, aRows, b, bias + column, stored: stored, out: out)
                case 4: fourRows(SIMD8<Float>.self, aRows, b, bias + column, stored: stored, out: out)
                default: oneRow(SIMD8<Float>.self, aRows, b, bias + column, stored: stored, out: out)
                }
            }
        }

        /// Six rows of one panel as `Vector`s (one panel row each).
        @inline(__always)
        private func sixRows<Vector: FloatVector>(
            _: Vector.Type, _ aRows: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ bias: UnsafePointer<Float>,
            stored: Int, out: UnsafeMutablePointer<Float>
        ) {
            let start = Self.load(Vector.self, bias, count: stored)
            var sum0 = start
            var sum1 = start
            var sum2 = start
            var sum3 = start
            var sum4 = start
            var sum5 = start
            // Offsets stay inside the operands the caller checked; wrapping arithmetic keeps overflow checks out.
            var w = UnsafeRawPointer(b)
            let stride = MemoryLayout<Vector>.size
            for run in 0..<runs.count {
                var x = aRows + run &* runs.stride
                for _ in 0..<runs.length {
                    let weights = Vector.load(w, byteOffset: 0)
                    Vector.multiplyAdd(&sum0, Vector(broadcasting: x[0]), weights)
                    Vector.multiplyAdd(&sum1, Vector(broadcasting: x[lda]), weights)
                    Vector.multiplyAdd(&sum2, Vector(broadcasting: x[lda &* 2]), weights)
                    Vector.multiplyAdd(&sum3, Vector(broadcasting: x[lda &* 3]), weights)
                    Vector.multiplyAdd(&sum4, Vector(broadcasting: x[lda &* 4]), weights)
                    Vector.multiplyAdd(&sum5, Vector(broadcasting: x[lda &* 5]), weights)
                    x += 1
                    w += stride
                }
            }
            let lowerBound = Vector(broadcasting: lower)
            let upperBound = Vector(broadcasting: upper)
            store(sum0.clamped(lower: lowerBound, upper: upperBound), out, stored)
            store(sum1.clamped(lower: lowerBound, upper: upperBound), out + ldc, stored)
            store(sum2.clamped(lower: lowerBound, upper: upperBound), out + ldc &* 2, stored)
            store(sum3.clamped(lower: lowerBound, upper: upperBound), out + ldc &* 3, stored)
            store(sum4.clamped(lower: lowerBound, upper: upperBound), out + ldc &* 4, stored)
            store(sum5.clamped(lower: lowerBound, upper: upperBound), out + ldc &* 5, stored)
        }

        /// Four rows of one panel as `Vector`s (one panel row each).
        @inline(__always)
        private func fourRows<Vector: FloatVector>(
            _: Vector.Type, _ aRows: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ bias: UnsafePointer<Float>,
            stored: Int, out: UnsafeMutablePointer<Float>
        ) {
            let start = Self.load(Vector.self, bias, count: stored)
            var sum0 = start
            var sum1 = start
            var sum2 = start
            var sum3 = start
            // Offsets stay inside the operands the caller checked; wrapping arithmetic keeps overflow checks out.
            var w = UnsafeRawPointer(b)
            let stride = MemoryLayout<Vector>.size
            for run in 0..<runs.count {
                var x = aRows + run &* runs.stride
                for _ in 0..<runs.length {
                    let weights = Vector.load(w, byteOffset: 0)
                    Vector.multiplyAdd(&sum0, Vector(broadcasting: x[0]), weights)
                    Vector.multiplyAdd(&sum1, Vector(broadcasting: x[lda]), weights)
                    Vector.multiplyAdd(&sum2, Vector(broadcasting: x[lda &* 2]), weights)
                    Vector.multiplyAdd(&sum3, Vector(broadcasting: x[lda &* 3]), weights)
                    x += 1
                    w += stride
                }
            }
            let lowerBound = Vector(broadcasting: lower)
            let upperBound = Vector(broadcasting: upper)
            store(sum0.clamped(lower: lowerBound, upper: upperBound), out, stored)
            store(sum1.clamped(lower: lowerBound, upper: upperBound), out + ldc, stored)
            store(sum2.clamped(lower: lowerBound, upper: upperBound), out + ldc &* 2, stored)
            store(sum3.clamped(lower: lowerBound, upper: upperBound), out + ldc &* 3, stored)
        }

        /// One row of one panel.
        @inline(__always)
        private func oneRow<Vector: FloatVector>(
            _: Vector.Type, _ aRow: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ bias: UnsafePointer<Float>,
            stored: Int, out: UnsafeMutablePointer<Float>
        ) {
            var sum = Self.load(Vector.self, bias, count: stored)
            var w = UnsafeRawPointer(b)
            let stride = MemoryLayout<Vector>.size
            for run in 0..<runs.count {
                let x = aRow + run &* runs.stride
                for p in 0..<runs.length {
                    Vector.multiplyAdd(&sum, Vector(broadcasting: x[p]), Vector.load(w, byteOffset: 0))
                    w += stride
                }
            }
            store(sum.clamped(lower: Vector(broadcasting: lower), upper: Vector(broadcasting: upper)), out, stored)
        }

        /// The first `count` lanes of a `Vector` from `pointer`, zeros after them.
        @inline(__always)
        private static func load<Vector: FloatVector>(
            _: Vector.Type, _ pointer: UnsafePointer<Float>, count: Int
        ) -> Vector {
            if count * 4 == MemoryLayout<Vector>.size { return Vector.load(UnsafeRawPointer(pointer), byteOffset: 0) }
            var vector = Vector(broadcasting: 0)
            withUnsafeMutableBytes(of: &vector) { bytes in
                bytes.baseAddress?.copyMemory(from: pointer, byteCount: count * 4)
            }
            return vector
        }

        /// Writes the first `count` lanes of `vector` to `pointer`.
        @inline(__always)
        private func store<Vector: FloatVector>(_ vector: Vector, _ pointer: UnsafeMutablePointer<Float>, _ count: Int)
        {
            if count * 4 == MemoryLayout<Vector>.size {
                vector.store(UnsafeMutableRawPointer(pointer), byteOffset: 0)
                return
            }
            withUnsafeBytes(of: vector) { bytes in
                guard let base = bytes.baseAddress else { return }
                UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: count * 4)
            }
        }
    }
}
