import Dispatch
import PureVisionCore
import PureVisionKernels
import PureVisionTFLite

/// Runs a TFLite model natively: any model of the main subgraph built from the supported operators
/// (`Interpreter.supportedOperators`).
///
/// All the work that does not depend on input values happens once, in `init`: the whole model is validated,
/// shapes are inferred, constant subgraphs (float16 / int8 dequantization, densification of sparse weights) are
/// folded, weights are packed for the kernels, and one arena is planned for every activation tensor. A run then
/// copies the inputs in, executes the prepared steps and allocates nothing but the returned output values.
///
/// An `Interpreter` is safe to share between threads: runs are serialised by an internal lock.
public final class Interpreter: @unchecked Sendable {
    /// The model's inputs, in the subgraph's input order.
    public let inputs: [TensorDescription]
    /// The model's outputs, in the subgraph's output order.
    public let outputs: [TensorDescription]
    /// The options the interpreter was prepared with.
    public let options: InterpreterOptions
    /// Bytes of activation memory planned for one run (arena plus kernel scratch).
    public let arenaByteCount: Int
    /// How many operators run per invocation after constant folding.
    public var operatorCount: Int { steps.count }

    /// The threads the interpreter's runs use (see ``init(model:options:pool:)``).
    package var threadPool: ThreadPool { pool }

    /// One label per prepared step, in run order: operator index, TFLite name and output shapes.
    package let stepLabels: [String]
    /// The code family of each step's main kernel (nil for a step without one), for benchmarks.
    package let stepKernelFamilies: [KernelFamily?]

    /// Run-time tensors that live inside another tensor's arena slot (a RESHAPE's output in its input's, a
    /// CONCATENATION's inputs in its output's): tensor → the slot's owner and the byte offset in it.
    package let tensorsSharingSlots: [Int: SlotSharing]

    private let steps: [ExecutionStep]
    private let arena: UnsafeMutableRawPointer
    /// The memory of each input, in input order (its elements, of its type).
    private let inputBuffers: [UnsafeMutableRawBufferPointer]
    /// The memory of each output, in output order.
    private let outputBuffers: [UnsafeRawBufferPointer]
    private let constants: [ConstantStorage]
    private let pool: ThreadPool
    private let lock = Lock()

    /// Loads and prepares the model in the file at `path`.
    /// - Throws: `InterpreterError` (a malformed file is `.modelFormat`).
    public convenience init(contentsOf path: String, options: InterpreterOptions = .init()) throws(InterpreterError) {
        let model: TFLiteModel
        do { model = try TFLiteModel(contentsOf: path) } catch { throw .modelFormat(error) }
        try self.init(model: model, options: options)
    }

    /// Loads and prepares a model from the bytes of a `.tflite` file.
    public convenience init(bytes: [UInt8], options: InterpreterOptions = .init()) throws(InterpreterError) {
        let model: TFLiteModel
        do { model = try TFLiteModel(bytes: bytes) } catch { throw .modelFormat(error) }
        try self.init(model: model, options: options)
    }

    /// Prepares a parsed model.
    public convenience init(model: TFLiteModel, options: InterpreterOptions = .init()) throws(InterpreterError) {
        try self.init(model: model, options: options, pool: nil)
    }

