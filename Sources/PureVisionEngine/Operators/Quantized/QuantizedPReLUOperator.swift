import PureVisionKernels
import PureVisionTFLite

/// PRELU on 8-bit tensors: an 8-bit α broadcast against the input, TFLite's two multipliers
/// (`scaleIn / scaleOut` for x ≥ zero point, `scaleIn · scaleα / scaleOut` otherwise, both in float).
enum QuantizedPReLUOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        let (input, alpha, _, plan) = try context.broadcastOperands(quantized: true, roles: ("input", "alpha"))
        let type = input.elementType
        let (inScale, inZero) = try context.quantization(input, "input")
        let (alphaScale, alphaZero) = try context.quantization(alpha, "alpha")
        let (outScale, outZero) = try context.outputQuantization(type)
        let identity = QuantizedMultiplier(Double(inScale / outScale))
        let alphaMultiplier = QuantizedMultiplier(Double(inScale * alphaScale / outScale))
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
