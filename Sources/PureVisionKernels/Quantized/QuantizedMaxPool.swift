extension Quantized {
    /// MAX_POOL_2D on 8-bit NHWC: the largest in-bounds value of each window, clamped to `range` (the type's minimum,
    /// clamped, when a window misses the input). Each output pixel's channels are kept in the output row itself
    /// while the window's taps are visited, so the inner loop runs over contiguous channels and vectorizes; the maximum
    /// of 8-bit values is the same in any order. The work is split over `pool`'s threads as ``QuantizedPoolUnits``.
    /// ``Reference/quantizedMaxPool(geometry:input:output:range:)`` is its twin.
    @inlinable
    public static func maxPool<T: QuantizedElement>(
        geometry g: Pool2DGeometry, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, range: QuantizedRange,
        pool: ThreadPool = .serial
    ) {
        QuantizedPoolUnits.run(maximum: true, geometry: g, input: input, output: output, range: range, pool: pool)
    }
}
