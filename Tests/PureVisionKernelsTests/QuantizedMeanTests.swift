import PureVisionKernels
import Testing

/// The vector MEAN over height and width against its scalar twin: channel counts on both sides of 16, one pixel to
/// many, several images, both 8-bit types, zero points and scales that saturate.
struct QuantizedMeanTests {
    @Test(arguments: [1, 15, 16, 17, 33, 48, 1280], [(1, 1, 1), (2, 7, 7), (1, 3, 5), (3, 1, 2)])
    func meanHeightWidthMatchesItsTwin(_ channels: Int, _ shape: (batch: Int, height: Int, width: Int)) {
        var random = Random(state: UInt64(channels * 31 + shape.height * 7 + shape.batch))
        let count = shape.batch * shape.height * shape.width * channels
        let signed = (0..<count).map { _ in Int8(truncatingIfNeeded: random.next()) }
        let unsigned = signed.map { UInt8(bitPattern: $0) }
        for (inputScale, inputZeroPoint, outputScale, outputZeroPoint) in [
            (Float(0.02), Int32(-3), Float(0.015), Int32(5)), (0.1, 100, 0.001, -120), (0.5, -128, 2.5, 127),
        ] {
            check(signed, channels, shape, inputScale, inputZeroPoint, outputScale, outputZeroPoint)
            check(unsigned, channels, shape, inputScale, inputZeroPoint + 128, outputScale, outputZeroPoint + 128)
        }
    }

    private func check<T: QuantizedElement>(
        _ input: [T], _ channels: Int, _ shape: (batch: Int, height: Int, width: Int), _ inputScale: Float,
        _ inputZeroPoint: Int32, _ outputScale: Float, _ outputZeroPoint: Int32
    ) {
        var fast = [T](repeating: 0, count: shape.batch * channels)
        var plain = fast
        input.withUnsafeBufferPointer { x in
            guard let x = x.baseAddress else { return }
            fast.withUnsafeMutableBufferPointer { y in
                guard let y = y.baseAddress else { return }
                Quantized.meanHeightWidth(
                    input: x, output: y, batch: shape.batch, height: shape.height, width: shape.width,
                    channels: channels, inputScale: inputScale, inputZeroPoint: inputZeroPoint,
                    outputScale: outputScale, outputZeroPoint: outputZeroPoint)
            }
            plain.withUnsafeMutableBufferPointer { y in
                guard let y = y.baseAddress else { return }
                Reference.quantizedMeanHeightWidth(
                    input: x, output: y, batch: shape.batch, height: shape.height, width: shape.width,
                    channels: channels, inputScale: inputScale, inputZeroPoint: inputZeroPoint,
                    outputScale: outputScale, outputZeroPoint: outputZeroPoint)
            }
        }
        #expect(
            fast == plain, "\(T.self) \(channels) channels \(shape) zero points \(inputZeroPoint), \(outputZeroPoint)")
    }
}

/// The general MEAN (16 outputs at a time where their inputs are consecutive) against its scalar twin, over the
/// axes of a `[2, 3, 5, C]` tensor that make consecutive outputs and those that do not.
struct QuantizedGeneralMeanTests {
    @Test(arguments: [1, 16, 17, 40], [[1, 2], [3], [0, 2], [1], [0, 1, 2, 3]])
    func meanMatchesItsTwin(_ channels: Int, _ axes: [Int]) {
        let dims = [2, 3, 5, channels]
        var strides = [1, 1, 1, 1]
        for axis in stride(from: 2, through: 0, by: -1) { strides[axis] = strides[axis + 1] * dims[axis + 1] }
        func offsets(_ subset: [Int]) -> [Int] {
            subset.reduce([0]) { result, axis in
                result.flatMap { base in (0..<dims[axis]).map { base + $0 * strides[axis] } }
            }
        }
        let outputOffsets = offsets((0..<4).filter { !axes.contains($0) })
        let reducedOffsets = offsets(axes)
        var random = Random(state: UInt64(channels * 13 + axes.count))
        let input = (0..<(dims.reduce(1, *))).map { _ in Int8(truncatingIfNeeded: random.next()) }
        for (scale, inputZeroPoint, outputZeroPoint) in [(0.7, Int32(-5), Int32(3)), (40.0, 127, -128), (1e-3, 0, 0)] {
            let multiplier = QuantizedMultiplier(scale)
            var fast = [Int8](repeating: 0, count: outputOffsets.count)
            var plain = fast
            input.withUnsafeBufferPointer { x in
                guard let x = x.baseAddress else { return }
                fast.withUnsafeMutableBufferPointer { y in
                    guard let y = y.baseAddress else { return }
                    Quantized.mean(
                        input: x, output: y, outputCount: outputOffsets.count, outputOffsets: outputOffsets,
                        reducedOffsets: reducedOffsets, inputZeroPoint: inputZeroPoint,
                        outputZeroPoint: outputZeroPoint, multiplier: multiplier)
                }
                plain.withUnsafeMutableBufferPointer { y in
                    guard let y = y.baseAddress else { return }
                    Reference.quantizedMean(
                        input: x, output: y, outputOffsets: outputOffsets, reducedOffsets: reducedOffsets,
                        inputZeroPoint: inputZeroPoint, outputZeroPoint: outputZeroPoint, multiplier: multiplier)
                }
            }
            #expect(fast == plain, "\(channels) channels, axes \(axes), scale \(scale)")
        }
    }
}
