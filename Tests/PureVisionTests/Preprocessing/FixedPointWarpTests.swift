import PureVision
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The warp's fast paths against the plain arithmetic they replace: bit for bit.
struct FixedPointWarpTests {
    /// `count` values uniform in [0, 1) from a 64-bit linear congruential generator started at `seed`.
    static func units(seed: UInt64, count: Int) -> [Double] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    /// The table sink stores exactly what the fused multiply-add sink stores, for every level.
    @Test(arguments: [(Float(1) / 255, Float(0)), (Float(2) / 255, Float(-1)), (Float(1), Float(0)), (0.0039215, -0.5)])
    func levelTableEqualsFusedMultiplyAdd(_ parameters: (Float, Float)) {
        let (scale, offset) = parameters
        var table = [Float](repeating: .nan, count: 256)
        var viaTable = [Float](repeating: .nan, count: 256)
        var viaFMA = [Float](repeating: .nan, count: 256)
        table.withUnsafeMutableBufferPointer { entries in
            guard let t = entries.baseAddress else { return }
            LevelTableWarpSink.fill(t, scale: scale, offset: offset)
            viaTable.withUnsafeMutableBufferPointer { a in
                viaFMA.withUnsafeMutableBufferPointer { b in
                    guard let x = a.baseAddress, let y = b.baseAddress else { return }
                    let fast = LevelTableWarpSink(output: x, table: t)
                    let plain = FloatWarpSink(output: y, scale: scale, offset: offset)
                    for level in Int32(0)...255 {
                        fast.store(level, at: Int(level))
                        plain.store(level, at: Int(level))
                    }
                }
            }
        }
        #expect(viaTable.map(\.bitPattern) == viaFMA.map(\.bitPattern))
    }

    /// The interpolation (SSE2 for interior samples of 3- and 4-byte pixels on x86-64) against its scalar twin, on
    /// images allocated to their last byte: every channel order, strided rows, samples inside, on and past every edge,
    /// both borders, random weights.
    ///
    /// The channel offsets arrive as an array, not a `SIMD3<Int>`: a 32-byte-aligned value in a test's arguments
    /// makes the debug build's async test thunk abort in Swift 6.3.1's task allocator ("freed pointer was not the
    /// last allocation") on x86-64 Linux.
    @Test(arguments: [
        (3, [0, 1, 2], 0), (4, [0, 1, 2], 0), (4, [2, 1, 0], 4), (4, [1, 2, 3], 0), (1, [0, 0, 0], 3),
        (3, [2, 1, 0], 5),
    ])
    func interpolationMatchesItsTwin(_ layout: (Int, [Int], Int)) {
        let (pixelBytes, offsetList, rowPadding) = layout
        let offsets = SIMD3(offsetList[0], offsetList[1], offsetList[2])
        let (width, height) = (7, 5)
        let rowBytes = width * pixelBytes + rowPadding
        var state: UInt64 = UInt64(pixelBytes * 100 + rowPadding)
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let count = rowBytes * (height - 1) + width * pixelBytes
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        defer { pixels.deallocate() }
        for i in 0..<count { pixels[i] = UInt8(truncatingIfNeeded: next()) }
        let source = WarpSource(
            pixels: pixels, width: width, height: height, bytesPerRow: rowBytes, bytesPerPixel: pixelBytes,
            channelOffsets: offsets)
        var fast = [UInt8](repeating: 0, count: 3)
        var plain = [UInt8](repeating: 0, count: 3)
        for sy in -2...(height + 1) {
            for sx in -2...(width + 1) {
                for replicate in [false, true] {
                    let (ax, ay) = (Int32(next() % 32), Int32(next() % 32))
                    let weights = ((32 - ax) * (32 - ay), ax * (32 - ay), (32 - ax) * ay, ax * ay)
                    fast.withUnsafeMutableBufferPointer { out in
                        source.interpolate(
                            sx: sx, sy: sy, weights: weights, replicate: replicate, at: 0,
                            into: ByteWarpSink(output: out.baseAddress!))
                    }
                    plain.withUnsafeMutableBufferPointer { out in
                        source.interpolateReference(
                            sx: sx, sy: sy, weights: weights, replicate: replicate, at: 0,
                            into: ByteWarpSink(output: out.baseAddress!))
                    }
                    #expect(fast == plain, "(\(sx), \(sy)) weights \(weights) replicate \(replicate)")
                }
            }
        }
    }

