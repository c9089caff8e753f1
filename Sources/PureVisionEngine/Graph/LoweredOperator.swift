import PureVisionKernels

/// Resolves tensor indices to the memory they occupy once the arena is planned.
package struct TensorBinder {
    let tensorPointer: (Int) -> UnsafeMutableRawPointer
    let scratch: UnsafeMutableRawPointer

    package init(tensorPointer: @escaping (Int) -> UnsafeMutableRawPointer, scratch: UnsafeMutableRawPointer) {
        self.tensorPointer = tensorPointer
        self.scratch = scratch
    }

    func raw(_ tensor: Int) -> UnsafeMutableRawPointer { tensorPointer(tensor) }
    func floats(_ tensor: Int) -> UnsafeMutablePointer<Float> {
        tensorPointer(tensor).assumingMemoryBound(to: Float.self)
    }
    var scratchFloats: UnsafeMutablePointer<Float> { scratch.assumingMemoryBound(to: Float.self) }
}

/// One step of a prepared run: an operator whose kernels, packed weights and pointers are fixed.
package typealias ExecutionStep = () -> Void

/// An operator after validation and shape inference, before memory is planned.
package struct LoweredOperator {
    /// Index of the operator in the subgraph, for error messages and profiling.
    package let operatorIndex: Int
    /// The TFLite name of the operator; fused operators join their names with `+` (`CONV_2D+ADD+PRELU`).
    package var name: String
    /// Tensors read at run time (constants excluded).
    package var inputs: [Int]
    /// The shapes of the outputs, for profiles.
    package var outputShapes: [[Int]] = []
    /// Tensors written.
    package var outputs: [Int]
    /// Scratch bytes the kernel needs during its run (shared by all operators, which run one at a time).
    package let scratchBytes: Int
    /// Makes the run step once tensor addresses are known.
    package var bind: (TensorBinder) -> ExecutionStep
    /// Set by kernels that can apply element-wise steps to their output (convolutions): see `EpilogueFusion`.
    package var epilogueFusion: EpilogueFusion?
    /// Set by element-wise operators that such a kernel can absorb: see `EpilogueSource`.
    package var epilogueSource: EpilogueSource?
    /// Set by a PAD that only appends zeros on the innermost axis: its input tensor and that input's channel count.
    /// A fused residual ADD can read the unpadded input instead (see `OutputEpilogue.Step.addResidual`).
    package var channelZeroPadding: (input: Int, channels: Int)?
    /// Tensors that may live inside another's arena slot, because the operator's result is then already in place:
    /// a RESHAPE's output at its input (the same bytes), a CONCATENATION's inputs at their places in its output.
    /// The memory planner honours them where it can; the step skips any copy whose source and target agree.
    package var slotSharing: [SlotSharing] = []
    /// Set by operators that map each element on its own, given its channel: see `ChannelLookupFusion`.
    package var channelwiseMap: ChannelwiseMap?
    /// The code family of the operator's main kernel (convolutions and fully connected layers), for benchmarks.
    package var kernelFamily: KernelFamily?

    package init(
        operatorIndex: Int, name: String, inputs: [Int], outputShapes: [[Int]] = [], outputs: [Int],
        scratchBytes: Int, bind: @escaping (TensorBinder) -> ExecutionStep
    ) {
        self.operatorIndex = operatorIndex
        self.name = name
        self.inputs = inputs
        self.outputShapes = outputShapes
        self.outputs = outputs
        self.scratchBytes = scratchBytes
        self.bind = bind
    }
}

/// What an element-wise operator computes, described so that the convolution producing one of its inputs can do it
/// on each output block instead (only operators whose result equals that of the fused step are described).
package enum EpilogueSource {
    /// ADD of two run-time tensors of the output's shape (no broadcasting), then a clamp.
    case add(lhs: Int, rhs: Int, clamp: ClampRange)
    /// PRELU of `input` with one constant slope per channel (innermost axis), the output shaped like the input.
    case prelu(input: Int, alpha: [Float])
    /// An activation that is a clamp (RELU, RELU6, RELU_N1_TO_1).
    case clamp(input: Int, ClampRange)
}

/// A kernel's ability to absorb element-wise consumers of its single output.
package struct EpilogueFusion {
    /// Channels (innermost extent) of the output.
    package let channels: Int
    /// The steps absorbed so far.
    package var epilogue: OutputEpilogue = .none
    /// The tensor the residual step reads, if there is one.
    package var residual: Int?
    /// Makes the fused operator's bind: the kernel with `epilogue`, reading `residual`, writing tensor `output`.
    package let makeBind:
        (_ epilogue: OutputEpilogue, _ residual: Int?, _ output: Int) -> (TensorBinder) -> ExecutionStep

    package init(
        channels: Int,
        makeBind:
            @escaping (_ epilogue: OutputEpilogue, _ residual: Int?, _ output: Int) -> (TensorBinder) -> ExecutionStep
    ) {
        self.channels = channels
        self.makeBind = makeBind
    }
}

/// Tensor `tensor` may occupy the bytes of tensor `container` from `byteOffset` on (see
/// `LoweredOperator.slotSharing`).
package struct SlotSharing: Equatable, Sendable {
    package let tensor: Int
    package let container: Int
    package let byteOffset: Int

    package init(tensor: Int, container: Int, byteOffset: Int) {
        self.tensor = tensor
        self.container = container
        self.byteOffset = byteOffset
    }
}
