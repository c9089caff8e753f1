import PureVisionKernels
import PureVisionTFLite

/// QUANTIZE: float32 → int8 / uint8 (`round(x / scale) + zeroPoint`, clamped), or 8-bit → 8-bit requantization with
/// the multiplier of `scaleIn / scaleOut` (TFLite's `Requantize`).
enum QuantizeOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...1)
        let input = try context.input(0)
        let type = context.declaredOutputType()
        guard type.isQuantized8 else {
            throw context.failure("output type \(type) is not supported (int8 or uint8)")
        }
        try context.setOutput(0, shape: input.shape, type: type)
        let (outScale, outZero) = try context.outputQuantization(type)
        let output = context.output(0)
        let count = input.elementCount
        let pool = context.pool
        switch input.elementType {
        case .float32:
            var lowered = context.lowered(reading: [input]) { binder in
                let x = UnsafePointer(binder.raw(input).assumingMemoryBound(to: Float.self))
                let y = binder.raw(output.index)
                if type == .uint8 {
                    let y = y.assumingMemoryBound(to: UInt8.self)
                    return {
                        Quantized.quantize(input: x, output: y, count: count, scale: outScale, zeroPoint: outZero)
                    }
                }
                let y8 = y.assumingMemoryBound(to: Int8.self)
                return { Quantized.quantize(input: x, output: y8, count: count, scale: outScale, zeroPoint: outZero) }
            }
            if !input.isConstant, let channels = input.shape.last, channels > 0 {
                lowered.channelwiseMap = ChannelwiseMap(
                    input: input.index, output: output.index, inputWidth: 4, outputWidth: 1, channels: channels
                ) { x, y, rows in
                    let x = x.assumingMemoryBound(to: Float.self)
                    if type == .uint8 {
                        Quantized.quantize(
                            input: x, output: y.assumingMemoryBound(to: UInt8.self), count: rows * channels,
                            scale: outScale, zeroPoint: outZero)
                    } else {
                        Quantized.quantize(
                            input: x, output: y.assumingMemoryBound(to: Int8.self), count: rows * channels,
                            scale: outScale, zeroPoint: outZero)
                    }
                }
            }
            return lowered
        case .int8, .uint8:
            let (inScale, inZero) = try context.quantization(input, "input")
            let multiplier = QuantizedMultiplier(Double(inScale) / Double(outScale))
            let inputType = input.elementType
            if !context.useReference {
                // 256 possible inputs: the requantization is computed once per byte value, at load.
                let table = QuantizedLookupTable { byte in
                    func map<S: QuantizedElement, T: QuantizedElement>(_: S.Type, _: T.Type) -> UInt8 {
                        var y = T.zero
                        withUnsafePointer(to: S(truncatingIfNeeded: byte)) { x in
                            Quantized.requantize(
                                input: x, output: &y, count: 1, inputZeroPoint: inZero, outputZeroPoint: outZero,
                                multiplier: multiplier)
                        }
                        return UInt8(truncatingIfNeeded: y)
                    }
                    switch (inputType, type) {
                    case (.int8, .int8): return map(Int8.self, Int8.self)
                    case (.int8, _): return map(Int8.self, UInt8.self)
                    case (_, .int8): return map(UInt8.self, Int8.self)
                    default: return map(UInt8.self, UInt8.self)
                    }
                }
                return context.lowered(reading: [input]) { binder in
                    let x = UnsafePointer(binder.raw(input).assumingMemoryBound(to: UInt8.self))
                    let y = binder.raw(output.index).assumingMemoryBound(to: UInt8.self)
                    return { table.run(input: x, output: y, count: count, pool: pool) }
                }
            }
            return context.lowered(reading: [input]) { binder in
                let x = binder.raw(input)
                let y = binder.raw(output.index)
                func step<S: QuantizedElement, T: QuantizedElement>(_: S.Type, _: T.Type) -> ExecutionStep {
                    let (x, y) = (UnsafePointer(x.assumingMemoryBound(to: S.self)), y.assumingMemoryBound(to: T.self))
                    return {
                        Quantized.requantize(
                            input: x, output: y, count: count, inputZeroPoint: inZero, outputZeroPoint: outZero,
                            multiplier: multiplier)
                    }
                }
                switch (inputType, type) {
                case (.int8, .int8): return step(Int8.self, Int8.self)
                case (.int8, _): return step(Int8.self, UInt8.self)
                case (_, .int8): return step(UInt8.self, Int8.self)
                default: return step(UInt8.self, UInt8.self)
                }
            }
        default:
            throw .unsupportedTensorType(
                tensorIndex: input.index, tensorName: input.name, type: input.elementType.rawValue,
                context: "input of QUANTIZE (operator \(context.operatorIndex))")
        }
    }
}
