import PureVisionTFLite

/// Which operator writes each tensor of a parsed subgraph and which read it, for the passes that look at a model
/// before it is lowered (`SpatialPadAbsorption`, `BroadcastPrefixFolding`). Tensor indices outside the subgraph's
/// tensors are left out.
struct SubgraphUses {
    private let operatorCodes: [OperatorCode]
    private let tensorCount: Int
    private let graphOutputs: Set<Int>
    /// The operator writing each tensor.
    private(set) var writers: [Int: Operator] = [:]
    /// Each reader of a tensor: its builtin kind and the input position it reads the tensor at.
    private var readers: [Int: [(builtin: BuiltinOperator?, position: Int)]] = [:]

    init(model: TFLiteModel, subgraph: Subgraph, tensorCount: Int) {
        operatorCodes = model.operatorCodes
        self.tensorCount = tensorCount
        graphOutputs = Set(subgraph.outputs)
        for op in subgraph.operators {
            for output in op.outputs where isValid(output) { writers[output] = op }
            for (position, input) in op.inputs.enumerated() where isValid(input) {
                readers[input, default: []].append((builtin(op), position))
            }
        }
    }

    /// The operator's builtin kind; nil when its opcode index is out of range.
    func builtin(_ op: Operator) -> BuiltinOperator? {
        guard op.opcodeIndex >= 0, op.opcodeIndex < operatorCodes.count else { return nil }
        return operatorCodes[op.opcodeIndex].builtin
    }

    /// Whether `tensor` indexes one of the subgraph's tensors.
    func isValid(_ tensor: Int) -> Bool { tensor >= 0 && tensor < tensorCount }

    /// Whether `tensor` is no graph output and is read, by at least one operator, only as input 0 of operators of
    /// `kinds`: a pass that makes each such reader read something else instead leaves the tensor unread.
    func isReadOnlyAsInput0(_ tensor: Int, by kinds: [BuiltinOperator]) -> Bool {
        guard !graphOutputs.contains(tensor), let readers = readers[tensor], !readers.isEmpty else { return false }
        return readers.allSatisfy { reader in reader.position == 0 && reader.builtin.map(kinds.contains) == true }
    }
}
