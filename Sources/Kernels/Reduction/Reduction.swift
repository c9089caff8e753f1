/// Optimized reductions over row-major float tensors.
public enum Reduction {
    /// Mean over `axes`; same contract and same results as
    /// ``Reference/mean(input:inputShape:axes:output:)``.
    ///
    /// NHWC global average pooling (rank 4, `axes == [1, 2]`) runs a channel-innermost loop, split over channel
    /// blocks when there is enough work; every other reduction runs the reference loop.
    ///
    /// - Parameters:
    ///   - input: `inputShape` elements, row-major.
    ///   - axes: Sorted, unique, non-negative dimensions to reduce.
    ///   - output: The input shape with the reduced dimensions removed; must not overlap the input.
    public static func mean(
        input: UnsafePointer<Float>, inputShape: [Int], axes: [Int], output: UnsafeMutablePointer<Float>,
        pool: ThreadPool
    ) {
        guard inputShape.count == 4, axes == [1, 2], inputShape.allSatisfy({ $0 > 0 }) else {
            Reference.mean(input: input, inputShape: inputShape, axes: axes, output: output)
            return
        }
        let batch = inputShape[0]
        let pixels = inputShape[1] * inputShape[2]
        let channels = inputShape[3]
        let count = Float(pixels)
        // Channel blocks of at least 16 channels and about 16K additions each.
        let minimumChunk = max(16, (1 << 14) / pixels)
        for b in 0..<batch {
            let image = input + b * pixels * channels
            let out = output + b * channels
            pool.parallelRanges(channels, minimumChunk: minimumChunk) { block in
                let blockOut = out + block.lowerBound
                let width = block.count
                blockOut.update(repeating: 0, count: width)
                for pixel in 0..<pixels {
                    let source = image + pixel * channels + block.lowerBound
                    for c in 0..<width { blockOut[c] += source[c] }
                }
                for c in 0..<width { blockOut[c] /= count }
            }
        }
    }
}
