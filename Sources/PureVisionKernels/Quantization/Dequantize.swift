import PureVisionCore

/// DEQUANTIZE: converts stored low-precision tensors to float32.
///
/// Affine types use `f = scale * (q - zeroPoint)`, rounded as LiteRT's builtin kernel does (`q · scale − zeroPoint ·
/// scale`, two roundings) or, with `centered`, as XNNPACK does (`(q − zeroPoint) · scale`, one rounding). With one
/// scale the parameters apply to every element; with more they are per channel along `quantizedDimension` of `shape`
/// (row-major), and `zeroPoints` has the same count.
public enum Dequantize {
    /// Converts `count` IEEE binary16 values (given as their bits) to float32, exactly.
    public static func float16(input: UnsafePointer<UInt16>, output: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { output[i] = Float16Bits.toFloat(input[i]) }
    }

    /// Dequantizes signed 8-bit values of `shape`.
    public static func int8(
        input: UnsafePointer<Int8>, shape: [Int], scales: [Float], zeroPoints: [Int], quantizedDimension: Int,
        output: UnsafeMutablePointer<Float>, centered: Bool = false
    ) {
        affine(input, shape, scales, zeroPoints, quantizedDimension, output, centered: centered)
    }

    /// Dequantizes unsigned 8-bit values of `shape`.
    public static func uint8(
        input: UnsafePointer<UInt8>, shape: [Int], scales: [Float], zeroPoints: [Int], quantizedDimension: Int,
        output: UnsafeMutablePointer<Float>, centered: Bool = false
    ) {
        affine(input, shape, scales, zeroPoints, quantizedDimension, output, centered: centered)
    }

    /// Dequantizes signed 16-bit values of `shape`.
    public static func int16(
        input: UnsafePointer<Int16>, shape: [Int], scales: [Float], zeroPoints: [Int], quantizedDimension: Int,
        output: UnsafeMutablePointer<Float>, centered: Bool = false
    ) {
        affine(input, shape, scales, zeroPoints, quantizedDimension, output, centered: centered)
    }

    /// Dequantizes `rows · channels` values of type `elementType` (int8, uint8 or int16) whose parameters are per
    /// tensor (one scale) or per channel of the innermost dimension (`channels` scales), split by rows over `pool` in
    /// chunks of at least `minimumRows` rows (default: about 16 Ki values).
    public static func rows(
        _ input: UnsafeRawPointer, elementType: ElementType, rows: Int, channels: Int, scales: [Float],
        zeroPoints: [Int], output: UnsafeMutablePointer<Float>, centered: Bool, pool: ThreadPool,
        minimumRows: Int? = nil
    ) {
        precondition(scales.count == 1 || scales.count == channels, "one scale, or one per innermost index")
        pool.parallelRanges(
            rows, minimumChunk: minimumRows ?? max(1, 16_384 / max(1, channels)),
            Rows(
                input: input, elementType: elementType, channels: channels, scales: scales, zeroPoints: zeroPoints,
                output: output, centered: centered))
    }

    private struct Rows: ParallelRangeBody {
        let input: UnsafeRawPointer
        let elementType: ElementType
        let channels: Int
        let scales: [Float]
        let zeroPoints: [Int]
        let output: UnsafeMutablePointer<Float>
        let centered: Bool

        func run(range: Range<Int>) {
            if centered, scales.count == 1, elementType == .int8 || elementType == .uint8,
                let zeroPoint = Int32(exactly: zeroPoints[0]), zeroPoint.magnitude < 1 << 30
            {
                let first = range.lowerBound * channels
                Dequantize.centeredBytes(
                    input + first, signed: elementType == .int8, count: range.count * channels, zeroPoint: zeroPoint,
                    scale: scales[0], output: output + first)
                return
            }
            let shape = [range.count, channels]
            let dimension = scales.count > 1 ? 1 : 0
            let first = range.lowerBound * channels
            let y = output + first
            switch elementType {
            case .int8:
                affine(
                    input.assumingMemoryBound(to: Int8.self) + first, shape, scales, zeroPoints, dimension, y,
                    centered: centered)
            case .uint8:
                affine(
                    input.assumingMemoryBound(to: UInt8.self) + first, shape, scales, zeroPoints, dimension, y,
                    centered: centered)
            default:
                affine(
                    input.assumingMemoryBound(to: Int16.self) + first, shape, scales, zeroPoints, dimension, y,
                    centered: centered)
            }
        }
    }

    /// `(q − zeroPoint) · scale` for `count` 8-bit values, 8 at a time: the per-tensor, centered case of ``affine``
    /// with its arithmetic (the difference exact in int32 and in float, one rounding in the product).
    @inline(__always)
    static func centeredBytes(
        _ input: UnsafeRawPointer, signed: Bool, count: Int, zeroPoint: Int32, scale: Float,
        output: UnsafeMutablePointer<Float>
    ) {
        let zero = SIMD8<Int32>(repeating: zeroPoint)
        let scales = SIMD8<Float>(repeating: scale)
        let out = UnsafeMutableRawPointer(output)
        var i = 0
        while i + 8 <= count {
            let q =
                signed
                ? SIMD8<Int32>(truncatingIfNeeded: input.loadUnaligned(fromByteOffset: i, as: SIMD8<Int8>.self))
                : SIMD8<Int32>(truncatingIfNeeded: input.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self))
            out.storeBytes(of: SIMD8<Float>(q &- zero) * scales, toByteOffset: i &* 4, as: SIMD8<Float>.self)
            i &+= 8
        }
        while i < count {
            let q =
                signed
                ? Int32(input.load(fromByteOffset: i, as: Int8.self))
                : Int32(input.load(fromByteOffset: i, as: UInt8.self))
            output[i] = Float(q - zeroPoint) * scale
            i += 1
        }
    }

    @inline(__always)
    private static func affine<Q: BinaryInteger>(
        _ input: UnsafePointer<Q>, _ shape: [Int], _ scales: [Float], _ zeroPoints: [Int], _ quantizedDimension: Int,
        _ output: UnsafeMutablePointer<Float>, centered: Bool
    ) {
        precondition(!scales.isEmpty && scales.count == zeroPoints.count, "one zero point per scale")
        let count = shape.reduce(1, *)
        var channels = 1
        var innerCount = count
        if scales.count > 1 {
            precondition(
                (0..<shape.count).contains(quantizedDimension) && shape[quantizedDimension] == scales.count,
                "per-channel parameters do not match dimension \(quantizedDimension) of \(shape)")
            channels = scales.count
            innerCount = shape[(quantizedDimension + 1)...].reduce(1, *)
        }
        let outerCount = channels == 1 ? 1 : shape[..<quantizedDimension].reduce(1, *)
        var offset = 0
        for _ in 0..<outerCount {
            for channel in 0..<channels {
                let scale = scales[channel]
                // TFLite's kernel computes q · scale − zeroPoint · scale in float (two roundings), not
                // scale · (q − zeroPoint); the two differ in the last bit when the zero point is not 0.
                if centered {
                    let zeroPoint = zeroPoints[channel]
                    for i in offset..<(offset + innerCount) { output[i] = Float(Int(input[i]) - zeroPoint) * scale }
                } else {
                    let offsetValue = Float(zeroPoints[channel]) * scale
                    for i in offset..<(offset + innerCount) { output[i] = Float(input[i]) * scale - offsetValue }
                }
                offset += innerCount
            }
        }
    }
}
