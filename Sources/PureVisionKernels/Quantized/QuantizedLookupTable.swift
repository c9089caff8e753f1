#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An elementwise 8-bit op as a 256-entry table, built the way TFLite's `LUTPopulate` builds LOGISTIC and TANH
/// tables at `Prepare`: each input value is dequantized, transformed in float, divided by the output scale,
/// rounded (ties away from zero), offset by the output zero point and clamped.
public struct QuantizedLookupTable: Sendable {
    /// `table[Int(UInt8(bitPattern))]` is the output for that input byte.
    public let table: [UInt8]

    /// The float function the table samples.
    public enum Function: Sendable {
        /// `1 / (1 + exp(−x))`.
        case logistic
        /// `tanh(x)`.
        case tanh
    }

    /// Builds the table for `function` between the given quantizations.
    public init(
        function: Function, unsigned: Bool, inputScale: Float, inputZeroPoint: Int32, outputScale: Float,
        outputZeroPoint: Int32
    ) {
        let lower: Int32 = unsigned ? 0 : -128
        let upper: Int32 = unsigned ? 255 : 127
        let inverseScale = 1 / outputScale
        var table = [UInt8](repeating: 0, count: 256)
        for value in lower...upper {
            let x = inputScale * Float(value - inputZeroPoint)
            let y: Float
            switch function {
            case .logistic: y = 1 / (1 + expf(-x))
            case .tanh: y = tanhf(x)
            }
            let rescaled = (y * inverseScale).rounded(.toNearestOrAwayFromZero)
            let q = min(max(Int32(saturating: rescaled) &+ outputZeroPoint, lower), upper)
            table[Int(UInt8(truncatingIfNeeded: value))] = UInt8(truncatingIfNeeded: q)
        }
        self.table = table
    }

    /// The table of any byte-to-byte function, given on the input's bit pattern (`UInt8(bitPattern:)` of int8).
    public init(mapping: (UInt8) -> UInt8) {
        table = (0...255).map { mapping(UInt8($0)) }
    }

    /// Maps `count` bytes, split over `pool` in chunks of at least 16 KiB.
    public func run(
        input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>, count: Int, pool: ThreadPool = .serial
    ) {
        pool.parallelRanges(count, minimumChunk: 1 << 14, Chunk(table: self, input: input, output: output))
    }

    private struct Chunk: ParallelRangeBody {
        let table: QuantizedLookupTable
        let input: UnsafePointer<UInt8>
        let output: UnsafeMutablePointer<UInt8>

        func run(range: Range<Int>) {
            table.table.withUnsafeBufferPointer { table in
                for i in range { output[i] = table[Int(input[i])] }
            }
        }
    }
}
