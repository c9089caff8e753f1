/// One subgraph of a model; subgraph 0 is the main graph.
public struct Subgraph: Sendable {
    /// The subgraph's name, when the file records one.
    public var name: String?
    /// All tensors; operators and the input/output lists refer to them by index.
    public var tensors: [TensorInfo]
    /// Indices of the tensors fed by the caller, validated to be in `tensors`.
    public var inputs: [Int]
    /// Indices of the tensors returned to the caller, validated to be in `tensors`.
    public var outputs: [Int]
    /// The operators in execution order.
    public var operators: [Operator]

    /// Creates the value from its fields.
    public init(name: String?, tensors: [TensorInfo], inputs: [Int], outputs: [Int], operators: [Operator]) {
        self.name = name
        self.tensors = tensors
        self.inputs = inputs
        self.outputs = outputs
        self.operators = operators
    }
}
