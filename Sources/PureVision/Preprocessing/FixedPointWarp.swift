import PureVisionKernels

#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// Receives the interpolated 8-bit levels of the warp, one output element at a time.
package protocol WarpSink {
    /// Stores the level `value` (0…255) of element `index` of the NHWC output.
    func store(_ value: Int32, at index: Int)
}

/// Writes the levels unchanged as bytes.
package struct ByteWarpSink: WarpSink {
    package let output: UnsafeMutablePointer<UInt8>

    package init(output: UnsafeMutablePointer<UInt8>) { self.output = output }

    @inline(__always)
    package func store(_ value: Int32, at index: Int) { output[index] = UInt8(truncatingIfNeeded: value) }
}

/// Writes `fma(level, scale, offset)`: OpenCV 3.4.10's `convertTo` in MediaPipe 0.10.14 fuses the multiply-add
/// (observed in MediaPipe's own tensors for the range [−1, 1]; with offset 0 both forms agree).
package struct FloatWarpSink: WarpSink {
    package let output: UnsafeMutablePointer<Float>
    package let scale: Float
    package let offset: Float

    package init(output: UnsafeMutablePointer<Float>, scale: Float, offset: Float) {
        self.output = output
        self.scale = scale
        self.offset = offset
    }

    @inline(__always)
    package func store(_ value: Int32, at index: Int) {
        output[index] = offset.addingProduct(Float(value), scale)
    }
}

/// `FloatWarpSink` by table lookup: the 256 possible results, computed once per warp with the same fused
/// multiply-add, so the values are identical, without a `fmaf` call per element (baseline x86-64 has no FMA
/// instruction, and the library call dominated the warp).
package struct LevelTableWarpSink: WarpSink {
    package let output: UnsafeMutablePointer<Float>
    /// `table[level] = FloatWarpSink`'s value for `level`, 256 entries.
    package let table: UnsafePointer<Float>

    package init(output: UnsafeMutablePointer<Float>, table: UnsafePointer<Float>) {
        self.output = output
        self.table = table
    }

    /// Fills `table` (256 writable floats) with `FloatWarpSink`'s value of every level.
    package static func fill(_ table: UnsafeMutablePointer<Float>, scale: Float, offset: Float) {
        for level in 0..<256 { table[level] = offset.addingProduct(Float(level), scale) }
    }

    @inline(__always)
    package func store(_ value: Int32, at index: Int) { output[index] = table[Int(UInt8(truncatingIfNeeded: value))] }
}

/// Where a warp reads its pixels: `interpolate` computes one output pixel's three RGB levels from the 2 × 2
/// neighbourhood at (sx, sy) with the given weights, and hands them to the sink.
package protocol WarpPixelSource {
    /// Width of the source image in pixels.
    var width: Int { get }
    /// Height of the source image in pixels.
    var height: Int { get }
    /// Stores the bilinear levels `(Σ wᵢ·pᵢ + 512) >> 10` of pixels (sx, sy), (sx+1, sy), (sx, sy+1), (sx+1, sy+1)
    /// at `index`, `index + 1`, `index + 2`; a neighbour outside the image reads as the nearest edge pixel
    /// (`replicate`) or 0.
    func interpolate<Sink: WarpSink>(
        sx: Int, sy: Int, weights: (Int32, Int32, Int32, Int32), replicate: Bool, at index: Int, into sink: Sink)

    /// Interpolates `count` output pixels from their fixed-point source coordinates `fixedX[j]`, `fixedY[j]` (see
    /// ``FixedPointWarp``), pixel j's levels at `index + 3·j`: the same levels as ``interpolate`` of each pixel.
    func interpolateRun<Sink: WarpSink>(
        fixedX: UnsafePointer<Int32>, fixedY: UnsafePointer<Int32>, count: Int, replicate: Bool, at index: Int,
        into sink: Sink)
}

extension WarpPixelSource {
    /// ``interpolateEachPixel(fixedX:fixedY:count:replicate:at:into:)``.
    @inline(__always)
    package func interpolateRun<Sink: WarpSink>(
        fixedX: UnsafePointer<Int32>, fixedY: UnsafePointer<Int32>, count: Int, replicate: Bool, at index: Int,
        into sink: Sink
    ) {
        interpolateEachPixel(fixedX: fixedX, fixedY: fixedY, count: count, replicate: replicate, at: index, into: sink)
    }

