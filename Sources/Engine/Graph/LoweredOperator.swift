/// Resolves tensor indices to the memory they occupy once the arena is planned.
struct TensorBinder {
    let tensorPointer: (Int) -> UnsafeMutableRawPointer
    let scratch: UnsafeMutableRawPointer

    func raw(_ tensor: Int) -> UnsafeMutableRawPointer { tensorPointer(tensor) }
    func floats(_ tensor: Int) -> UnsafeMutablePointer<Float> {
        tensorPointer(tensor).assumingMemoryBound(to: Float.self)
    }
    var scratchFloats: UnsafeMutablePointer<Float> { scratch.assumingMemoryBound(to: Float.self) }
}

/// One step of a prepared run: an operator whose kernels, packed weights and pointers are fixed.
typealias ExecutionStep = () -> Void

/// An operator after validation and shape inference, before memory is planned.
struct LoweredOperator {
    /// Index of the operator in the subgraph, for error messages and profiling.
    let operatorIndex: Int
    /// The TFLite name of the operator.
    let name: String
    /// Tensors read at run time (constants excluded).
    let inputs: [Int]
    /// The shapes of the outputs, for profiles.
    var outputShapes: [[Int]] = []
    /// Tensors written.
    let outputs: [Int]
    /// Scratch bytes the kernel needs during its run (shared by all operators, which run one at a time).
    let scratchBytes: Int
    /// Makes the run step once tensor addresses are known.
    let bind: (TensorBinder) -> ExecutionStep
}
