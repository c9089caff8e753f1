/// The right-hand matrix `B` (`k × n`) of a ``PanelGEMM`` product, packed once at load into column panels.
///
/// Panel `p` holds columns `columnStarts[p] ..< columnStarts[p] + widths[p]` as `k` rows of `widths[p]` contiguous
/// floats, so a micro-kernel reads one row of a panel as one or two vectors and the whole panel in one forward
/// sweep. Panels are 24 columns wide, with 16- and 8-wide ones at the end so that no 8-wide panel follows a wider
/// one unless 8 columns are all that is left (25 to 32 columns left are two 16-wide panels); columns past `n` are
/// zeros (their sums are computed and never stored).
package struct PackedPanels: Sendable {
    /// Rows of `B`.
    package let k: Int
    /// Columns of `B`.
    package let n: Int
    /// Each panel's width: 24, 16 or 8.
    package let widths: [Int]
    /// The leading 24-wide panels; the ones after them (at most two) are narrower.
    package let widePanelCount: Int
    /// Each panel's first column.
    package let columnStarts: [Int]
    /// Each panel's first float in ``floats``.
    private let offsets: [Int]
    /// The panels, one after the other.
    private let floats: [Float]

    /// The widest panel.
    package static let maximumWidth = 24

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
            let remaining = n - column
            let width = remaining <= 8 ? 8 : remaining <= 16 || (25...32).contains(remaining) ? 16 : 24
            widths.append(width)
            starts.append(column)
            offsets.append(offset)
            column += width
            offset += width * k
        }
        self.widths = widths
        widePanelCount = widths.prefix { $0 == Self.maximumWidth }.count
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
/// The micro-kernel computes a tile of rows × one panel (24, 16 or 8 columns: three, two or one vectors of 8 floats
/// per row, split into as many registers as the target has lanes) from the bias, one broadcast `A` element per row
/// and one panel row per step of `k`, and clamps at the only store. A 24-wide panel goes in tiles of
/// ``wideTileRows`` rows, the narrower ones in tiles of ``tileRows``, the rows left after whole tiles in tiles of 4
/// and 5 (see ``RowTiling``). Each sum starts at the bias and adds the products in `k` order, one
/// ``FloatVector/multiplyAdd(_:_:_:)`` each: exactly ``Reference/conv2D`` with `.xnnpack` arithmetic where the target
/// fuses multiply-adds, with `.liteRT` arithmetic where it does not; a row's sums do not depend on how the rows or
/// panels are cut.
package enum PanelGEMM {
    /// Tile rows of the micro-kernel on 16- and 8-wide panels: 6 where its 12 accumulators of a 16-wide panel stay
    /// in registers (AVX's 16 ymm, NEON's 32 q), else 4.
    package static var tileRows: Int { SwiftKernelTarget.runsMicroKernels ? 6 : 4 }
    /// Tile rows on 24-wide panels: 4, whose 12 accumulators of 8 floats fill AVX's 16 ymm registers as 6 rows of
    /// 16 do, with 19 instead of 20 loads, broadcasts and multiply-adds per 12 multiply-adds (NEON: 24 of 32 q).
    package static let wideTileRows = 4
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
            // Row tiles outermost (each sweeps the range's panels) or panels outermost (each read by every tile).
            let rowsOutermost = panels.floatCount <= rowsOutermostFloats
            func run(_ range: Range<Int>, in tiling: RowTiling) {
                guard !range.isEmpty else { return }
                if rowsOutermost {
                    tiling.forEachTile { first, count in
                        for panel in range { tiles.run(panel: panel, firstRow: first, rows: count) }
                    }
                } else {
                    for panel in range {
                        tiling.forEachTile { first, count in tiles.run(panel: panel, firstRow: first, rows: count) }
                    }
                }
            }
            // 24-wide panels in 4-row tiles, the narrower ones (at most two, at the end) in tiles of `tileRows`.
            let wide = panels.widePanelCount
            run(panelRange.clamped(to: 0..<wide), in: RowTiling(rows: rows, tile: wideTileRows))
            run(panelRange.clamped(to: wide..<panels.widths.count), in: RowTiling(rows: rows, tile: tileRows))
        }
    }

    /// How the rows of a product are cut into tiles: whole tiles of ``tileRows`` (or ``wideTileRows``) rows, then up
    /// to three shorter ones.
    ///
    /// A tile with few rows has too few independent sums to keep the multiply-add units busy (each sum waits for its
    /// previous multiply-add), so with 6-row tiles the rows left over are covered by tiles of 4 and 5 rows, giving
    /// back one or two 6-row tiles where needed: 13 rows are 5 + 4 + 4, 49 are 6 × 6 + 5 + 4 + 4. With 4-row tiles
    /// (of 24-wide panels, three vectors a row) a lone last row gives back one tile for 3 + 2 rows: 49 are 11 × 4 +
    /// 3 + 2. Every row is computed once, and alike in any tile.
    package struct RowTiling {
        /// Rows of a whole tile.
        package let tile: Int
        /// Whole tiles, first.
        package let fullTiles: Int
        /// The shorter tiles after them, in order; 0 where there is none.
        package let tail: (Int, Int, Int)

        /// The tiles of `rows` rows with whole tiles of `tile` rows (``tileRows``).
        package init(rows: Int, tile: Int) {
            self.tile = tile
            var full = rows / tile
            let remainder = rows % tile
            if tile == 4 && remainder == 1 && full >= 1 {
                // A lone row of a 4-row tiling as 3 + 2 rows: nine and six independent sums instead of three.
                full -= 1
                tail = (3, 2, 0)
            } else if tile != 6 || remainder == 0 {
                tail = (remainder, 0, 0)
            } else if rows < 6 {
                tail = (rows, 0, 0)
            } else {
                switch remainder {
                case 4, 5: tail = (remainder, 0, 0)
                case 3:
                    full -= 1
                    tail = (5, 4, 0)
                case 2:
                    full -= 1
                    tail = (4, 4, 0)
                default:  // 1
                    if full >= 2 {
                        full -= 2
                        tail = (5, 4, 4)
                    } else {
                        full = 0
                        tail = (4, 3, 0)
                    }
                }
            }
            fullTiles = full
        }

        /// Calls `body(firstRow, rows)` for each tile, in row order.
        @inline(__always)
        package func forEachTile(_ body: (Int, Int) -> Void) {
            var first = 0
            for _ in 0..<fullTiles {
                body(first, tile)
                first += tile
            }
            if tail.0 > 0 { body(first, tail.0) }
            if tail.1 > 0 { body(first + tail.0, tail.1) }
            if tail.2 > 0 { body(first + tail.0 + tail.1, tail.2) }
        }
    }

    /// A tile's row count as a type, for ``Tiles`` to specialize its loop on.
    protocol TileHeight {
        /// Rows of the tile, 1 to 6.
        static var rows: Int { get }
    }
    enum OneRow: TileHeight { static var rows: Int { 1 } }
    enum TwoRows: TileHeight { static var rows: Int { 2 } }
    enum ThreeRows: TileHeight { static var rows: Int { 3 } }
    enum FourRows: TileHeight { static var rows: Int { 4 } }
    enum FiveRows: TileHeight { static var rows: Int { 5 } }
    enum SixRows: TileHeight { static var rows: Int { 6 } }

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

        /// Rows `firstRow ..< firstRow + rows` (`rows` from 1 to 6) of panel `panel`.
        @inline(__always)
        func run(panel: Int, firstRow: Int, rows: Int) {
            let width = panels.widths[panel]
            let column = panels.columnStarts[panel]
            let b = floats + offsets[panel]
            let stored = min(width, n - column)
            let aRows = a + firstRow * lda
            let out = c + firstRow * ldc + column
            if width == PackedPanels.maximumWidth {
                rowTile(
                    FloatVector24.self, rows: rows, aRows, b, bias + column, stored: stored, out: out)
            } else if width == 16 {
                rowTile(
                    FloatVector16.self, rows: rows, aRows, b, bias + column, stored: stored, out: out)
            } else {
                rowTile(SIMD8<Float>.self, rows: rows, aRows, b, bias + column, stored: stored, out: out)
            }
        }

        /// `rows` (1 to 6) rows of one panel as `Vector`s (one panel row each), through ``multiplyRows(_:_:_:_:_:stored:out:)``
        /// specialized for that count.
        @inline(__always)
        private func rowTile<Vector: FloatVector>(
            _: Vector.Type, rows: Int, _ aRows: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
            _ bias: UnsafePointer<Float>, stored: Int, out: UnsafeMutablePointer<Float>
        ) {
            switch rows {
            case 6: multiplyRows(SixRows.self, Vector.self, aRows, b, bias, stored: stored, out: out)
            case 5: multiplyRows(FiveRows.self, Vector.self, aRows, b, bias, stored: stored, out: out)
            case 4: multiplyRows(FourRows.self, Vector.self, aRows, b, bias, stored: stored, out: out)
            case 3: multiplyRows(ThreeRows.self, Vector.self, aRows, b, bias, stored: stored, out: out)
            case 2: multiplyRows(TwoRows.self, Vector.self, aRows, b, bias, stored: stored, out: out)
            default: multiplyRows(OneRow.self, Vector.self, aRows, b, bias, stored: stored, out: out)
            }
        }

        /// `Height.rows` rows of one panel. The count is a type's constant, so each specialization keeps the code of
        /// its own rows only, with no test in the loop.
        @inline(__always)
        private func multiplyRows<Height: TileHeight, Vector: FloatVector>(
            _: Height.Type, _: Vector.Type, _ aRows: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
            _ bias: UnsafePointer<Float>, stored: Int, out: UnsafeMutablePointer<Float>
        ) {
            let count = Height.rows
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
                    if count > 1 { Vector.multiplyAdd(&sum1, Vector(broadcasting: x[lda]), weights) }
                    if count > 2 { Vector.multiplyAdd(&sum2, Vector(broadcasting: x[lda &* 2]), weights) }
                    if count > 3 { Vector.multiplyAdd(&sum3, Vector(broadcasting: x[lda &* 3]), weights) }
                    if count > 4 { Vector.multiplyAdd(&sum4, Vector(broadcasting: x[lda &* 4]), weights) }
                    if count > 5 { Vector.multiplyAdd(&sum5, Vector(broadcasting: x[lda &* 5]), weights) }
                    x += 1
                    w += stride
                }
            }
            let lowerBound = Vector(broadcasting: lower)
            let upperBound = Vector(broadcasting: upper)
            store(sum0.clamped(lower: lowerBound, upper: upperBound), out, stored)
            if count > 1 { store(sum1.clamped(lower: lowerBound, upper: upperBound), out + ldc, stored) }
            if count > 2 { store(sum2.clamped(lower: lowerBound, upper: upperBound), out + ldc &* 2, stored) }
            if count > 3 { store(sum3.clamped(lower: lowerBound, upper: upperBound), out + ldc &* 3, stored) }
            if count > 4 { store(sum4.clamped(lower: lowerBound, upper: upperBound), out + ldc &* 4, stored) }
            if count > 5 { store(sum5.clamped(lower: lowerBound, upper: upperBound), out + ldc &* 5, stored) }
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
