/// Scalar reference implementations of every kernel: the oracle the optimized kernels are tested against.
///
/// Each operation lives in its own `Reference+<Op>.swift` extension as a static function written as the obvious
/// nested loops, with the same signature as the optimized entry point minus weight packing, scratch memory and the
/// thread pool. The interpreter's reference mode runs a whole model on these functions. All data is float32,
/// NHWC, row-major, on raw pointers; callers validate shapes first, so these functions only `precondition`.
public enum Reference {}

extension Reference {
    /// Whose float rounding a reference function reproduces. Both are correct; they differ in the last bits, and
    /// those bits are what MediaPipe's tracking loops amplify, so the optimized kernels follow XNNPACK, which
    /// MediaPipe runs, wherever that costs nothing (and in the generated AVX2/FMA code, where it needs FMA).
    public enum Arithmetic: Sendable, Hashable {
        /// LiteRT's builtin kernels: every product rounded, then added (a fully connected bias added to the
        /// finished sum); MEAN divides by the count; RESIZE_BILINEAR sums the four weighted corners.
        case liteRT
        /// XNNPACK on x86-64 with FMA: a dot product starts at the bias and takes one fused multiply-add per
        /// product, in `(ky, kx, input channel)` order for a convolution and filter column by filter column
        /// (`kx` outer, `ky` inner) for a depthwise convolution, whose packed weights are column-major; MEAN
        /// over H and W of an NHWC tensor sums 7 rows per pass as MediaPipe 0.10.14's XNNPACK does
        /// (``globalAveragePoolingSum(_:stride:rows:)``), and every MEAN multiplies by the float `1 / n`;
        /// RESIZE_BILINEAR interpolates along x, then y, from XNNPACK's clamped source coordinates.
        case xnnpack
    }
}
