import PureVisionKernels
import PureVisionTFLite

/// DEPTH_TO_SPACE: [N, H, W, C] → [N, H·b, W·b, C / b²], channel blocks laid out row by row (DCR order).
enum DepthToSpaceOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...1)
        guard case .depthToSpace(let block) = context.builtinOptions(.depthToSpace) else {
            throw context.failure("options are not DepthToSpaceOptions")
        }
        let input = try context.input(0)
        try context.expectFloat(input, "input")
        try context.expectRank(input, 4, "input")
        let (batch, height, width, channels) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        guard block > 0, block <= 1 << 12, channels % (block * block) == 0 else {
            throw context.failure("block size \(block) does not divide \(channels) channels")
        }
        try context.setOutput(0, shape: [batch, height * block, width * block, channels / (block * block)])
        return context.loweredFloat(reading: input) { x, y, _ in
            {
                DepthToSpace.run(
                    input: x, batch: batch, height: height, width: width, channels: channels, blockSize: block,
                    output: y)
            }
        }
    }
}