    /// The two- and four-lane clamp and rounding of sample coordinates against the scalar steps they replace: NaN, infinities,
    /// the Int32 limits and beyond, ties, random values over the whole range.
    @Test func fixedPointMatchesClampAndRounding() {
        var values: [Double] = [
            .nan, .infinity, -.infinity, 0, -0.0, 0.5, 1.5, -0.5, -2.5, 31.5, Double(Int32.max), Double(Int32.min),
            Double(Int32.max) + 0.4, Double(Int32.max) + 1, Double(Int32.min) - 0.6, Double(Int32.max) - 0.5,
            Double(Int32.min) + 0.5, 1e300, -1e300, 4096.5000001,
        ]
        for unit in Self.units(seed: 777, count: 20_000) {
            values.append((unit - 0.5) * 5 * Double(Int32.max))
            values.append((unit - 0.5) * 8192)
        }
        for (a, b) in zip(values, values.reversed()) {
            let fast = FixedPointWarp.fixedPoint(SIMD2(a, b))
            func plain(_ v: Double) -> Int32 {
                Int32(FixedPointWarp.roundedToNearestEven(FixedPointWarp.clampToInt32(v)))
            }
            #expect(fast == SIMD2(plain(a), plain(b)), "\(a), \(b)")
            let four = FixedPointWarp.fixedPoint(SIMD4(a, b, b, a))
            #expect(four == SIMD4(plain(a), plain(b), plain(b), plain(a)), "\(a), \(b)")
        }
    }

    /// Rounding without `rint`: ties to even, negatives, the Int32 limits the warp clamps to, tiny fractions.
    @Test func roundingMatchesToNearestOrEven() {
        var values: [Double] = [
            0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, 31.5, 32.5, -31.5, 1e-300, -1e-300,
            Double(Int32.max), Double(Int32.min), Double(Int32.max) - 0.5, Double(Int32.min) + 0.5, 123456.75,
            -98765.25, 4095.5000001, 4096.4999999,
        ]
        for unit in Self.units(seed: 12345, count: 10_000) {
            values.append((unit - 0.5) * 2 * Double(Int32.max))
            values.append((unit - 0.5) * 4096)
            values.append(Double(Int(unit * 2000) - 1000) + 0.5)
        }
        for value in values {
            let fast = FixedPointWarp.roundedToNearestEven(value)
            #expect(fast == value.rounded(.toNearestOrEven), "\(value)")
        }
    }

    /// The axis-aligned warp (coordinates once per column and per row) against the loop over every pixel's
    /// coordinates, bit for bit: scales that shrink, enlarge and mirror, signed zeros in the matrix, a perspective
    /// term of 0 and 0.5, both borders, partial row ranges.
    @Test(arguments: [false, true])
    func axisAlignedWarpMatchesTheGeneralLoop(_ replicate: Bool) {
        var matrices: [[Double]] = [
            [1, 0, 0, 0, 1, 0, 0, 0, 1], [0.5, -0.0, 3.25, 0, 0.75, -2, -0.0, 0, 1],
            [-1.3, 0, 30, -0.0, 2.1, 1, 0, -0.0, 1],
            [0.999, 0, -0.0, 0, 1.001, 0.0, 0, 0, 0.5], [0, 0, 4, 0, 0, 5, 0, 0, 1], [1, 0, 0, 0, 1, 0, 0, 0, 0],
        ]
        let units = Self.units(seed: replicate ? 7 : 3, count: 80)
        for i in stride(from: 0, to: units.count, by: 4) {
            let (a, b, c, d) = (units[i], units[i + 1], units[i + 2], units[i + 3])
            matrices.append([(a - 0.3) * 3, 0, (b - 0.5) * 60, 0, (c - 0.3) * 3, (d - 0.5) * 60, 0, 0, 1])
        }
        Self.expectTwinWarps(
            width: 23, height: 17, pixelBytes: 3, channelOffsets: SIMD3(0, 1, 2), replicate: replicate,
            matrices: matrices, sizes: [(37, 19), (64, 33)]
        ) { source, m, outputWidth, outputHeight, rows, border, sink in
            FixedPointWarp.warp(
                source, inverse: m, outputWidth: outputWidth, outputHeight: outputHeight, rows: rows, border: border,
                into: sink)
        }
    }

