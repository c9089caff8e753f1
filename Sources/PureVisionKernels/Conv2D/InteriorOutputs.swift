/// The output positions along one axis of a convolution or pool whose whole window (`kernel` taps, `dilation` apart,
/// the first at `position · stride − paddingBefore`) lies inside `0..<input`: a contiguous run, possibly empty.
/// Shared by the convolution geometries, whose kernels treat these positions without bounds checks.
@inlinable
func interiorOutputs(output: Int, input: Int, kernel: Int, stride: Int, dilation: Int, paddingBefore: Int) -> Range<Int>
{
    let first = min(output, (paddingBefore + stride - 1) / stride)
    let lastStart = input - 1 + paddingBefore - (kernel - 1) * dilation
    let end = lastStart < 0 ? 0 : min(output, lastStart / stride + 1)
    return first..<max(first, end)
}
