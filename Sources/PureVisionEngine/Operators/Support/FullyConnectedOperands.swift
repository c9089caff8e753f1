import PureVisionCore
import PureVisionKernels
import PureVisionTFLite

/// A FULLY_CONNECTED, float32 or 8-bit, after the checks its lowerings share: constant weights `[Cout, K]`, an
/// optional constant bias `[Cout]` (float32, or int32 for 8-bit operators), the input read as `[batch, K]` with
/// `batch = elements / K`, and the output shape: `[batch, Cout]`, or the input's shape with the last dimension
/// replaced when `keep_num_dims` is set.
struct FullyConnectedOperands {
    let input: GraphTensor
    let filter: GraphTensor
    let weights: ConstantStorage
    let bias: ConstantStorage?
    let activation: FusedActivation
    let outputShape: [Int]

    /// `Cout`, the weights' rows.
    var outputSize: Int { filter.shape[0] }
    /// `K`, the weights' columns.
    var inputSize: Int { filter.shape[1] }
    var batch: Int { input.elementCount / inputSize }
}

extension LoweringContext {
    /// The checked operands of this FULLY_CONNECTED (inputs `[input, weights, bias?]`): a float32 input, weights and
    /// bias, or when `quantized`, weights of the input's 8-bit type and an int32 bias.
    func fullyConnectedOperands(quantized: Bool) throws(InterpreterError) -> FullyConnectedOperands {
        try expectArity(inputs: 2...3)
        guard case .fullyConnected(let options) = builtinOptions(.fullyConnected) else {
            throw failure("options are not FullyConnectedOptions")
        }
        guard options.weightsFormat == .default else { throw failure("shuffled weight formats are not supported") }
        let input = try self.input(0)
        let filter = try self.input(1)
        let weights = try constantFilter(
            filter, "weights", rank: 2, type: quantized ? input.elementType : .float32, input: input, inputRank: nil)
        let (outputSize, inputSize) = (filter.shape[0], filter.shape[1])
        guard inputSize > 0, outputSize > 0, input.elementCount > 0, input.elementCount % inputSize == 0 else {
            throw failure("input \(input.shape) cannot be read as rows of \(inputSize) (weights \(filter.shape))")
        }
        let batch = input.elementCount / inputSize
        let bias = try constantBias(optionalInput(2), type: quantized ? .int32 : .float32, channels: outputSize)
        return FullyConnectedOperands(
            input: input, filter: filter, weights: weights, bias: bias, activation: options.activation,
            outputShape: options.keepNumDims && input.shape.last == inputSize
                ? Array(input.shape.dropLast()) + [outputSize] : [batch, outputSize])
    }
}
