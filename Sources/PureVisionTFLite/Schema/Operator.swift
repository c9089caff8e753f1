/// One operator of a subgraph.
public struct Operator: Sendable {
    /// Index into `TFLiteModel.operatorCodes`, validated at parse time.
    public var opcodeIndex: Int
    /// Input tensor indices into the subgraph's tensors; −1 marks an absent optional input.
    public var inputs: [Int]
    /// Output tensor indices into the subgraph's tensors.
    public var outputs: [Int]
    /// The builtin options. When the file stores none (union type NONE) this holds the schema defaults for the
    /// operator, `BuiltinOptions.defaults(for:)`, so it is never `.none` for an operator that has options.
    public var options: BuiltinOptions
    /// The custom options bytes (inline, or the large-model `large_custom_options_offset/size` range), if any.
    public var customOptions: [UInt8]?

    /// Creates the value from its fields.
    public init(opcodeIndex: Int, inputs: [Int], outputs: [Int], options: BuiltinOptions, customOptions: [UInt8]?) {
        self.opcodeIndex = opcodeIndex
        self.inputs = inputs
        self.outputs = outputs
        self.options = options
        self.customOptions = customOptions
    }
}
