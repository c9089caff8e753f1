import PureVisionCore
import PureVisionKernels
import PureVisionTFLite

/// The requantization of an 8-bit CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED: the zero points of input, weights
/// and output, one multiplier per output channel and the output clamp.
struct WeightedQuantization {
    let inputZeroPoint: Int32
    /// 0 for int8 weights (symmetric), the single per-tensor value for uint8 ones.
    let weightZeroPoint: Int32
    let outputZeroPoint: Int32
    /// Per output channel, `scaleIn · scaleW[c] / scaleOut`.
    let multipliers: [QuantizedMultiplier]
    /// The output type's range narrowed by the fused activation.
    let range: QuantizedRange
}

extension LoweringContext {
    /// Sets output 0 to `outputShape` with the input's 8-bit type and reads the requantization of a weighted
    /// operator whose `filter` has `channels` output channels, from the declared quantizations.
    mutating func weightedQuantization(
        input: GraphTensor, filter: GraphTensor, channels: Int, outputShape: [Int], activation: FusedActivation
    ) throws(InterpreterError) -> WeightedQuantization {
        let type = input.elementType
        try setOutput(0, shape: outputShape, type: type)
        let (inScale, inZero) = try quantization(input, "input")
        let (outScale, outZero) = try outputQuantization(type)
        let weightZero = try weightZeroPoint(filter)
        let multipliers = try channelMultipliers(
            filter, channels: channels, inputScale: inScale, outputScale: outScale)
        return WeightedQuantization(
            inputZeroPoint: inZero, weightZeroPoint: weightZero, outputZeroPoint: outZero, multipliers: multipliers,
            range: try quantizedRange(activation, output: output(0), scale: outScale, zeroPoint: outZero))
    }

    /// The weights' zero point: 0 for int8 (symmetric), the single per-tensor value for uint8.
    private func weightZeroPoint(_ filter: GraphTensor) throws(InterpreterError) -> Int32 {
        guard filter.elementType == .uint8 else { return 0 }
        guard let q = filter.quantization, let zero = q.zeroPoints.first, q.zeroPoints.allSatisfy({ $0 == zero }),
            (0...255).contains(zero)
        else { throw failure("uint8 filter '\(filter.name)' needs one zero point in 0…255") }
        return Int32(zero)
    }

    /// One multiplier per output channel, `scaleIn · scaleW[c] / scaleOut` in double (TFLite's
    /// `PopulateConvolutionQuantizationParams`), with the same product and quotient in float as XNNPACK computes
    /// them (its requantization scale); a single weight scale is broadcast.
    private func channelMultipliers(
        _ filter: GraphTensor, channels: Int, inputScale: Float, outputScale: Float
    ) throws(InterpreterError) -> [QuantizedMultiplier] {
        guard let q = filter.quantization, q.scales.count == 1 || q.scales.count == channels else {
            throw failure("filter '\(filter.name)' needs one scale or one per output channel (\(channels))")
        }
        guard filter.elementType == .uint8 || q.zeroPoints.allSatisfy({ $0 == 0 }) else {
            throw failure("filter '\(filter.name)' has non-zero zero points (int8 weights are symmetric)")
        }
        return (0..<channels).map { c in
            let scale = q.scales.count == 1 ? q.scales[0] : q.scales[c]
            return QuantizedMultiplier(
                Double(inputScale) * Double(scale) / Double(outputScale), floatScale: inputScale * scale / outputScale)
        }
    }
}

extension WeightedQuantization {
    /// Reads weight `i` of the 8-bit `weights` as an int32 less the weight zero point: what the kernels pack at load.
    func weight(from weights: ConstantStorage, unsigned: Bool) -> (Int) -> Int32 {
        let (raw, zero) = (UnsafeRawPointer(weights.pointer), weightZeroPoint)
        return { i in
            unsigned
                ? Int32(raw.load(fromByteOffset: i, as: UInt8.self)) - zero
                : Int32(raw.load(fromByteOffset: i, as: Int8.self))
        }
    }
}

