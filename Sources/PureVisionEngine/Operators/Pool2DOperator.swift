import PureVisionKernels
import PureVisionTFLite

/// MAX_POOL_2D and AVERAGE_POOL_2D over NHWC input, with SAME/VALID padding (padded taps are ignored, and the
/// average divides by the in-bounds tap count, as TFLite does) and a fused activation.
enum Pool2DOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let (input, geometry, activation) = try context.pool2DGeometry(quantized: false)
        let isMax = context.builtin == .maxPool2D
        let clamp = try context.clamp(activation)
        try context.setOutput(0, shape: geometry.outputShape)
        // A zero-sized input (batch, height, width) has no valid geometry; the kernels require one.
        guard geometry.isValid else {
            throw context.failure("input \(input.shape) gives an empty geometry \(geometry)")
        }
        let reference = context.useReference
        let pool = context.pool
        return context.loweredFloat(reading: input) { x, y, _ in
            switch (isMax, reference) {
            case (true, true): return { Reference.maxPool2D(geometry: geometry, input: x, output: y, clamp: clamp) }
            case (false, true):
                return { Reference.averagePool2D(geometry: geometry, input: x, output: y, clamp: clamp) }
            case (true, false):
                return { Pooling.maxPool2D(geometry: geometry, input: x, output: y, clamp: clamp, pool: pool) }
            case (false, false):
                return { Pooling.averagePool2D(geometry: geometry, input: x, output: y, clamp: clamp, pool: pool) }
            }
        }
    }
}
