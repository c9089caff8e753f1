import PureVisionKernels
import PureVisionTFLite

/// AVERAGE_POOL_2D and MAX_POOL_2D on 8-bit NHWC tensors (input and output share their quantization in TFLite);
/// averages round half away from zero; fused activations clamp in the quantized domain.
enum QuantizedPool2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let (input, geometry, activation) = try context.pool2DGeometry(quantized: true)
        let isMax = context.builtin == .maxPool2D
        try context.setOutput(0, shape: geometry.outputShape, type: input.elementType)
        let (outScale, outZero) = try context.outputQuantization(input.elementType)
        let range = try context.quantizedRange(
            activation, output: context.output(0), scale: outScale, zeroPoint: outZero)
        let (reference, pool) = (context.useReference, context.pool)
        func step<T: QuantizedElement>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>) -> ExecutionStep {
            switch (isMax, reference) {
            case (true, true):
                return { Reference.quantizedMaxPool(geometry: geometry, input: x, output: y, range: range) }
            case (false, true):
                return { Reference.quantizedAveragePool(geometry: geometry, input: x, output: y, range: range) }
            case (true, false):
                return { Quantized.maxPool(geometry: geometry, input: x, output: y, range: range, pool: pool) }
            case (false, false):
                return { Quantized.averagePool(geometry: geometry, input: x, output: y, range: range, pool: pool) }
            }
        }
        return context.loweredQuantized(reading: input, int8: step, uint8: step)
    }
}
