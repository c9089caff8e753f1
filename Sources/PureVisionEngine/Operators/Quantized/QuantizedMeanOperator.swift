import PureVisionKernels
import PureVisionTFLite

/// MEAN on 8-bit tensors. Kept 4-D means over height and width take TFLite's optimized integer path; every other
/// axis set takes its general `QuantizedMeanOrSum` path (the two round differently, as in TFLite).
enum QuantizedMeanOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        let reduction = try context.reductionOperands(quantized: true)
        let (input, axes) = (reduction.input, reduction.axes)
        let type = input.elementType
        let rank = input.shape.count
        try context.setOutput(0, shape: reduction.outputShape, type: type)
        let (inScale, inZero) = try context.quantization(input, "input")
        let (outScale, outZero) = try context.outputQuantization(type)
        let dims = input.shape
        if reduction.keepDims, rank == 4, axes == [1, 2] {
            func heightWidthStep<T: QuantizedElement>(
                _ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>
            ) -> ExecutionStep {
                {
                    Quantized.meanHeightWidth(
                        input: x, output: y, batch: dims[0], height: dims[1], width: dims[2], channels: dims[3],
                        inputScale: inScale, inputZeroPoint: inZero, outputScale: outScale, outputZeroPoint: outZero)
                }
            }
            return context.loweredQuantized(reading: input, int8: heightWidthStep, uint8: heightWidthStep)
        }
        // Element offsets of each output's first input element and of the reduced positions relative to it.
        var strides = [Int](repeating: 1, count: rank)
        for axis in stride(from: rank - 2, through: 0, by: -1) { strides[axis] = strides[axis + 1] * dims[axis + 1] }
        func offsets(_ axesSubset: [Int]) -> [Int] {
            var result = [0]
            for axis in axesSubset {
                var next: [Int] = []
                next.reserveCapacity(result.count * dims[axis])
                for base in result { for i in 0..<dims[axis] { next.append(base + i * strides[axis]) } }
                result = next
            }
            return result
        }
        let kept = (0..<rank).filter { !axes.contains($0) }
        let outputOffsets = offsets(kept)
        let reducedOffsets = offsets(axes)
        let multiplier = QuantizedMultiplier(Double(inScale) / Double(outScale))
        let count = context.output(0).elementCount
        func step<T: QuantizedElement>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>) -> ExecutionStep {
            {
                Quantized.mean(
                    input: x, output: y, outputCount: count, outputOffsets: outputOffsets,
                    reducedOffsets: reducedOffsets, inputZeroPoint: inZero, outputZeroPoint: outZero,
                    multiplier: multiplier)
            }
        }
        return context.loweredQuantized(reading: input, int8: step, uint8: step)
    }
}
