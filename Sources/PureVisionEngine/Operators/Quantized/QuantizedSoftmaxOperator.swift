import PureVisionKernels
import PureVisionTFLite

/// SOFTMAX on 8-bit tensors over the last axis, with TFLite's float exp table (built at load from the input scale
/// and β) and its rounding.
enum QuantizedSoftmaxOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...1)
        guard case .softmax(let beta) = context.builtinOptions(.softmax) else {
            throw context.failure("options are not SoftmaxOptions")
        }
        let input = try context.input(0)
        let type = input.elementType
        guard let depth = input.shape.last, depth > 0 else { throw context.failure("input has no last axis") }
        try context.setOutput(0, shape: input.shape, type: type)
        let (inScale, _) = try context.quantization(input, "input")
        let (outScale, outZero) = try context.outputQuantization(type)
        let softmax = QuantizedSoftmax(
            inputScale: inScale, beta: beta, outputScale: outScale, outputZeroPoint: outZero,
            unsignedOutput: type == .uint8)
        let rows = input.elementCount / depth
        func step<T: QuantizedElement>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>) -> ExecutionStep {
            { softmax.run(input: x, output: y, rows: rows, depth: depth) }
        }
        return context.loweredQuantized(reading: input, int8: step, uint8: step)
    }
}