    /// Prepares a parsed model whose runs use `pool`, which other interpreters may share (a task's models run one
    /// after another, and one set of worker threads serves them all), or a pool of its own when `pool` is nil or its
    /// thread count is not the one the options ask for (1 in reference mode).
    package init(model: TFLiteModel, options: InterpreterOptions, pool shared: ThreadPool?) throws(InterpreterError) {
        self.options = options
        let threadCount = options.kernelMode == .reference ? 1 : options.threadCount
        let pool = shared.flatMap { $0.threadCount == threadCount ? $0 : nil } ?? ThreadPool(threadCount: threadCount)
        self.pool = pool
        let graph = try GraphBuilder.build(model: model, options: options, pool: pool)
        self.inputs = graph.inputs
        self.outputs = graph.outputs
        self.constants = graph.constants

        let plan = MemoryPlanner.plan(graph.memoryRequests)
        let scratchBytes = MemoryPlanner.align(graph.operators.map(\.scratchBytes).max() ?? 0)
        let (total, overflow) = plan.arenaBytes.addingReportingOverflow(scratchBytes)
        guard !overflow, total <= options.memoryLimit else {
            throw .limitExceeded("the model needs \(plan.arenaBytes) + \(scratchBytes) bytes of activation memory")
        }
        arenaByteCount = total
        let arena = UnsafeMutableRawPointer.allocate(byteCount: max(total, 1), alignment: MemoryPlanner.alignment)
        arena.initializeMemory(as: UInt8.self, repeating: 0, count: max(total, 1))
        self.arena = arena
        let constantPointers = graph.constantPointers
        tensorsSharingSlots = graph.aliases
        var offsets = plan.offsets
        for (tensor, placement) in graph.aliases {
            offsets[tensor] = (offsets[placement.container] ?? 0) + placement.byteOffset
        }
        let pointerOf: (Int) -> UnsafeMutableRawPointer = { tensor in
            if let constant = constantPointers[tensor] { return constant }
            return arena + (offsets[tensor] ?? 0)
        }
        let binder = TensorBinder(tensorPointer: pointerOf, scratch: arena + plan.arenaBytes)
        steps = graph.operators.map { $0.bind(binder) }
        stepLabels = graph.operators.map { op in
            "#\(op.operatorIndex) \(op.name) "
                + op.outputShapes.map { $0.map(String.init).joined(separator: "x") }
                .joined(separator: ",")
        }
        stepKernelFamilies = graph.operators.map(\.kernelFamily)
        inputBuffers = graph.inputs.map {
            UnsafeMutableRawBufferPointer(start: pointerOf($0.tensorIndex), count: $0.byteCount)
        }
        outputBuffers = graph.outputs.map {
            UnsafeRawBufferPointer(start: pointerOf($0.tensorIndex), count: $0.byteCount)
        }
    }

    deinit { arena.deallocate() }

    /// Runs the model on `inputs` (one per model input, in order) and returns the outputs, in order.
    /// - Throws: `InterpreterError.inputCountMismatch` / `.inputMismatch` when an input does not match the model.
    public func run(_ inputs: [Tensor]) throws(InterpreterError) -> [Tensor] {
        guard inputs.count == self.inputs.count else {
            throw .inputCountMismatch(expected: self.inputs.count, actual: inputs.count)
        }
        for (index, (given, expected)) in zip(inputs, self.inputs).enumerated() {
            guard given.shape == expected.shape, given.elementType == expected.elementType else {
                throw .inputMismatch(
                    index: index, name: expected.name, expectedShape: expected.shape,
                    expectedType: expected.elementType, actualShape: given.shape, actualType: given.elementType)
            }
        }
        return lock.withLock {
            for (index, input) in inputs.enumerated() {
                input.withUnsafeBytes { bytes in inputBuffers[index].copyMemory(from: bytes) }
            }
            executeSteps()
            return outputs.enumerated().map { index, description in
                let bytes = Array(outputBuffers[index])
                // The byte count is derived from the description itself, so this cannot fail.
                return (try? Tensor(shape: description.shape, elementType: description.elementType, bytes: bytes))
                    ?? Tensor(zeros: description.shape, elementType: description.elementType)
            }
        }
    }

