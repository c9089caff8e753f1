/// Scalar reference implementations of every kernel: the oracle the optimized kernels are tested against.
///
/// Each operation lives in its own `Reference+<Op>.swift` extension as a static function written as the obvious
/// nested loops, with the same signature as the optimized entry point minus weight packing, scratch memory and the
/// thread pool. The interpreter's reference mode runs a whole model on these functions. All data is float32,
/// NHWC, row-major, on raw pointers; callers validate shapes first, so these functions only `precondition`.
public enum Reference {}
