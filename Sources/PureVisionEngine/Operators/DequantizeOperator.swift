import PureVisionKernels
import PureVisionTFLite

/// DEQUANTIZE to float32: float16 is widened; int8 / uint8 / int16 become `scale · (q − zeroPoint)`, per channel
/// along `quantized_dimension` when the tensor has several scales. On constant weights this runs once, at load.
enum DequantizeOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...1)
        let input = try context.input(0)
        try context.setOutput(0, shape: input.shape)
        let output = context.output(0)
        let count = input.elementCount
        let shape = input.shape
        switch input.elementType {
        case .float16:
            return context.lowered(reading: [input]) { binder in
                let x = UnsafePointer(binder.raw(input).assumingMemoryBound(to: UInt16.self))
                let y = binder.floats(output.index)
                return { Dequantize.float16(input: x, output: y, count: count) }
            }
        case .float32:
            return context.loweredBytes(reading: input) { x, y in
                return { y.copyMemory(from: x, byteCount: count * 4) }
            }
        case .int8, .uint8, .int16:
            guard let q = input.quantization, !q.scales.isEmpty, q.scales.count == q.zeroPoints.count else {
                throw context.failure("input '\(input.name)' has no usable quantization parameters")
            }
            let dimension = q.quantizedDimension
            if q.scales.count > 1 {
                guard dimension >= 0, dimension < shape.count, shape[dimension] == q.scales.count else {
                    throw context.failure(
                        "\(q.scales.count) scales do not match dimension \(dimension) of \(shape)")
                }
            }
            let scales = q.scales
            let zeroPoints = q.zeroPoints.map { Int($0) }
            let type = input.elementType
            // XNNPACK (MediaPipe) rounds `(q − zeroPoint) · scale` once; LiteRT's builtin kernel twice.
            let centered = context.options.quantizedArithmetic == .xnnpack
            let pool = context.pool
            // Per-tensor or per-innermost-index parameters: rows of the last dimension split over the threads.
            let innermost = scales.count == 1 || dimension == shape.count - 1
            var lowered = context.lowered(reading: [input]) { binder in
                let x = UnsafeRawPointer(binder.raw(input))
                let y = binder.floats(output.index)
                if innermost, let channels = shape.last, channels > 0 {
                    let rows = count / channels
                    return {
                        Dequantize.rows(
                            x, elementType: type, rows: rows, channels: channels, scales: scales,
                            zeroPoints: zeroPoints, output: y, centered: centered, pool: pool)
                    }
                }
                /// The step running `dequantize` (`Dequantize`'s entry point for `T`: input, shape, scales, zero
                /// points, quantized dimension, output, centered) on the input read as `T`.
                func step<T>(
                    _ dequantize:
                        @escaping (
                            UnsafePointer<T>, [Int], [Float], [Int], Int, UnsafeMutablePointer<Float>, Bool
                        ) -> Void
                ) -> ExecutionStep {
                    let p = x.assumingMemoryBound(to: T.self)
                    return { dequantize(p, shape, scales, zeroPoints, dimension, y, centered) }
                }
                switch type {
                case .int8: return step(Dequantize.int8)
                case .uint8: return step(Dequantize.uint8)
                default: return step(Dequantize.int16)
                }
            }
            // Channel-wise when the parameters are per tensor or per innermost index.
            if type != .int16, !input.isConstant, innermost, let channels = shape.last, channels > 0 {
                lowered.channelwiseMap = ChannelwiseMap(
                    input: input.index, output: output.index, inputWidth: 1, outputWidth: 4, channels: channels
                ) { x, y, rows in
                    Dequantize.rows(
                        UnsafeRawPointer(x), elementType: type, rows: rows, channels: channels, scales: scales,
                        zeroPoints: zeroPoints, output: y.assumingMemoryBound(to: Float.self), centered: centered,
                        pool: .serial)
                }
            }
            return lowered
        default:
            throw .unsupportedTensorType(
                tensorIndex: input.index, tensorName: input.name, type: input.elementType.rawValue,
                context: "input of DEQUANTIZE (operator \(context.operatorIndex))")
        }
    }
}
