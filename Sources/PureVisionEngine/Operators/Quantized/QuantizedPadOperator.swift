import PureVisionKernels
import PureVisionTFLite

/// PAD and PADV2 on 8-bit tensors: the pad value is the output zero point (PAD, i.e. real 0) or the constant
/// 8-bit scalar third input (PADV2); input and output share their quantization.
enum QuantizedPadOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let pad = try context.padOperands(quantized: true)
        let (input, paddings) = (pad.input, pad.paddings)
        let type = input.elementType
        try context.setOutput(0, shape: pad.outputShape, type: type)
        let (_, outZero) = try context.outputQuantization(type)
        let padBits = pad.padValue?.pointer.load(as: UInt8.self) ?? UInt8(truncatingIfNeeded: outZero)
        let inputShape = input.shape
        let output = context.output(0).index
        return context.lowered(reading: [input]) { binder in
            let x = UnsafePointer(binder.raw(input).assumingMemoryBound(to: UInt8.self))
            let y = binder.raw(output).assumingMemoryBound(to: UInt8.self)
            return { Quantized.pad(input: x, inputShape: inputShape, paddings: paddings, value: padBits, output: y) }
        }
    }
}
