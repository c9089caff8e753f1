import PureVisionKernels
import Testing

struct DepthToSpaceTests {
    @Test(arguments: [(1, 1, 1, 4, 2), (2, 3, 5, 12, 2), (1, 2, 3, 27, 3), (1, 4, 4, 8, 1), (2, 1, 7, 68, 2)])
    func matchesNaive(_ size: (batch: Int, height: Int, width: Int, channels: Int, block: Int)) {
        var random = Random(state: UInt64(size.channels))
        let input = random.floats(size.batch * size.height * size.width * size.channels)
        let bs = size.block
        let oc = size.channels / (bs * bs)
        let outputHeight = size.height * bs
        let outputWidth = size.width * bs
        var expected = [Float](repeating: .nan, count: input.count)
        // Naive: scatter every input element to the output position TensorFlow's DCR definition gives it.
        for b in 0..<size.batch {
            for h in 0..<size.height {
                for w in 0..<size.width {
                    for d in 0..<size.channels {
                        let dy = d / (bs * oc)
                        let dx = (d / oc) % bs
                        let c = d % oc
                        let target = ((b * outputHeight + h * bs + dy) * outputWidth + w * bs + dx) * oc + c
                        expected[target] = input[((b * size.height + h) * size.width + w) * size.channels + d]
                    }
                }
            }
        }
        var output = [Float](repeating: .nan, count: input.count)
        DepthToSpace.run(
            input: input, batch: size.batch, height: size.height, width: size.width, channels: size.channels,
            blockSize: bs, output: &output)
        #expect(output == expected)
    }

    @Test func handComputed() {
        // TensorFlow's documented example: [1, 1, 1, 12] with block 2 becomes [1, 2, 2, 3].
        let input: [Float] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
        var output = [Float](repeating: .nan, count: 12)
        DepthToSpace.run(input: input, batch: 1, height: 1, width: 1, channels: 12, blockSize: 2, output: &output)
        #expect(output == input)
        // [1, 2, 2, 4] with block 2 becomes a 4×4 single-channel image.
        let grid: [Float] = [1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16]
        var image = [Float](repeating: .nan, count: 16)
        DepthToSpace.run(input: grid, batch: 1, height: 2, width: 2, channels: 4, blockSize: 2, output: &image)
        #expect(image == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])
    }
}
