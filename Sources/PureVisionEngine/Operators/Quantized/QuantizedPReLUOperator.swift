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
        func step<T: QuantizedElement>(
            _ x: UnsafePointer<T>, _ a: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>
        ) -> ExecutionStep {
            {
                Quantized.prelu(
                    input: x, alpha: a, output: y, plan: plan, inputZeroPoint: inZero, alphaZeroPoint: alphaZero,
                    outputZeroPoint: outZero, identity: identity, alphaMultiplier: alphaMultiplier)
            }
        }
        return context.loweredQuantized(reading: input, alpha, int8: step, uint8: step)
    }
}