    /// The general warp (coordinates four pixels at a time) against its pixel-by-pixel twin, bit for bit: rotations
    /// and shears, tiny and large perspective terms, a denominator that is exactly 0 at one pixel, NaN and infinite
    /// entries, widths that are not multiples of 4, short outputs (blocks of up to 204 columns), both borders and
    /// partial row ranges.
    @Test(arguments: [false, true])
    func anyMatrixWarpMatchesItsPixelByPixelTwin(_ replicate: Bool) {
        var matrices: [[Double]] = [
            // Rotated crops as MediaPipe's perspective solve gives them (perspective terms of about 1e-10).
            [-0.4292556, -1.2751138, 22.86, 1.2751136, -0.4292556, 8.49, 7.2e-11, -2.1e-10, 1.0000000471],
            [0.1202212, -0.4646226, 11.27, 0.464622, 0.1202211, -2.77, 1.69e-11, 2.06e-10, 0.99999996],
            // W = 1 − 0.25·x is exactly 0 at x = 4.
            [1, 0.2, 0, -0.3, 1, 0, -0.25, 0, 1],
            [0.5, 0.5, 1, -0.5, 0.5, 3, 0.01, -0.02, 1],
            [1, .nan, 0, 0, 1, 0, 0.001, 0, 1], [1, 0, 0, 0, 1, .infinity, 1e-3, 0, 1],
            [0.7, -0.7, 10, 0.7, 0.7, -3, 0, 0, 1],
        ]
        let units = Self.units(seed: replicate ? 11 : 5, count: 24 * 7)
        for i in stride(from: 0, to: units.count, by: 7) {
            let angle = units[i] * 2 * Double.pi
            let scale = 0.3 + units[i + 1] * 2
            matrices.append([
                scale * cos(angle), -scale * sin(angle), (units[i + 2] - 0.3) * 40, scale * sin(angle),
                scale * cos(angle), (units[i + 3] - 0.3) * 30, (units[i + 4] - 0.5) * 1e-3,
                (units[i + 5] - 0.5) * 1e-3, 0.9 + units[i + 6] * 0.2,
            ])
        }
        // BGRA, RGB and gray pixels: the vector run of 4- and 3-byte pixels and the scalar one.
        for (pixelBytes, channelOffsets) in [(4, SIMD3(2, 1, 0)), (3, SIMD3(0, 1, 2)), (1, SIMD3(0, 0, 0))] {
            Self.expectTwinWarps(
                width: 29, height: 21, pixelBytes: pixelBytes, channelOffsets: channelOffsets, replicate: replicate,
                matrices: matrices, sizes: [(37, 19), (64, 33), (70, 16), (213, 5)]
            ) { source, m, outputWidth, outputHeight, rows, border, sink in
                FixedPointWarp.warpAnyMatrix(
                    source, inverse: m, outputWidth: outputWidth, outputHeight: outputHeight, rows: rows,
                    border: border, into: sink)
            }
        }
    }

    /// Warps a `width × height` source of `pixelBytes`-byte pixels (packed rows, bytes from a fixed hash) through
    /// each matrix with `fast` and with ``FixedPointWarp/warpPixelByPixel``, to the output sizes in turn, over all
    /// rows and over rows 2 ..< height − 1, and expects the same bytes.
    private static func expectTwinWarps(
        width: Int, height: Int, pixelBytes: Int, channelOffsets: SIMD3<Int>, replicate: Bool, matrices: [[Double]],
        sizes: [(Int, Int)],
        fast: (WarpSource, SIMD16<Double>, Int, Int, Range<Int>, BorderMode, ByteWarpSink) -> Void
    ) {
        let pixels = (0..<width * height * pixelBytes).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 9) }
        let border: BorderMode = replicate ? .replicate : .zero
        pixels.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let source = WarpSource(
                pixels: base, width: width, height: height, bytesPerRow: width * pixelBytes,
                bytesPerPixel: pixelBytes, channelOffsets: channelOffsets)
            for (index, entries) in matrices.enumerated() {
                var m = SIMD16<Double>()
                for (k, value) in entries.enumerated() { m[k] = value }
                let (outputWidth, outputHeight) = sizes[index % sizes.count]
                for rows in [0..<outputHeight, 2..<(outputHeight - 1)] {
                    var warped = [UInt8](repeating: 7, count: outputWidth * outputHeight * 3)
                    var twin = warped
                    warped.withUnsafeMutableBufferPointer { out in
                        guard let out = out.baseAddress else { return }
                        fast(source, m, outputWidth, outputHeight, rows, border, ByteWarpSink(output: out))
                    }
                    twin.withUnsafeMutableBufferPointer { out in
                        guard let out = out.baseAddress else { return }
                        FixedPointWarp.warpPixelByPixel(
                            source, inverse: m, outputWidth: outputWidth, outputHeight: outputHeight, rows: rows,
                            border: border, into: ByteWarpSink(output: out))
                    }
                    #expect(warped == twin, "matrix \(entries) rows \(rows)")
                }
            }
        }
    }
}
