extension Quantized {
    /// AVERAGE_POOL_2D on 8-bit NHWC: the int32 sum of the in-bounds window divided by its element count, rounded
    /// half away from zero (`(sum ± count/2) / count`), clamped to `range`.
    ///
    /// Sums 16 channels at a time in vector lanes over the window's taps (contiguous bytes per tap), so a global pool
    /// over a 7 × 7 × 1280 input reads each tap's channels in one pass instead of one strided walk per channel. The
    /// work is split over `pool`'s threads as ``QuantizedPoolUnits``, so a global pool, which has one output row, is
    /// shared out too. Integer sums are exact in any order:
    /// ``Reference/quantizedAveragePool(geometry:input:output:range:)`` is its twin.
    @inlinable
    public static func averagePool<T: QuantizedElement>(
        geometry g: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange,
        pool: ThreadPool = .serial
    ) {
        QuantizedPoolUnits.run(maximum: false, geometry: g, input: input, output: output, range: range, pool: pool)
    }
}