    /// Direct access to the prepared memory for callers that must not allocate per run (the vision tasks).
    ///
    /// `body` runs while the interpreter is locked: it fills inputs in place, calls `invoke()`, and reads outputs in
    /// place. The pointers are valid only inside `body`.
    public func withSession<R, E: Error>(_ body: (borrowing Session) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in try body(Session(interpreter: self)) }
    }

    /// The in-place view of an interpreter handed to `withSession`'s closure.
    public struct Session: ~Copyable {
        /// The interpreter, unretained: a session exists only inside `withSession`, whose interpreter outlives it.
        /// Unmanaged rather than a strong reference, because Swift 6.0.3 crashes on a class reference stored in a
        /// noncopyable struct (its SIL ownership verifier, and at `-O` its IR generation retaining the struct).
        private let unretainedInterpreter: Unmanaged<Interpreter>

        fileprivate init(interpreter: Interpreter) { unretainedInterpreter = .passUnretained(interpreter) }

        private var interpreter: Interpreter { unretainedInterpreter.takeUnretainedValue() }

        /// The memory of input `index` (`inputs[index].shape.elementCount` elements of its type).
        public func input(_ index: Int) -> UnsafeMutableRawBufferPointer { interpreter.inputBuffers[index] }

        /// The memory of a float32 input `index`.
        public func floatInput(_ index: Int) -> UnsafeMutableBufferPointer<Float> {
            input(index).bindMemory(to: Float.self)
        }

        /// The memory of an int8 input `index` (quantized: `real = scale · (q − zeroPoint)`, see
        /// `inputs[index].quantization`). Only meaningful when `inputs[index].elementType` is `.int8`.
        public func int8Input(_ index: Int) -> UnsafeMutableBufferPointer<Int8> {
            input(index).bindMemory(to: Int8.self)
        }

        /// The memory of a uint8 input `index`. Only meaningful when `inputs[index].elementType` is `.uint8`.
        public func uint8Input(_ index: Int) -> UnsafeMutableBufferPointer<UInt8> {
            input(index).bindMemory(to: UInt8.self)
        }

        /// Runs the prepared steps on the current inputs.
        public func invoke() { interpreter.executeSteps() }

        /// The interpreter's threads, for work that prepares its inputs (such as a task's image preprocessing).
        package var pool: ThreadPool { interpreter.pool }

        /// Runs the prepared steps like `invoke()` and adds each step's wall time, in nanoseconds, to
        /// `nanoseconds[step]` (`stepLabels` names the steps; the buffer holds at least `operatorCount` elements).
        package func invokeProfiled(addingTo nanoseconds: UnsafeMutableBufferPointer<UInt64>) {
            precondition(nanoseconds.count >= interpreter.steps.count, "one slot per step")
            var last = DispatchTime.now().uptimeNanoseconds
            for (index, step) in interpreter.steps.enumerated() {
                step()
                let now = DispatchTime.now().uptimeNanoseconds
                nanoseconds[index] += now - last
                last = now
            }
        }

        /// The memory of output `index`, valid until the next `invoke()`.
        public func output(_ index: Int) -> UnsafeRawBufferPointer { interpreter.outputBuffers[index] }

        /// The values of an int8 output `index`, valid until the next `invoke()` (dequantize with
        /// `outputs[index].quantization`). Only meaningful when `outputs[index].elementType` is `.int8`.
        public func int8Output(_ index: Int) -> UnsafeBufferPointer<Int8> {
            output(index).bindMemory(to: Int8.self)
        }

        /// The values of a uint8 output `index`, valid until the next `invoke()`. Only meaningful when
        /// `outputs[index].elementType` is `.uint8`.
        public func uint8Output(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            output(index).bindMemory(to: UInt8.self)
        }

        /// The elements of a float32 output `index`.
        public func floatOutput(_ index: Int) -> UnsafeBufferPointer<Float> {
            output(index).bindMemory(to: Float.self)
        }
    }

    private func executeSteps() {
        for step in steps { step() }
    }

    /// The builtin operators a model may use.
    public static var supportedOperators: [BuiltinOperator] { OperatorRegistry.supported }

    /// The custom operators (`OperatorCode.custom_code`) a model may use, sorted: MediaPipe's
    /// `Convolution2DTransposeBias`. Any other custom operator is refused with
    /// `InterpreterError.unsupportedOperator`.
    public static var supportedCustomOperators: [String] { OperatorRegistry.customTable.keys.sorted() }
}