    /// ``interpolateRun(fixedX:fixedY:count:replicate:at:into:)`` as one ``interpolate`` call per pixel.
    @inline(__always)
    package func interpolateEachPixel<Sink: WarpSink>(
        fixedX: UnsafePointer<Int32>, fixedY: UnsafePointer<Int32>, count: Int, replicate: Bool, at index: Int,
        into sink: Sink
    ) {
        for j in 0..<count {
            let (sx, ax) = FixedPointWarp.split(fixedX[j])
            let (sy, ay) = FixedPointWarp.split(fixedY[j])
            interpolate(
                sx: sx, sy: sy, weights: FixedPointWarp.weights(ax, ay), replicate: replicate, at: index + 3 * j,
                into: sink)
        }
    }
}

/// The source of a warp: interleaved 8-bit pixels, and which byte of a pixel feeds each RGB output channel.
package struct WarpSource: WarpPixelSource {
    package var pixels: UnsafePointer<UInt8>
    package var width: Int
    package var height: Int
    package var bytesPerRow: Int
    package var bytesPerPixel: Int
    /// Byte offsets within a pixel of the red, green and blue values (all 0 for gray).
    package var channelOffsets: SIMD3<Int>

    package init(
        pixels: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int, bytesPerPixel: Int,
        channelOffsets: SIMD3<Int>
    ) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.bytesPerPixel = bytesPerPixel
        self.channelOffsets = channelOffsets
    }

    /// Samples of 3- and 4-byte pixels take SSE2 on x86-64 (``VectorSampler``), the rest
    /// ``interpolateReference(sx:sy:weights:replicate:at:into:)``, their twin.
    @inline(__always)
    package func interpolate<Sink: WarpSink>(
        sx: Int, sy: Int, weights: (Int32, Int32, Int32, Int32), replicate: Bool, at outIndex: Int, into sink: Sink
    ) {
        #if arch(x86_64)
            if bytesPerPixel == 3 || bytesPerPixel == 4 {
                VectorSampler(self).sample(
                    sx: sx, sy: sy, weights: weights, replicate: replicate, of: self, at: outIndex, into: sink)
                return
            }
        #endif
        interpolateReference(sx: sx, sy: sy, weights: weights, replicate: replicate, at: outIndex, into: sink)
    }

    #if arch(x86_64)
        /// ``interpolate`` of each pixel, with the source's fields and the sink read once for the run rather than
        /// after every store (the stores could alias them, as far as the compiler knows): 10 % off a rotated 224 × 224
        /// crop.
        @inline(__always)
        package func interpolateRun<Sink: WarpSink>(
            fixedX: UnsafePointer<Int32>, fixedY: UnsafePointer<Int32>, count: Int, replicate: Bool, at index: Int,
            into sink: Sink
        ) {
            let pixelBytes = bytesPerPixel
            guard pixelBytes == 3 || pixelBytes == 4 else {
                interpolateEachPixel(
                    fixedX: fixedX, fixedY: fixedY, count: count, replicate: replicate, at: index, into: sink)
                return
            }
            let sink = sink
            let sampler = VectorSampler(self)
            for j in 0..<count {
                let (sx, ax) = FixedPointWarp.split(fixedX[j])
                let (sy, ay) = FixedPointWarp.split(fixedY[j])
                sampler.sample(
                    sx: sx, sy: sy, weights: FixedPointWarp.weights(ax, ay), replicate: replicate, of: self,
                    at: index &+ 3 &* j, into: sink)
            }
        }

        /// A source's fields as the SSE2 samples of 3- and 4-byte pixels use them, read once.
        struct VectorSampler {
            let base: UnsafePointer<UInt8>
            let rowBytes: Int
            let pixelBytes: Int
            let lastColumn: UInt
            let lastRow: UInt
            /// Bit offsets in the sampled levels of the red, green and blue bytes.
            let shifts: SIMD3<UInt32>

            @inline(__always)
            init(_ source: WarpSource) {
                base = source.pixels
                rowBytes = source.bytesPerRow
                pixelBytes = source.bytesPerPixel
                lastColumn = UInt(bitPattern: source.width - 1)
                lastRow = UInt(bitPattern: source.height - 1)
                shifts = SIMD3<UInt32>(truncatingIfNeeded: source.channelOffsets &* 8)
            }

            /// Interpolates sample (sx, sy) of `source` (interior samples ``interpolateInterior``, the others
            /// ``interpolateBorder(sx:sy:weights:replicate:)``) and stores its red, green and blue levels.
            @inline(__always)
            func sample<Sink: WarpSink>(
                sx: Int, sy: Int, weights: (Int32, Int32, Int32, Int32), replicate: Bool, of source: WarpSource,
                at index: Int, into sink: Sink
            ) {
                // One unsigned comparison per axis: sx in 0..<lastColumn, sy in 0..<lastRow.
                let levels =
                    UInt(bitPattern: sx) < lastColumn && UInt(bitPattern: sy) < lastRow
                    ? WarpSource.interpolateInterior(
                        base + (sy &* rowBytes &+ sx &* pixelBytes), rowBytes: rowBytes, pixelBytes: pixelBytes,
                        weights: weights)
                    : source.interpolateBorder(sx: sx, sy: sy, weights: weights, replicate: replicate)
                // Byte k of `levels` is the level of the pixel's byte k.
                sink.store(Int32(truncatingIfNeeded: (levels &>> shifts[0]) & 0xFF), at: index)
                sink.store(Int32(truncatingIfNeeded: (levels &>> shifts[1]) & 0xFF), at: index &+ 1)
                sink.store(Int32(truncatingIfNeeded: (levels &>> shifts[2]) & 0xFF), at: index &+ 2)
            }
        }

        /// The levels of the 2 × 2 pixels from `p` (an interior sample, so all four exist) for each of the pixel's
        /// first 4 bytes, as the bytes of the result (byte 3 of a 3-byte pixel's is meaningless). Each row's two
        /// pixels are read as 4 bytes each, without reading past the second pixel (a 3-byte pixel's right neighbour
        /// is read from one byte early and shifted down).
        @inline(__always)
        static func interpolateInterior(
            _ p: UnsafePointer<UInt8>, rowBytes: Int, pixelBytes: Int, weights: (Int32, Int32, Int32, Int32)
        ) -> UInt32 {
            let raw = UnsafeRawPointer(p)
            let right = 2 &* pixelBytes &- 4
            let shift = UInt32(truncatingIfNeeded: 8 &* (4 &- pixelBytes))
            @inline(__always) func pair(_ offset: Int) -> (UInt32, UInt32) {
                (
                    raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self),
                    raw.loadUnaligned(fromByteOffset: offset + right, as: UInt32.self) >> shift
                )
            }
            return blend(pair(0), pair(rowBytes), weights: weights)
        }

        /// ``interpolateInterior(_:weights:)`` for a sample with a neighbour outside the image: each neighbour is read
        /// at its coordinates clamped into the image (its first 3 or 4 bytes, nothing past the pixel), and with the
        /// zero border a neighbour outside counts as 0, as in the reference.
        @inline(__always)
        func interpolateBorder(sx: Int, sy: Int, weights: (Int32, Int32, Int32, Int32), replicate: Bool) -> UInt32 {
            let lastColumn = width - 1
            let lastRow = height - 1
            let x0 = min(max(sx, 0), lastColumn)
            let x1 = min(max(sx &+ 1, 0), lastColumn)
            let row0 = UnsafeRawPointer(pixels + min(max(sy, 0), lastRow) &* bytesPerRow)
            let row1 = UnsafeRawPointer(pixels + min(max(sy &+ 1, 0), lastRow) &* bytesPerRow)
            let pixelBytes = bytesPerPixel
            @inline(__always) func word(_ row: UnsafeRawPointer, _ x: Int) -> UInt32 {
                let offset = x &* pixelBytes
                if pixelBytes == 4 { return row.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
                return UInt32(row.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
                    | UInt32(row.load(fromByteOffset: offset &+ 2, as: UInt8.self)) << 16
            }
            var top = (word(row0, x0), word(row0, x1))
            var bottom = (word(row1, x0), word(row1, x1))
            if !replicate {
                // A neighbour outside the image is 0: its column or its row is outside.
                let left: UInt32 = sx >= 0 && sx <= lastColumn ? .max : 0
                let rightColumn: UInt32 = sx &+ 1 >= 0 && sx &+ 1 <= lastColumn ? .max : 0
                let upper: UInt32 = sy >= 0 && sy <= lastRow ? .max : 0
                let lower: UInt32 = sy &+ 1 >= 0 && sy &+ 1 <= lastRow ? .max : 0
                top = (top.0 & left & upper, top.1 & rightColumn & upper)
                bottom = (bottom.0 & left & lower, bottom.1 & rightColumn & lower)
            }
            return Self.blend(top, bottom, weights: weights)
        }

        /// `(Σ wᵢ·pᵢ + 512) >> 10` for each of 4 bytes of the pixels (left, right) of two rows, as the bytes of the
        /// result: each row's bytes interleaved into int16 pairs `(left, right)` and multiplied by their weights with
        /// one `pmaddwd`; the sums are the reference's exactly, and levels (0…255) pass the packs unchanged.
        @inline(__always)
        static func blend(
            _ top: (UInt32, UInt32), _ bottom: (UInt32, UInt32), weights: (Int32, Int32, Int32, Int32)
        ) -> UInt32 {
            let (w00, w01, w10, w11) = weights
            let zero = _mm_setzero_si128()
            @inline(__always) func row(_ pixels: (UInt32, UInt32), _ leftWeight: Int32, _ rightWeight: Int32)
                -> __m128i
            {
                let pairs = _mm_unpacklo_epi8(
                    _mm_unpacklo_epi8(
                        _mm_cvtsi32_si128(Int32(bitPattern: pixels.0)), _mm_cvtsi32_si128(Int32(bitPattern: pixels.1))),
                    zero)
                return _mm_madd_epi16(pairs, _mm_set1_epi32(leftWeight | rightWeight << 16))
            }
            let sum = _mm_add_epi32(_mm_add_epi32(row(top, w00, w01), row(bottom, w10, w11)), _mm_set1_epi32(512))
            let levels = _mm_srai_epi32(sum, 10)
            return UInt32(bitPattern: _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(levels, zero), zero)))
        }
    #endif

    /// The scalar interpolation of every sample: the reference twin of the vector path of ``interpolate``.
    @inline(__always)
    package func interpolateReference<Sink: WarpSink>(
        sx: Int, sy: Int, weights: (Int32, Int32, Int32, Int32), replicate: Bool, at outIndex: Int, into sink: Sink
    ) {
        let lastColumn = width - 1
        let lastRow = height - 1
        let rowBytes = bytesPerRow
        let pixelBytes = bytesPerPixel
        let base = pixels
        let (w00, w01, w10, w11) = weights
        let p00: UnsafePointer<UInt8>?
        let p01: UnsafePointer<UInt8>?
        let p10: UnsafePointer<UInt8>?
        let p11: UnsafePointer<UInt8>?
        if sx >= 0, sx < lastColumn, sy >= 0, sy < lastRow {
            let p = base + sy * rowBytes + sx * pixelBytes
            p00 = p
            p01 = p + pixelBytes
            p10 = p + rowBytes
            p11 = p + rowBytes + pixelBytes
        } else if replicate {
            let cx0 = min(max(sx, 0), lastColumn)
            let cx1 = min(max(sx + 1, 0), lastColumn)
            let row0 = base + min(max(sy, 0), lastRow) * rowBytes
            let row1 = base + min(max(sy + 1, 0), lastRow) * rowBytes
            p00 = row0 + cx0 * pixelBytes
            p01 = row0 + cx1 * pixelBytes
            p10 = row1 + cx0 * pixelBytes
            p11 = row1 + cx1 * pixelBytes
        } else {
            let inX0 = sx >= 0 && sx <= lastColumn
            let inX1 = sx + 1 >= 0 && sx + 1 <= lastColumn
            let inY0 = sy >= 0 && sy <= lastRow
            let inY1 = sy + 1 >= 0 && sy + 1 <= lastRow
            let row0 = base + (inY0 ? sy : 0) * rowBytes
            let row1 = base + (inY1 ? sy + 1 : 0) * rowBytes
            p00 = inY0 && inX0 ? row0 + sx * pixelBytes : nil
            p01 = inY0 && inX1 ? row0 + (sx + 1) * pixelBytes : nil
            p10 = inY1 && inX0 ? row1 + sx * pixelBytes : nil
            p11 = inY1 && inX1 ? row1 + (sx + 1) * pixelBytes : nil
        }
        if pixelBytes == 1 {
            let v = Self.level(p00, p01, p10, p11, 0, w00, w01, w10, w11)
            sink.store(v, at: outIndex)
            sink.store(v, at: outIndex + 1)
            sink.store(v, at: outIndex + 2)
        } else {
            let offsets = channelOffsets
            sink.store(Self.level(p00, p01, p10, p11, offsets[0], w00, w01, w10, w11), at: outIndex)
            sink.store(Self.level(p00, p01, p10, p11, offsets[1], w00, w01, w10, w11), at: outIndex + 1)
            sink.store(Self.level(p00, p01, p10, p11, offsets[2], w00, w01, w10, w11), at: outIndex + 2)
        }
    }

    /// One channel's bilinear level; a missing neighbour (outside, zero border) counts as 0.
    @inline(__always)
    private static func level(
        _ p00: UnsafePointer<UInt8>?, _ p01: UnsafePointer<UInt8>?, _ p10: UnsafePointer<UInt8>?,
        _ p11: UnsafePointer<UInt8>?, _ offset: Int, _ w00: Int32, _ w01: Int32, _ w10: Int32, _ w11: Int32
    ) -> Int32 {
        let v00 = p00.map { Int32($0[offset]) } ?? 0
        let v01 = p01.map { Int32($0[offset]) } ?? 0
        let v10 = p10.map { Int32($0[offset]) } ?? 0
        let v11 = p11.map { Int32($0[offset]) } ?? 0
        return (v00 * w00 + v01 * w01 + v10 * w10 + v11 * w11 + 512) >> 10
    }
}