/// A packed 8-bit weighted kernel (`QuantizedConv2DKernel`, `QuantizedDepthwiseConv2DKernel`): it reads and writes
/// either 8-bit type through int8 pointers (it knows which it was packed for) and needs `scratchBytes` of scratch.
protocol PackedQuantizedKernel {
    var kernelFamily: KernelFamily { get }
    var scratchBytes: Int { get }
    func run(
        input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, scratch: UnsafeMutableRawPointer,
        pool: ThreadPool)
}

extension QuantizedConv2DKernel: PackedQuantizedKernel {}
extension QuantizedDepthwiseConv2DKernel: PackedQuantizedKernel {}

extension LoweringContext {
    /// The lowered operator running the packed `kernel` from `input` to output 0.
    func loweredPackedKernel<Kernel: PackedQuantizedKernel & Sendable>(
        _ kernel: Kernel, reading input: GraphTensor
    ) -> LoweredOperator {
        let (output, pool) = (output(0).index, pool)
        var lowered = lowered(reading: [input], scratchBytes: kernel.scratchBytes) { binder in
            let x = UnsafePointer(binder.raw(input).assumingMemoryBound(to: Int8.self))
            let y = binder.raw(output).assumingMemoryBound(to: Int8.self)
            let scratch = binder.scratch
            return { kernel.run(input: x, output: y, scratch: scratch, pool: pool) }
        }
        lowered.kernelFamily = kernel.kernelFamily
        return lowered
    }
}

extension LoweringContext {
    /// The tail the 8-bit CONV_2D, FULLY_CONNECTED and DEPTHWISE_CONV_2D share: from `input` to output 0 with the
    /// `weights`, the int32 `bias` and the requantization `q` rounded by `rounding`, the packed kernel of `geometry`,
    /// or under `useReference` its reference twin.
    func loweredQuantizedConvolution(
        reading input: GraphTensor, geometry: ConvolutionGeometry, weights: ConstantStorage,
        bias: ConstantStorage?, quantization q: WeightedQuantization, rounding: RequantizationRounding
    ) -> LoweredOperator {
        let unsigned = input.elementType == .uint8
        let biasPointer = bias.map { UnsafePointer($0.pointer.assumingMemoryBound(to: Int32.self)) }
        if useReference {
            func step<T: QuantizedElement>(_ x: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>) -> ExecutionStep {
                let filter = UnsafePointer(weights.pointer.assumingMemoryBound(to: T.self))
                return {
                    _ = weights
                    _ = bias
                    switch geometry {
                    case .conv2D(let g):
                        Reference.quantizedConv2D(
                            geometry: g, input: x, filter: filter, bias: biasPointer, inputZeroPoint: q.inputZeroPoint,
                            weightZeroPoint: q.weightZeroPoint, outputZeroPoint: q.outputZeroPoint,
                            multipliers: q.multipliers, range: q.range, rounding: rounding, output: y)
                    case .depthwise(let g):
                        Reference.quantizedDepthwiseConv2D(
                            geometry: g, input: x, filter: filter, bias: biasPointer, inputZeroPoint: q.inputZeroPoint,
                            weightZeroPoint: q.weightZeroPoint, outputZeroPoint: q.outputZeroPoint,
                            multipliers: q.multipliers, range: q.range, rounding: rounding, output: y)
                    }
                }
            }
            return loweredQuantized(reading: input, int8: step, uint8: step)
        }
        let (weight, threads) = (q.weight(from: weights, unsigned: unsigned), pool.threadCount)
        let kernel: any PackedQuantizedKernel & Sendable =
            switch geometry {
            case .conv2D(let g):
                QuantizedConv2DKernel(
                    geometry: g, weight: weight, bias: biasPointer, inputZeroPoint: q.inputZeroPoint,
                    outputZeroPoint: q.outputZeroPoint, multipliers: q.multipliers, range: q.range, unsigned: unsigned,
                    rounding: rounding, threadCount: threads, generatesMachineCode: generatesMachineCode)
            case .depthwise(let g):
                QuantizedDepthwiseConv2DKernel(
                    geometry: g, weight: weight, bias: biasPointer, inputZeroPoint: q.inputZeroPoint,
                    outputZeroPoint: q.outputZeroPoint, multipliers: q.multipliers, range: q.range, unsigned: unsigned,
                    rounding: rounding, threadCount: threads, generatesMachineCode: generatesMachineCode)
            }
        return loweredPackedKernel(kernel, reading: input)
    }
}
