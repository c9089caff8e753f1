import PureVisionKernels
import PureVisionTFLite

/// SOFTMAX on 8-bit tensors over the last axis, with TFLite's float exp table (built at load from the input scale
/// and β) and its rounding.
enum QuantizedSoftmaxOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let (input, beta, rows, depth) = try context.softmaxOperands(quantized: true)
        let type = input.elementType
        let (inScale, _) = try context.quantization(input, "input")
        let (outScale, outZero) = try context.outputQuantization(type)
        let softmax = QuantizedSoftmax(
            inputScale: inScale, beta: beta, outputScale: outScale, outputZeroPoint: outZero,
            unsignedOutput: type == .uint8)
        func step<T: QuantizedElement>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>) -> ExecutionStep {
            { softmax.run(input: x, output: y, rows: rows, depth: depth) }
        }
        return context.loweredQuantized(reading: input, int8: step, uint8: step)
    }
}
