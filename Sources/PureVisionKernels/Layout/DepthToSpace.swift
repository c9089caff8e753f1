/// DEPTH_TO_SPACE in TensorFlow's DCR order over float32 NHWC.
///
/// With `outputChannels = channels / blockSize²`:
/// `output[b, h * blockSize + dy, w * blockSize + dx, c] = input[b, h, w, (dy * blockSize + dx) * outputChannels + c]`;
/// the output has shape `[batch, height * blockSize, width * blockSize, outputChannels]`.
public enum DepthToSpace {
    /// Rearranges `input` (`[batch, height, width, channels]`) into `output`.
    public static func run(
        input: UnsafePointer<Float>, batch: Int, height: Int, width: Int, channels: Int, blockSize: Int,
        output: UnsafeMutablePointer<Float>
    ) {
        precondition(blockSize >= 1 && channels % (blockSize * blockSize) == 0, "channels not divisible by block²")
        // An empty tensor has nothing to move; without this, a [huge, 0, …] shape spins through its batch loop.
        guard batch > 0, height > 0, width > 0, channels > 0 else { return }
        let outputChannels = channels / (blockSize * blockSize)
        let outputWidth = width * blockSize
        var source = input
        for b in 0..<batch {
            for h in 0..<height {
                for w in 0..<width {
                    for dy in 0..<blockSize {
                        let row = (b * height + h) * blockSize + dy
                        let destination = output + (row * outputWidth + w * blockSize) * outputChannels
                        // The block's dx pixels are adjacent in the output row, so one row of the block is one copy.
                        destination.update(from: source, count: blockSize * outputChannels)
                        source += blockSize * outputChannels
                    }
                }
            }
        }
    }
}
