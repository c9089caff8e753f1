import PureVisionKernels
import PureVisionTFLite

/// RESIZE_BILINEAR of an NHWC tensor to the size given by a constant int32 [2] tensor (height, width), with
/// TFLite's `align_corners` and `half_pixel_centers` coordinate rules.
enum ResizeBilinearOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let (input, alignCorners, halfPixelCenters, size) = try context.resizeBilinearOperands(quantized: false)
        guard size.count == 2, size[0] > 0, size[1] > 0 else { throw context.failure("size \(size) is invalid") }
        let (batch, height, width, channels) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        // Interpolation reads at least one input pixel per output pixel.
        guard height > 0, width > 0 else { throw context.failure("input \(input.shape) has no pixels to resize") }
        try context.setOutput(0, shape: [batch, size[0], size[1], channels])
        let reference = context.useReference
        let pool = context.pool
        let slots = pool.threadCount
        let scratchFloats = ResizeBilinear.scratchFloatCount(
            outputWidth: size[1], channels: channels, threadCount: slots)
        return context.loweredFloat(reading: input, scratchBytes: reference ? 0 : scratchFloats * 4) { x, y, binder in
            if reference {
                return {
                    Reference.resizeBilinear(
                        input: x, batch: batch, inputHeight: height, inputWidth: width, channels: channels, output: y,
                        outputHeight: size[0], outputWidth: size[1], alignCorners: alignCorners,
                        halfPixelCenters: halfPixelCenters)
                }
            }
            let scratch = binder.scratchFloats
            return {
                ResizeBilinear.run(
                    input: x, batch: batch, inputHeight: height, inputWidth: width, channels: channels, output: y,
                    outputHeight: size[0], outputWidth: size[1], alignCorners: alignCorners,
                    halfPixelCenters: halfPixelCenters, scratch: scratch, scratchSlots: slots, pool: pool)
            }
        }
    }
}