/// The source of a warp over a YUV 4:2:0 image: each of the (at most four) pixels a sample reads is converted to
/// RGB with `YUVPlanes.rgb` and then interpolated exactly as the same pixels of the converted RGB image would be,
/// so only the pixels the crop samples are converted, and the result equals the warp of the converted image.
package struct YUVWarpSource: WarpPixelSource {
    package let planes: YUVPlanes
    package let width: Int
    package let height: Int

    package init(planes: YUVPlanes, width: Int, height: Int) {
        self.planes = planes
        self.width = width
        self.height = height
    }

    @inline(__always)
    package func interpolate<Sink: WarpSink>(
        sx: Int, sy: Int, weights: (Int32, Int32, Int32, Int32), replicate: Bool, at outIndex: Int, into sink: Sink
    ) {
        let lastColumn = width - 1
        let lastRow = height - 1
        let zero = SIMD3<Int32>(repeating: 0)
        let c00: SIMD3<Int32>
        let c01: SIMD3<Int32>
        let c10: SIMD3<Int32>
        let c11: SIMD3<Int32>
        if sx >= 0, sx < lastColumn, sy >= 0, sy < lastRow {
            c00 = planes.rgb(x: sx, y: sy)
            c01 = planes.rgb(x: sx + 1, y: sy)
            c10 = planes.rgb(x: sx, y: sy + 1)
            c11 = planes.rgb(x: sx + 1, y: sy + 1)
        } else if replicate {
            let x0 = min(max(sx, 0), lastColumn)
            let x1 = min(max(sx + 1, 0), lastColumn)
            let y0 = min(max(sy, 0), lastRow)
            let y1 = min(max(sy + 1, 0), lastRow)
            c00 = planes.rgb(x: x0, y: y0)
            c01 = planes.rgb(x: x1, y: y0)
            c10 = planes.rgb(x: x0, y: y1)
            c11 = planes.rgb(x: x1, y: y1)
        } else {
            let inX0 = sx >= 0 && sx <= lastColumn
            let inX1 = sx + 1 >= 0 && sx + 1 <= lastColumn
            let inY0 = sy >= 0 && sy <= lastRow
            let inY1 = sy + 1 >= 0 && sy + 1 <= lastRow
            c00 = inY0 && inX0 ? planes.rgb(x: sx, y: sy) : zero
            c01 = inY0 && inX1 ? planes.rgb(x: sx + 1, y: sy) : zero
            c10 = inY1 && inX0 ? planes.rgb(x: sx, y: sy + 1) : zero
            c11 = inY1 && inX1 ? planes.rgb(x: sx + 1, y: sy + 1) : zero
        }
        let (w00, w01, w10, w11) = weights
        let top: SIMD3<Int32> = c00 &* w00 &+ c01 &* w01
        let bottom: SIMD3<Int32> = c10 &* w10 &+ c11 &* w11
        let sum: SIMD3<Int32> = top &+ bottom &+ SIMD3<Int32>(repeating: 512)
        let levels = sum &>> 10
        sink.store(levels.x, at: outIndex)
        sink.store(levels.y, at: outIndex + 1)
        sink.store(levels.z, at: outIndex + 2)
    }
}

