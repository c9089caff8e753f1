import PureVisionKernels
import PureVisionTFLite

/// RELU, RELU6, RELU_N1_TO_1 (requantize and clamp), LOGISTIC and TANH (a 256-entry table built at load, as
/// TFLite's `LUTPopulate`) and HARD_SWISH (TFLite's int16 fixed-point scheme) on 8-bit tensors.
enum QuantizedActivationOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...1)
        let input = try context.input(0)
        let type = input.elementType
        try context.setOutput(0, shape: input.shape, type: type)
        let (inScale, inZero) = try context.quantization(input, "input")
        let (outScale, outZero) = try context.outputQuantization(type)
        let count = input.elementCount
        let output = context.output(0)
        let pool = context.pool
        let unsigned = type == .uint8
        switch context.builtin {
        case .logistic, .tanh:
            let table = QuantizedLookupTable(
                function: context.builtin == .logistic ? .logistic : .tanh, unsigned: unsigned, inputScale: inScale,
                inputZeroPoint: inZero, outputScale: outScale, outputZeroPoint: outZero)
            var lowered = context.lowered(reading: [input]) { binder in
                let x = UnsafePointer(binder.raw(input).assumingMemoryBound(to: UInt8.self))
                let y = binder.raw(output.index).assumingMemoryBound(to: UInt8.self)
                return { table.run(input: x, output: y, count: count, pool: pool) }
            }
            // A table lookup: each byte maps on its own, so chains through it may run as one lookup.
            if !input.isConstant, let channels = input.shape.last, channels > 0 {
                lowered.channelwiseMap = ChannelwiseMap(
                    input: input.index, output: output.index, inputWidth: 1, outputWidth: 1, channels: channels
                ) { x, y, rows in
                    table.run(
                        input: x.assumingMemoryBound(to: UInt8.self), output: y.assumingMemoryBound(to: UInt8.self),
                        count: rows * channels)
                }
            }
            return lowered
        case .hardSwish:
            let swish = QuantizedHardSwish(
                inputScale: inScale, inputZeroPoint: inZero, outputScale: outScale, outputZeroPoint: outZero)
            func step<T: QuantizedElement>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>) -> ExecutionStep {
                { swish.run(input: x, output: y, count: count) }
            }
            return context.loweredQuantized(reading: input, int8: step, uint8: step)
        case .relu, .relu6, .reluN1To1:
            let (lowerBound, upperBound): (Float, Float) =
                switch context.builtin {
                case .relu: (0, .infinity)
                case .relu6: (0, 6)
                default: (-1, 1)
                }
            // TFLite's ReluX bounds: zeroPoint + Int(roundf(bound / scale)), within the type.
            let typeLower: Int32 = unsigned ? 0 : -128
            let typeUpper: Int32 = unsigned ? 255 : 127
            let lowerQ = max(
                typeLower, outZero &+ Int32(saturating: (lowerBound / outScale).rounded(.toNearestOrAwayFromZero)))
            let upperQ =
                upperBound.isInfinite
                ? typeUpper
                : min(
                    typeUpper, outZero &+ Int32(saturating: (upperBound / outScale).rounded(.toNearestOrAwayFromZero)))
            let range = QuantizedRange(lower: lowerQ, upper: upperQ)
            let multiplier = QuantizedMultiplier(Double(inScale / outScale))
            func step<T: QuantizedElement>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>) -> ExecutionStep {
                {
                    Quantized.relu(
                        input: x, output: y, count: count, inputZeroPoint: inZero, outputZeroPoint: outZero,
                        multiplier: multiplier, range: range)
                }
            }
            return context.loweredQuantized(reading: input, int8: step, uint8: step)
        default:
            throw context.failure("not a quantized activation")
        }
    }
}
