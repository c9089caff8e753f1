import PureVisionCore
import PureVisionTFLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// RESIZE_NEAREST_NEIGHBOR of an NHWC float32, int8 or uint8 tensor to the size given by a constant int32 [2] tensor
/// (height, width): each output pixel copies one input pixel, so 8-bit tensors keep their values and must share
/// the input's quantization.
///
/// The source row and column follow LiteRT's builtin kernel: its reference formula (float32, int8, and uint8 with
/// `align_corners` or `half_pixel_centers`) and, for plain uint8, its optimized 16.16 fixed-point step. Both index
/// tables are computed once, at load.
enum ResizeNearestNeighborOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        guard
            case .resizeNearestNeighbor(let alignCorners, let halfPixelCenters) =
                context.builtinOptions(.resizeNearestNeighbor)
        else { throw context.failure("options are not ResizeNearestNeighborOptions") }
        let input = try context.input(0)
        let type = input.elementType
        guard type == .float32 || type == .int8 || type == .uint8 else {
            throw .unsupportedTensorType(
                tensorIndex: input.index, tensorName: input.name, type: type.rawValue,
                context: "input of operator \(context.operatorIndex) (\(context.name)) must be float32, int8 or uint8")
        }
        try context.expectRank(input, 4, "input")
        let size = try context.constantIntegers(try context.input(1), "size")
        guard size.count == 2, size[0] > 0, size[1] > 0, size[0] <= 1 << 16, size[1] <= 1 << 16 else {
            throw context.failure("size \(size) must be two positive extents")
        }
        let (batch, height, width, channels) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        guard height > 0, width > 0, height <= 1 << 15, width <= 1 << 15 else {
            throw context.failure("input \(input.shape) has no pixels to resize, or too many rows or columns")
        }
        try context.setOutput(0, shape: [batch, size[0], size[1], channels], type: type)
        if type != .float32 {
            let inQ = try context.quantization(input, "input")
            let outQ = try context.outputQuantization(type)
            guard inQ.scale == outQ.scale, inQ.zeroPoint == outQ.zeroPoint else {
                throw context.failure("input and output quantizations differ (rescaling is not supported)")
            }
        }
        let fixedPoint = type == .uint8 && !alignCorners && !halfPixelCenters
        let rows = sourceIndices(
            outputSize: size[0], inputSize: height, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters,
            fixedPoint: fixedPoint)
        let columns = sourceIndices(
            outputSize: size[1], inputSize: width, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters,
            fixedPoint: fixedPoint)
        let pixelBytes = channels * type.byteWidth
        return context.loweredBytes(reading: input) { x, y in
            return {
                gather(
                    input: x, output: y, batch: batch, inputHeight: height, inputWidth: width, rows: rows,
                    columns: columns, pixelBytes: pixelBytes)
            }
        }
    }

    /// The input row (or column) each output row (or column) copies.
    ///
    /// Reference: `scale = alignCorners && out > 1 ? (in − 1) / (out − 1) : in / out` (float), `offset = 0.5` with
    /// half-pixel centres; `min(alignCorners ? round((i + offset)·scale) : floor((i + offset)·scale), in − 1)`,
    /// then `max(0, ·)` with half-pixel centres. Fixed point: `min((i · ((in << 16) / out + 1)) >> 16, in − 1)`.
    static func sourceIndices(
        outputSize: Int, inputSize: Int, alignCorners: Bool, halfPixelCenters: Bool, fixedPoint: Bool
    ) -> [Int] {
        if fixedPoint {
            let step = Int32((inputSize << 16) / outputSize + 1)
            return (0..<outputSize).map { i in min(Int((Int32(i) &* step) >> 16), inputSize - 1) }
        }
        let scale: Float =
            alignCorners && outputSize > 1
            ? Float(inputSize - 1) / Float(outputSize - 1) : Float(inputSize) / Float(outputSize)
        let offset: Float = halfPixelCenters ? 0.5 : 0
        return (0..<outputSize).map { i in
            let position = (Float(i) + offset) * scale
            // TfLiteRound is round-half-away-from-zero.
            let rounded = alignCorners ? position.rounded(.toNearestOrAwayFromZero) : floorf(position)
            var index = min(Int(rounded), inputSize - 1)
            if halfPixelCenters { index = max(0, index) }
            return index
        }
    }

    /// Copies pixel `(rows[oy], columns[ox])` of each image to `(oy, ox)`.
    static func gather(
        input: UnsafeRawPointer, output: UnsafeMutableRawPointer, batch: Int, inputHeight: Int, inputWidth: Int,
        rows: [Int], columns: [Int], pixelBytes: Int
    ) {
        var destination = output
        for b in 0..<batch {
            let image = input + b * inputHeight * inputWidth * pixelBytes
            for row in rows {
                let sourceRow = image + row * inputWidth * pixelBytes
                for column in columns {
                    destination.copyMemory(from: sourceRow + column * pixelBytes, byteCount: pixelBytes)
                    destination += pixelBytes
                }
            }
        }
    }
}
