#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SOFTMAX on 8-bit tensors the way TFLite's optimized kernel does it: a float table of
/// `exp(−scaleIn · β · d)` for the 256 possible distances `d` below the row maximum (built once, at load), a float
/// sum over the row in order, and each output `round(table · 1 / (sum · scaleOut)) + zpOut`.
public struct QuantizedSoftmax: Sendable {
    /// `table[255 − d] = exp(−scaleIn · β · d)`.
    public let table: [Float]
    @usableFromInline let outputScale: Float
    @usableFromInline let outputZeroPoint: Int32
    /// Whether the output rounds by `Int(x + 0.5)` (TFLite's uint8 output on x86) instead of `round(x)`.
    @usableFromInline let truncatedRounding: Bool

    /// Builds the table from the input scale and β.
    public init(inputScale: Float, beta: Float, outputScale: Float, outputZeroPoint: Int32, unsignedOutput: Bool) {
        let scale = -inputScale * beta
        var table = [Float](repeating: 0, count: 256)
        for value in 0...255 { table[255 - value] = expf(scale * Float(value)) }
        self.table = table
        self.outputScale = outputScale
        self.outputZeroPoint = outputZeroPoint
        truncatedRounding = unsignedOutput
    }

    /// Normalizes `rows` rows of `depth` elements. Inlinable, so that callers get it specialized for their element
    /// type (unspecialized, every element went through the protocol's witnesses: 85 µs for 1,000 classes).
    @inlinable
    public func run<T: QuantizedElement>(
        input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, rows: Int, depth: Int
    ) {
        table.withUnsafeBufferPointer { table in
            guard let base = table.baseAddress else { return }
            let lower = Int32(T.min)
            let upper = Int32(T.max)
            for row in 0..<rows {
                let x = input + row * depth
                let y = output + row * depth
                var maximum = Int32(T.min)
                for j in 0..<depth { maximum = max(maximum, Int32(x[j])) }
                let offset = base + (255 - Int(maximum))
                var sum: Float = 0
                for j in 0..<depth { sum += offset[Int(x[j])] }
                let inverse = 1 / (sum * outputScale)
                for j in 0..<depth {
                    let scaled = offset[Int(x[j])] * inverse
                    let q: Int32
                    if truncatedRounding {
                        q = Int32(saturating: scaled + 0.5)
                    } else {
                        q = Int32(saturating: scaled.rounded(.toNearestOrAwayFromZero)) &+ outputZeroPoint
                    }
                    y[j] = T(truncatingIfNeeded: min(max(q, lower), upper))
                }
            }
        }
    }
}
