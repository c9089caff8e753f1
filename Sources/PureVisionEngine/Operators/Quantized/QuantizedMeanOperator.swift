import PureVisionKernels
import PureVisionTFLite

/// MEAN on 8-bit tensors. Kept 4-D means over height and width take TFLite's optimized integer path; every other
/// axis set takes its general `QuantizedMeanOrSum` path (the two round differently, as in TFLite).
enum QuantizedMeanOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        guard case .reducer(let keepDims) = context.builtinOptions(.mean) else {
            throw context.failure("options are not ReducerOptions")
        }
        let input = try context.input(0)
        let type = input.elementType
        let rank = input.shape.count
        var axes: [Int] = []
        for axis in try context.constantIntegers(try context.input(1), "axes") {
            guard axis >= -rank, axis < rank else {
                throw context.failure("axis \(axis) out of range for rank \(rank)")
            }
            let normalized = axis < 0 ? axis + rank : axis
            if !axes.contains(normalized) { axes.append(normalized) }
        }
        var shape: [Int] = []
        for (axis, extent) in input.shape.enumerated() {
            if axes.contains(axis) {
                if keepDims { shape.append(1) }
            } else {
                shape.append(extent)
            }
        }
        try context.setOutput(0, shape: shape, type: type)
        let (inScale, inZero) = try context.quantization(input, "input")
        let (outScale, outZero) = try context.outputQuantization(type)
        let output = context.output(0)
        let ctx = context
        let dims = input.shape
        if keepDims, rank == 4, Set(axes) == [1, 2] {
            return context.lowered(reading: [input]) { binder in
                let x = ctx.pointer(input, binder)
                let y = binder.raw(output.index)
                func step<T: QuantizedElement>(_: T.Type) -> ExecutionStep {
                    let (x, y) = (UnsafePointer(x.assumingMemoryBound(to: T.self)), y.assumingMemoryBound(to: T.self))
                    return {
                        Quantized.meanHeightWidth(
                            input: x, output: y, batch: dims[0], height: dims[1], width: dims[2], channels: dims[3],
                            inputScale: inScale, inputZeroPoint: inZero, outputScale: outScale, outputZeroPoint: outZero
                        )
                    }
                }
                return type == .uint8 ? step(UInt8.self) : step(Int8.self)
            }
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
        let reducedOffsets = offsets(axes.sorted())
        let multiplier = QuantizedMultiplier(Double(inScale) / Double(outScale))
        let count = output.elementCount
        return context.lowered(reading: [input]) { binder in
            let x = ctx.pointer(input, binder)
            let y = binder.raw(output.index)
            func step<T: QuantizedElement>(_: T.Type) -> ExecutionStep {
                let (x, y) = (UnsafePointer(x.assumingMemoryBound(to: T.self)), y.assumingMemoryBound(to: T.self))
                return {
                    Quantized.mean(
                        input: x, output: y, outputCount: count, outputOffsets: outputOffsets,
                        reducedOffsets: reducedOffsets, inputZeroPoint: inZero, outputZeroPoint: outZero,
                        multiplier: multiplier)
                }
            }
            return type == .uint8 ? step(UInt8.self) : step(Int8.self)
        }
    }
}
