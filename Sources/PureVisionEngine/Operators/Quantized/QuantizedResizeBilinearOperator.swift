import PureVisionKernels
import PureVisionTFLite

/// RESIZE_BILINEAR on 8-bit NHWC tensors with a constant int32 size [newHeight, newWidth], in TFLite's 10-bit
/// fixed-point scheme; input and output must share their quantization (TFLite copies the values' scale).
enum QuantizedResizeBilinearOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let (input, alignCorners, halfPixelCenters, size) = try context.resizeBilinearOperands(quantized: true)
        let type = input.elementType
        guard size.count == 2, size[0] > 0, size[1] > 0, size[0] <= 1 << 16, size[1] <= 1 << 16 else {
            throw context.failure("size \(size) must be two positive extents")
        }
        guard !(alignCorners && halfPixelCenters) else {
            throw context.failure("align_corners and half_pixel_centers cannot both be set")
        }
        let (batch, height, width, channels) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        try context.setOutput(0, shape: [batch, size[0], size[1], channels], type: type)
        let inQ = try context.quantization(input, "input")
        let outQ = try context.outputQuantization(type)
        guard inQ.scale == outQ.scale, inQ.zeroPoint == outQ.zeroPoint else {
            throw context.failure("input and output quantizations differ (rescaling is not supported)")
        }
        let (outHeight, outWidth) = (size[0], size[1])
        if context.useReference {
            func step<T: QuantizedElement>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>) -> ExecutionStep {
                {
                    Reference.quantizedResizeBilinear(
                        input: x, batch: batch, inputHeight: height, inputWidth: width, channels: channels, output: y,
                        outputHeight: outHeight, outputWidth: outWidth, alignCorners: alignCorners,
                        halfPixelCenters: halfPixelCenters)
                }
            }
            return context.loweredQuantized(reading: input, int8: step, uint8: step)
        }
        let pool = context.pool
        let kernel = QuantizedResizeBilinearKernel(
            batch: batch, inputHeight: height, inputWidth: width, channels: channels, outputHeight: outHeight,
            outputWidth: outWidth, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
        // The kernel's two entry points are overloads, one per type.
        return context.loweredQuantized(
            reading: input, int8: { x, y in { kernel.run(input: x, output: y, pool: pool) } },
            uint8: { x, y in { kernel.run(input: x, output: y, pool: pool) } })
    }
}