/// OpenCV 3.4.10's `warpPerspective` with `INTER_LINEAR` on 8-bit pixels, in its fixed-point arithmetic.
///
/// For output pixel (x, y), with `inverse` the destination→source matrix m: columns are processed in blocks of
/// `bw = min(1024 / min(16, H), W)` (64 when H ≥ 16); with `x = x₀ + j` in a block, `X₀ = m0·x₀ + m1·y + m2`
/// (likewise Y₀, W₀ with m3…m5, m6…m8) and `fX = (X₀ + m0·j) · (32 / (W₀ + m6·j))` (0 when the denominator is 0),
/// clamped to Int32 and rounded half to even; `X >> 5` is the source column and `X & 31` its fraction in 1/32 px.
/// The level is `(Σ wᵢ·pᵢ + 512) >> 10` with weights (32−fx)(32−fy), fx(32−fy), (32−fx)fy, fx·fy over the pixels
/// (sx, sy), (sx+1, sy), (sx, sy+1), (sx+1, sy+1); a neighbour outside the image reads 0 (`.zero`) or the nearest
/// edge pixel (`.replicate`). Output is NHWC `[H, W, 3]`, RGB, each element passed to `sink`.
package enum FixedPointWarp {
    /// Warps every output row, split over `pool`'s threads when there is one and the output has 32 rows or more
    /// (rows are independent: the split does not change a value).
    package static func warp<Source: WarpPixelSource, Sink: WarpSink>(
        _ source: Source, inverse m: SIMD16<Double>, outputWidth: Int, outputHeight: Int, border: BorderMode,
        into sink: Sink, pool: ThreadPool? = nil
    ) {
        let tasks = outputHeight >= 32 ? ThreadPool.chunkCount(outputHeight / 16, threads: pool?.threadCount ?? 1) : 1
        guard let pool, tasks > 1 else {
            warp(
                source, inverse: m, outputWidth: outputWidth, outputHeight: outputHeight, rows: 0..<outputHeight,
                border: border, into: sink)
            return
        }
        pool.parallelFor(
            tasks,
            WarpRows(
                source: source, inverse: m, outputWidth: outputWidth, outputHeight: outputHeight, border: border,
                sink: sink, tasks: tasks))
    }

    /// Task `task` of `tasks`: its share of the output rows.
    private struct WarpRows<Source: WarpPixelSource, Sink: WarpSink>: ParallelTaskBody {
        let source: Source
        let inverse: SIMD16<Double>
        let outputWidth: Int
        let outputHeight: Int
        let border: BorderMode
        let sink: Sink
        let tasks: Int

        func run(task: Int) {
            warp(
                source, inverse: inverse, outputWidth: outputWidth, outputHeight: outputHeight,
                rows: outputHeight * task / tasks..<outputHeight * (task + 1) / tasks, border: border, into: sink)
        }
    }

    /// Warps output rows `rows`.
    package static func warp<Source: WarpPixelSource, Sink: WarpSink>(
        _ source: Source, inverse m: SIMD16<Double>, outputWidth: Int, outputHeight: Int, rows: Range<Int>,
        border: BorderMode, into sink: Sink
    ) {
        if m[1] == 0, m[3] == 0, m[6] == 0, m[7] == 0 {
            warpAxisAligned(
                source, inverse: m, outputWidth: outputWidth, outputHeight: outputHeight, rows: rows, border: border,
                into: sink)
        } else {
            warpAnyMatrix(
                source, inverse: m, outputWidth: outputWidth, outputHeight: outputHeight, rows: rows, border: border,
                into: sink)
        }
    }

    /// Columns per block of the coordinate computation (see ``FixedPointWarp``).
    private static func blockWidth(outputWidth: Int, outputHeight: Int) -> Int {
        min(1024 / min(16, outputHeight), outputWidth)
    }

    /// The source pixel (clamped to the 16-bit range the warp works in) and the fraction in 1/32 px of a fixed-point
    /// coordinate.
    @inline(__always)
    static func split(_ fixed: Int32) -> (pixel: Int, fraction: Int32) {
        (min(max(Int(fixed) >> 5, -32768), 32767), fixed & 31)
    }

    /// The bilinear weights (in 1/1024) of the four neighbours for fractions `ax`, `ay` (in 1/32).
    @inline(__always)
    static func weights(_ ax: Int32, _ ay: Int32) -> (Int32, Int32, Int32, Int32) {
        ((32 - ax) * (32 - ay), ax * (32 - ay), (32 - ax) * ay, ax * ay)
    }

    /// ``warp(_:inverse:outputWidth:outputHeight:rows:border:into:)`` when m1 = m3 = m6 = m7 = 0 (crops, resizes,
    /// letterboxes): X depends on the column alone and Y on the row alone, so each is worked out once (each row's
    /// pixels then go to the source's ``WarpPixelSource/interpolateRun(fixedX:fixedY:count:replicate:at:into:)``), by
    /// ``warpPixelByPixel(_:inverse:outputWidth:outputHeight:rows:border:into:)``'s expressions without the terms of the
    /// zero entries. Those terms are ±0, which change no sum that is not itself ±0, and a ±0 coordinate rounds to 0
    /// (or, times an infinite w, to NaN) whatever its sign, so every level is the same.
    private static func warpAxisAligned<Source: WarpPixelSource, Sink: WarpSink>(
        _ source: Source, inverse m: SIMD16<Double>, outputWidth: Int, outputHeight: Int, rows: Range<Int>,
        border: BorderMode, into sink: Sink
    ) {
        let blockWidth = blockWidth(outputWidth: outputWidth, outputHeight: outputHeight)
        let (m0, m2, m4, m5, m8) = (m[0], m[2], m[4], m[5], m[8])
        let w = m8 != 0 ? 32 / m8 : 0
        let replicate = border == .replicate
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * outputWidth) { buffer in
            guard let fixedX = buffer.baseAddress else { return }
            let fixedY = fixedX + outputWidth
            var blockStart = 0
            while blockStart < outputWidth {
                let blockEnd = min(blockStart + blockWidth, outputWidth)
                let x0 = m0 * Double(blockStart) + m2
                for x in blockStart..<blockEnd {
                    (fixedX + x).initialize(to: fixedPoint(SIMD2(x0 + m0 * Double(x - blockStart), 0) * w).x)
                }
                blockStart = blockEnd
            }
            for y in rows {
                fixedY.initialize(repeating: fixedPoint(SIMD2(m4 * Double(y) + m5, 0) * w).x, count: outputWidth)
                source.interpolateRun(
                    fixedX: fixedX, fixedY: fixedY, count: outputWidth, replicate: replicate,
                    at: y * outputWidth * 3, into: sink)
            }
        }
    }

    /// ``warp(_:inverse:outputWidth:outputHeight:rows:border:into:)`` for any matrix (rotated crops): a block's
    /// coordinates worked out four pixels at a time (``blockCoordinates``), then its pixels interpolated.
    package static func warpAnyMatrix<Source: WarpPixelSource, Sink: WarpSink>(
        _ source: Source, inverse m: SIMD16<Double>, outputWidth: Int, outputHeight: Int, rows: Range<Int>,
        border: BorderMode, into sink: Sink
    ) {
        let blockWidth = blockWidth(outputWidth: outputWidth, outputHeight: outputHeight)
        let replicate = border == .replicate
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * blockWidth + 8) { buffer in
            guard let fixedX = buffer.baseAddress else { return }
            let fixedY = fixedX + blockWidth + 4
            for y in rows {
                var blockStart = 0
                while blockStart < outputWidth {
                    let blockEnd = min(blockStart + blockWidth, outputWidth)
                    blockCoordinates(
                        m, x: blockStart, y: y, count: blockEnd - blockStart, fixedX: fixedX, fixedY: fixedY)
                    source.interpolateRun(
                        fixedX: fixedX, fixedY: fixedY, count: blockEnd - blockStart, replicate: replicate,
                        at: (y * outputWidth + blockStart) * 3, into: sink)
                    blockStart = blockEnd
                }
            }
        }
    }

    /// The fixed-point source coordinates of the block of `count` pixels from (`x`, `y`), into `fixedX` and
    /// `fixedY` (each with room for `count` rounded up to a multiple of 4). For pixel `x + j`:
    /// `(X₀ + m0·j, Y₀ + m3·j) · w` with `w = 32 / (W₀ + m6·j)` (0 when that is 0), `X₀ = m0·x + m1·y + m2` and so on;
    /// with m6 = 0 (every affine warp) the denominator is W₀ + 0 = W₀ at every pixel, so its reciprocal is worked out
    /// once. Lanes hold pixels `j … j + 3` and compute each pixel's operations in the same order (`j + lane` is exact).
    @inline(__always)
    private static func blockCoordinates(
        _ m: SIMD16<Double>, x: Int, y: Int, count: Int, fixedX: UnsafeMutablePointer<Int32>,
        fixedY: UnsafeMutablePointer<Int32>
    ) {
        typealias Lanes = SIMD4<Double>
        let (xd, yd) = (Double(x), Double(y))
        let x0 = Lanes(repeating: m[0] * xd + m[1] * yd + m[2])
        let y0 = Lanes(repeating: m[3] * xd + m[4] * yd + m[5])
        let w0 = m[6] * xd + m[7] * yd + m[8]
        let (m0, m3, m6) = (Lanes(repeating: m[0]), Lanes(repeating: m[3]), Lanes(repeating: m[6]))
        let blockW = Lanes(repeating: w0 != 0 ? 32 / w0 : 0)
        let thirtyTwo = Lanes(repeating: 32)
        var j = 0
        while j < count {
            let jd = Lanes(repeating: Double(j)) + Lanes(0, 1, 2, 3)
            var w = blockW
            if m[6] != 0 {
                let denominator = Lanes(repeating: w0) + m6 * jd
                w = thirtyTwo / denominator
                w.replace(with: 0, where: denominator .== 0)
            }
            UnsafeMutableRawPointer(fixedX + j).storeBytes(
                of: fixedPoint((x0 + m0 * jd) * w), as: SIMD4<Int32>.self)
            UnsafeMutableRawPointer(fixedY + j).storeBytes(
                of: fixedPoint((y0 + m3 * jd) * w), as: SIMD4<Int32>.self)
            j += 4
        }
    }

    /// The reference twin of both warp loops: every pixel's coordinates worked out alone, in scalar (two-lane)
    /// arithmetic, then the pixel interpolated.
    package static func warpPixelByPixel<Source: WarpPixelSource, Sink: WarpSink>(
        _ source: Source, inverse m: SIMD16<Double>, outputWidth: Int, outputHeight: Int, rows: Range<Int>,
        border: BorderMode, into sink: Sink
    ) {
        let blockWidth = blockWidth(outputWidth: outputWidth, outputHeight: outputHeight)
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let replicate = border == .replicate
        for y in rows {
            let yd = Double(y)
            var blockStart = 0
            while blockStart < outputWidth {
                let blockEnd = min(blockStart + blockWidth, outputWidth)
                let xd = Double(blockStart)
                let x0 = m0 * xd + m1 * yd + m2
                let y0 = m3 * xd + m4 * yd + m5
                let w0 = m6 * xd + m7 * yd + m8
                // With m6 = 0 (every affine warp) the denominator is w0 + 0 = w0 for the whole block, so its
                // reciprocal is the same value at every pixel: one division per block instead of one per pixel.
                let blockW = w0 != 0 ? 32 / w0 : 0
                let origin = SIMD2(x0, y0)
                let step = SIMD2(m0, m3)
                for x in blockStart..<blockEnd {
                    let jd = Double(x - blockStart)
                    let w: Double
                    if m6 == 0 {
                        w = blockW
                    } else {
                        let denominator = w0 + m6 * jd
                        w = denominator != 0 ? 32 / denominator : 0
                    }
                    // (x0 + m0·j, y0 + m3·j) · w, both coordinates at once.
                    let fixed = fixedPoint((origin + step * jd) * w)
                    let (sx, ax) = split(fixed.x)
                    let (sy, ay) = split(fixed.y)
                    source.interpolate(
                        sx: sx, sy: sy, weights: weights(ax, ay), replicate: replicate, at: (y * outputWidth + x) * 3,
                        into: sink)
                }
                blockStart = blockEnd
            }
        }
    }

    /// `Int32(roundedToNearestEven(clampToInt32(v)))` for each lane, without branches: the clamp as two lane
    /// selections, then the rounding addition of 1.5·2⁵², whose sum holds the rounded value in the low 32 bits of
    /// its bit pattern (its unit in the last place is 1, and 2⁵¹ + n stays below 2⁵² for |n| ≤ 2³¹).
    @inline(__always)
    package static func fixedPoint(_ v: SIMD4<Double>) -> SIMD4<Int32> {
        let upper = SIMD4<Double>(repeating: Double(Int32.max))
        let lower = SIMD4<Double>(repeating: Double(Int32.min))
        // C++'s std::min / std::max operand order: NaN becomes Int32.max.
        var clamped = v
        clamped.replace(with: upper, where: .!(v .< upper))
        clamped.replace(with: lower, where: .!(lower .< clamped))
        let biased = clamped + SIMD4(repeating: roundingBias)
        return SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(biased, to: SIMD4<UInt64>.self))
    }

    /// The four-lane ``fixedPoint(_:)`` for two lanes.
    @inline(__always)
    package static func fixedPoint(_ v: SIMD2<Double>) -> SIMD2<Int32> {
        fixedPoint(SIMD4(lowHalf: v, highHalf: v)).lowHalf
    }

    /// 1.5·2⁵²: a Double of magnitude below 2⁵¹ added to it is rounded to an integer, to nearest even.
    private static var roundingBias: Double { 6_755_399_441_055_744.0 }

    /// `min(max(v, Int32.min), Int32.max)` with C++'s `std::min`/`std::max` operand order, so NaN becomes Int32.max
    /// (the scalar twin of ``fixedPoint(_:)``'s clamp).
    @inline(__always)
    package static func clampToInt32(_ value: Double) -> Double {
        let upper = Double(Int32.max)
        let lower = Double(Int32.min)
        let clamped = value < upper ? value : upper
        return lower < clamped ? clamped : lower
    }

    /// `value.rounded(.toNearestOrEven)` for |value| ≤ 2³¹ without a `rint` call (baseline x86-64 has no
    /// rounding instruction): adding and subtracting 1.5·2⁵² leaves no fraction bits, so the default
    /// round-to-nearest-even of the addition does the rounding, exactly.
    @inline(__always)
    package static func roundedToNearestEven(_ value: Double) -> Double {
        (value + roundingBias) - roundingBias
    }
}
