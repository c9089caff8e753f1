import PureVisionCore
import PureVisionKernels
import Testing

struct DequantizeTests {
    @Test func float16KnownValues() {
        let bits: [UInt16] = [0x0000, 0x8000, 0x3C00, 0xC000, 0x3555, 0x7BFF, 0x0001, 0x7C00, 0xFC00]
        var output = [Float](repeating: .nan, count: bits.count)
        Dequantize.float16(input: bits, output: &output, count: bits.count)
        let expected: [Float] = [0, -0.0, 1, -2, 0.333251953125, 65_504, 0x1p-24, .infinity, -.infinity]
        #expect(output == expected)
        #expect(output[1].sign == .minus)
    }

    @Test func int8PerTensorByHand() {
        // scale 0.5, zero point -1: q = 3 → 2, q = -1 → 0, q = -128 → -63.5, q = 127 → 64.
        let input: [Int8] = [3, -1, -128, 127]
        var output = [Float](repeating: .nan, count: 4)
        Dequantize.int8(
            input: input, shape: [4], scales: [0.5], zeroPoints: [-1], quantizedDimension: 0, output: &output)
        #expect(output == [2, 0, -63.5, 64])
    }

    @Test(arguments: [([4, 3], 0), ([4, 3], 1), ([2, 3, 5, 7], 3), ([2, 3, 5, 7], 1), ([5, 1, 1, 3], 0)])
    func perChannelMatchesNaive(_ shape: [Int], quantizedDimension: Int) {
        let count = shape.reduce(1, *)
        let channels = shape[quantizedDimension]
        let scales = (0..<channels).map { Float($0 + 1) * 0.125 }
        let zeroPoints = (0..<channels).map { $0 * 3 - 4 }
        let inner = shape[(quantizedDimension + 1)...].reduce(1, *)
        func expected(_ q: (Int) -> Int) -> [Float] {
            (0..<count).map { i in
                let channel = (i / inner) % channels
                return scales[channel] * (Float(q(i)) - Float(zeroPoints[channel]))
            }
        }
        let signed = (0..<count).map { Int8(truncatingIfNeeded: $0 &* 37) }
        let unsigned = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 29) }
        let wide = (0..<count).map { Int16(truncatingIfNeeded: $0 &* 2_011) }
        var output = [Float](repeating: .nan, count: count)
        Dequantize.int8(
            input: signed, shape: shape, scales: scales, zeroPoints: zeroPoints,
            quantizedDimension: quantizedDimension, output: &output)
        #expect(output == expected { Int(signed[$0]) }, "int8")
        Dequantize.uint8(
            input: unsigned, shape: shape, scales: scales, zeroPoints: zeroPoints,
            quantizedDimension: quantizedDimension, output: &output)
        #expect(output == expected { Int(unsigned[$0]) }, "uint8")
        Dequantize.int16(
            input: wide, shape: shape, scales: scales, zeroPoints: zeroPoints,
            quantizedDimension: quantizedDimension, output: &output)
        #expect(output == expected { Int(wide[$0]) }, "int16")
    }

    /// Rows split over threads (chunks of 1–3 rows) equal one whole-tensor call, per tensor and per innermost channel,
    /// for each 8- and 16-bit type and both roundings.
    @Test(arguments: [1, 5, 90], [false, true])
    func rowsSplitOverThreadsMatchOneCall(channels: Int, centered: Bool) {
        let rows = 23
        let count = rows * channels
        let pool = ThreadPool(threadCount: 3)
        for perChannel in [false, true] {
            let scales: [Float] = perChannel ? (0..<channels).map { 0.37 / Float($0 + 2) } : [0.051]
            let zeroPoints = perChannel ? (0..<channels).map { $0 * 5 - 9 } : [7]
            let dimension = perChannel ? 1 : 0
            let signed = (0..<count).map { Int8(truncatingIfNeeded: $0 &* 41) }
            let unsigned = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 23) }
            let wide = (0..<count).map { Int16(truncatingIfNeeded: $0 &* 1_777) }
            // One whole-tensor call (`whole`) against `Dequantize.rows` on the same values.
            func compare<Q>(
                _ values: [Q], _ type: ElementType, minimumRows: Int,
                whole: (UnsafePointer<Q>, [Int], Int, UnsafeMutablePointer<Float>) -> Void
            ) {
                var expected = [Float](repeating: .nan, count: count)
                var actual = expected
                values.withUnsafeBufferPointer { x in
                    whole(x.baseAddress!, [rows, channels], dimension, &expected)
                    Dequantize.rows(
                        UnsafeRawPointer(x.baseAddress!), elementType: type, rows: rows, channels: channels,
                        scales: scales, zeroPoints: zeroPoints, output: &actual, centered: centered, pool: pool,
                        minimumRows: minimumRows)
                }
                #expect(
                    actual.map(\.bitPattern) == expected.map(\.bitPattern),
                    "\(type) channels \(channels) per channel \(perChannel)")
            }
            compare(signed, .int8, minimumRows: 1) { x, shape, dimension, y in
                Dequantize.int8(
                    input: x, shape: shape, scales: scales, zeroPoints: zeroPoints, quantizedDimension: dimension,
                    output: y, centered: centered)
            }
            compare(unsigned, .uint8, minimumRows: 2) { x, shape, dimension, y in
                Dequantize.uint8(
                    input: x, shape: shape, scales: scales, zeroPoints: zeroPoints, quantizedDimension: dimension,
                    output: y, centered: centered)
            }
            compare(wide, .int16, minimumRows: 3) { x, shape, dimension, y in
                Dequantize.int16(
                    input: x, shape: shape, scales: scales, zeroPoints: zeroPoints, quantizedDimension: dimension,
                    output: y, centered: centered)
            }
        }
    }

    /// The 8-bit per-tensor path of `rows` (8 values at a time when centered) against the scalar twin, bit for bit:
    /// every byte value, lengths around the vector width, zero points at the types' ends and beyond them (one past
    /// what the vector path takes, which then falls back to the twin's loop).
    @Test(arguments: [-128, 0, 127, 255, -(1 << 30), 1 << 30, 1 << 40])
    func eightBitPerTensorMatchesTwin(zeroPoint: Int) {
        let pool = ThreadPool(threadCount: 2)
        for count in [1, 7, 8, 9, 16, 255, 256, 263] {
            let signed = (0..<count).map { Int8(truncatingIfNeeded: $0 &* 97 &+ 3) }
            let unsigned = signed.map { UInt8(bitPattern: $0) }
            for centered in [true, false] {
                var expected = [Float](repeating: .nan, count: count)
                var actual = expected
                Dequantize.int8(
                    input: signed, shape: [count], scales: [0.0173], zeroPoints: [zeroPoint], quantizedDimension: 0,
                    output: &expected, centered: centered)
                signed.withUnsafeBytes { x in
                    Dequantize.rows(
                        x.baseAddress!, elementType: .int8, rows: count, channels: 1, scales: [0.0173],
                        zeroPoints: [zeroPoint], output: &actual, centered: centered, pool: pool, minimumRows: 1)
                }
                #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern), "int8 \(count) \(centered)")
                Dequantize.uint8(
                    input: unsigned, shape: [count], scales: [3.5e-4], zeroPoints: [zeroPoint], quantizedDimension: 0,
                    output: &expected, centered: centered)
                unsigned.withUnsafeBytes { x in
                    Dequantize.rows(
                        x.baseAddress!, elementType: .uint8, rows: 1, channels: count, scales: [3.5e-4],
                        zeroPoints: [zeroPoint], output: &actual, centered: centered, pool: pool)
                }
                #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern), "uint8 \(count) \(centered)")
            }
        }
    }
}
