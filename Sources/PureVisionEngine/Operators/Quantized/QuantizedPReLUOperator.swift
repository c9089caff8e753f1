import PureVisionKernels
import PureVisionTFLite

/// PRELU on 8-bit tensors: an 8-bit α broadcast against the input, TFLite's two multipliers
/// (`scaleIn / scaleOut` for x ≥ zero point, `scaleIn · scaleα / scaleOut` otherwise, both in float).
enum QuantizedPReLUOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        let input = try context.input(0)
        let alpha = try context.input(1)
        let type = input.elementType
        try context.expectType(alpha, type, "alpha")
        guard let shape = BinaryOperator.broadcastShape(input.shape, alpha.shape) else {
            throw context.failure("shapes \(input.shape) and \(alpha.shape) do not broadcast")
        }
        try context.setOutput(0, shape: shape, type: type)
        let (inScale, inZero) = try context.quantization(input, "input")
        let (alphaScale, alphaZero) = try context.quantization(alpha, "alpha")
        let (outScale, outZero) = try context.outputQuantization(type)
        let identity = QuantizedMultiplier(Double(inScale / outScale))
        let alphaMultiplier = QuantizedMultiplier(Double(inScale * alphaScale / outScale))
        let plan = BroadcastPlan(lhsShape: input.shape, rhsShape: alpha.shape, outputShape: shape)
        let output = context.output(0)
        let ctx = context
        return context.lowered(reading: [input, alpha]) { binder in
            let x = ctx.pointer(input, binder)
            let a = ctx.pointer(alpha, binder)
            let y = binder.raw(output.index)
            func step<T: QuantizedElement>(_: T.Type) -> ExecutionStep {
                let (x, a, y) = (
                    x.assumingMemoryBound(to: T.self), a.assumingMemoryBound(to: T.self),
                    y.assumingMemoryBound(to: T.self)
                )
                return {
                    Quantized.prelu(
                        input: x, alpha: a, output: y, plan: plan, inputZeroPoint: inZero, alphaZeroPoint: alphaZero,
                        outputZeroPoint: outZero, identity: identity, alphaMultiplier: alphaMultiplier)
                }
            }
            return type == .uint8 ? step(UInt8.self) : step(Int8.self)
        }
    }
}
