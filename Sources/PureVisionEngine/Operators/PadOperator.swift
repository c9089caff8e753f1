import PureVisionKernels
import PureVisionTFLite

/// PAD and PADV2: paddings from a constant [rank, 2] integer tensor; the pad value is 0 (PAD) or the constant
/// scalar third input (PADV2).
enum PadOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let pad = try context.padOperands(quantized: false)
        let (input, paddings) = (pad.input, pad.paddings)
        let padValue = pad.padValue?.floats[0] ?? 0
        try context.setOutput(0, shape: pad.outputShape)
        let inputShape = input.shape
        var lowered = context.loweredFloat(reading: input) { x, y, _ in
            { Pad.run(input: x, inputShape: inputShape, paddings: paddings, padValue: padValue, output: y) }
        }
        if padValue == 0, !input.isConstant, let channels = inputShape.last, channels > 0,
            paddings.dropLast().allSatisfy({ $0.before == 0 && $0.after == 0 }), paddings.last?.before == 0
        {
            lowered.channelZeroPadding = (input.index, channels)
        }
        return lowered
    }
}
