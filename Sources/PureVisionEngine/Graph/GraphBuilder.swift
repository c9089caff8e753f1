import PureVisionCore
import PureVisionKernels
import PureVisionTFLite

/// Turns the main subgraph of a parsed model into prepared operators: validates every tensor and operator,
/// infers shapes in operator order, folds operators whose inputs are all constant, and records each run-time
/// tensor's lifetime for the memory planner.
struct GraphBuilder {
    var inputs: [TensorDescription] = []
    var outputs: [TensorDescription] = []
    var operators: [LoweredOperator] = []
    var constants: [ConstantStorage] = []
    var constantPointers: [Int: UnsafeMutableRawPointer] = [:]
    var memoryRequests: [MemoryPlanner.Request] = []
    /// Run-time tensors that live inside another tensor's arena slot (see `LoweredOperator.slotSharing`): tensor →
    /// the owner of the slot (a tensor with a request of its own) and the byte offset in it.
    var aliases: [Int: SlotSharing] = [:]

    static func build(
        model: TFLiteModel, options: InterpreterOptions, pool: ThreadPool
    ) throws(InterpreterError) -> GraphBuilder {
        guard let subgraph = model.subgraphs.first else { throw .invalidModel("the model has no subgraph") }
        var builder = GraphBuilder()
        var tensors = try makeTensors(model: model, subgraph: subgraph, memoryLimit: options.memoryLimit)

        // Which tensors hold a value before or after each operator, to catch reads of never-written tensors.
        var written = Set(subgraph.inputs)
        for tensor in tensors where tensor.isConstant { written.insert(tensor.index) }
        for input in subgraph.inputs where tensors[input].isConstant {
            throw .invalidModel("graph input \(input) '\(tensors[input].name)' is a constant")
        }

        let fuses = options.kernelMode == .optimized && options.fusesElementwiseEpilogues
        let uses = fuses ? SubgraphUses(model: model, subgraph: subgraph, tensorCount: tensors.count) : nil
        let absorbablePads = uses.map { SpatialPadAbsorption.candidates(subgraph, uses: $0, tensors: tensors) } ?? [:]
        let broadcastPrefixes =
            uses.map { BroadcastPrefixFolding.candidates(subgraph, uses: $0, tensors: tensors) } ?? [:]

        for (operatorIndex, op) in subgraph.operators.enumerated() {
            guard op.opcodeIndex >= 0, op.opcodeIndex < model.operatorCodes.count else {
                throw .invalidModel("operator \(operatorIndex) has opcode index \(op.opcodeIndex)")
            }
            let code = model.operatorCodes[op.opcodeIndex]
            let firstInput = op.inputs.first.flatMap { $0 >= 0 && $0 < tensors.count ? tensors[$0].elementType : nil }
            guard let lowering = OperatorRegistry.lowering(for: code, inputType: firstInput) else {
                throw .unsupportedOperator(
                    operatorIndex: operatorIndex, name: code.builtin.name, customName: code.customName)
            }
            let operatorName = code.builtin == .custom ? code.customName ?? code.builtin.name : code.builtin.name
            // Zero-element tensors are refused here, for every operator alike, before any kernel is prepared.
            for input in op.inputs where input >= 0 {
                try refuseEmpty(tensors[input], operatorIndex: operatorIndex, name: operatorName)
            }
            for input in op.inputs where input >= 0 && !written.contains(input) {
                throw .invalidOperator(
                    operatorIndex: operatorIndex, name: code.builtin.name,
                    reason: "reads tensor \(input) '\(tensors[input].name)' before any operator writes it")
            }
            for output in op.outputs {
                guard output >= 0, !written.contains(output) else {
                    throw .invalidOperator(
                        operatorIndex: operatorIndex, name: code.builtin.name,
                        reason: "writes tensor \(output) that already holds a value")
                }
                written.insert(output)
            }

            var context = LoweringContext(
                operatorIndex: operatorIndex, builtin: code.builtin, op: op, options: options, pool: pool,
                tensors: tensors, customName: code.customName, absorbablePads: absorbablePads,
                broadcastPrefixes: broadcastPrefixes)
            let lowered = try lowering.lower(&context)
            tensors = context.tensors
            for output in op.outputs {
                try refuseEmpty(tensors[output], operatorIndex: operatorIndex, name: operatorName)
            }

            let allConstant = op.inputs.allSatisfy { $0 < 0 || tensors[$0].isConstant }
            if allConstant && !op.inputs.isEmpty {
                try builder.fold(lowered, tensors: &tensors)
            } else {
                builder.operators.append(lowered)
            }
        }

        for output in subgraph.outputs where !written.contains(output) {
            throw .invalidModel("graph output \(output) '\(tensors[output].name)' is never written")
        }
        if fuses {
            builder.operators = BroadcastPrefixFolding.droppingUnread(
                builder.operators, candidates: broadcastPrefixes, graphOutputs: Set(subgraph.outputs))
            builder.operators = ChannelLookupFusion.fuse(
                builder.operators, graphOutputs: Set(subgraph.outputs), pool: pool)
            builder.operators = SpatialPadAbsorption.droppingUnreadPads(builder.operators, absorbable: absorbablePads)
            builder.operators = EpilogueFuser.fuse(builder.operators, graphOutputs: Set(subgraph.outputs))
        }
        builder.inputs = try subgraph.inputs.map { index throws(InterpreterError) in try describe(tensors[index]) }
        builder.outputs = try subgraph.outputs.map { index throws(InterpreterError) in try describe(tensors[index]) }
        for tensor in tensors where tensor.isConstant {
            if let storage = tensor.constant { builder.constantPointers[tensor.index] = storage.pointer }
        }
        builder.constants.append(contentsOf: tensors.compactMap(\.constant))
        builder.planLifetimes(tensors: tensors, graphInputs: subgraph.inputs, graphOutputs: subgraph.outputs)
        return builder
    }

    /// Throws `.emptyTensor` when `tensor` has a dimension of 0.
    private static func refuseEmpty(
        _ tensor: GraphTensor, operatorIndex: Int, name: String
    ) throws(InterpreterError) {
        guard tensor.shape.contains(0) else { return }
        throw .emptyTensor(
            operatorIndex: operatorIndex, name: name, tensorIndex: tensor.index, tensorName: tensor.name,
            shape: TensorShape(tensor.shape))
    }

    /// Runs an operator whose inputs are all constant once, now, and makes its outputs constants.
    private mutating func fold(_ lowered: LoweredOperator, tensors: inout [GraphTensor]) throws(InterpreterError) {
        var storages: [Int: ConstantStorage] = [:]
        for output in lowered.outputs {
            let storage = ConstantStorage(byteCount: tensors[output].byteCount)
            storages[output] = storage
        }
        let scratch = ConstantStorage(byteCount: lowered.scratchBytes)
        let known = tensors
        let binder = TensorBinder(
            tensorPointer: { index in storages[index]?.pointer ?? known[index].constant?.pointer ?? scratch.pointer },
            scratch: scratch.pointer)
        lowered.bind(binder)()
        for (index, storage) in storages {
            tensors[index].constant = storage
        }
    }

    private mutating func planLifetimes(tensors: [GraphTensor], graphInputs: [Int], graphOutputs: [Int]) {
        var first: [Int: Int] = [:]
        var last: [Int: Int] = [:]
        for input in graphInputs {
            first[input] = -1
            last[input] = -1
        }
        for (position, op) in operators.enumerated() {
            for input in op.inputs { last[input] = max(last[input] ?? position, position) }
            for output in op.outputs {
                if first[output] == nil { first[output] = position }
                last[output] = max(last[output] ?? position, position)
            }
        }
        for output in graphOutputs where !tensors[output].isConstant { last[output] = Int.max }
        aliases = Self.placeInSharedSlots(operators, tensors: tensors, graphInputs: Set(graphInputs))
        // A shared slot lives as long as any tensor in it.
        for (tensor, placement) in aliases {
            let owner = placement.container
            if let start = first[tensor] { first[owner] = min(first[owner] ?? start, start) }
            if let end = last[tensor] { last[owner] = max(last[owner] ?? end, end) }
        }
        memoryRequests = first.keys.sorted().compactMap { tensor in
            guard !tensors[tensor].isConstant, aliases[tensor] == nil, let start = first[tensor],
                let end = last[tensor]
            else { return nil }
            return .init(tensor: tensor, byteCount: tensors[tensor].byteCount, firstUse: start, lastUse: end)
        }
    }

    /// Follows the operators' `slotSharing` in run order: a group of tensors in one slot (its owner holding the
    /// others at offsets) moves whole into another's where the offset and the size fit. Graph inputs keep a slot of
    /// their own (callers write them in place between runs), and so does a tensor met twice (an input concatenated
    /// twice is copied the second time). Returns every tensor placed in another's slot, with the owner at the top.
    private static func placeInSharedSlots(
        _ operators: [LoweredOperator], tensors: [GraphTensor], graphInputs: Set<Int>
    ) -> [Int: SlotSharing] {
        var container: [Int: (tensor: Int, byteOffset: Int)] = [:]
        func owner(_ tensor: Int) -> (tensor: Int, byteOffset: Int) {
            var (current, offset) = (tensor, 0)
            while let next = container[current] { (current, offset) = (next.tensor, offset + next.byteOffset) }
            return (current, offset)
        }
        for sharing in operators.flatMap(\.slotSharing) {
            guard !tensors[sharing.tensor].isConstant, !tensors[sharing.container].isConstant else { continue }
            let (moved, movedOffset) = owner(sharing.tensor)
            let (target, targetOffset) = owner(sharing.container)
            let offset = targetOffset + sharing.byteOffset - movedOffset
            guard moved != target, !graphInputs.contains(moved), !graphInputs.contains(target), offset >= 0,
                offset + tensors[moved].byteCount <= tensors[target].byteCount
            else { continue }
            container[moved] = (target, offset)
        }
        var placements: [Int: SlotSharing] = [:]
        for tensor in container.keys {
            let (root, offset) = owner(tensor)
            placements[tensor] = SlotSharing(tensor: tensor, container: root, byteOffset: offset)
        }
        return placements
    }

    private static func describe(_ tensor: GraphTensor) throws(InterpreterError) -> TensorDescription {
        var quantization: TensorDescription.Quantization?
        if let q = tensor.quantization, q.scales.count == 1, let zero = q.zeroPoints.first {
            quantization = .init(scale: q.scales[0], zeroPoint: Int(zero))
        }
        return TensorDescription(
            name: tensor.name, tensorIndex: tensor.index, shape: TensorShape(tensor.shape),
            elementType: tensor.elementType, quantization: quantization)
    }

    private static func makeTensors(
        model: TFLiteModel, subgraph: Subgraph, memoryLimit: Int
    ) throws(InterpreterError) -> [GraphTensor] {
        var result: [GraphTensor] = []
        result.reserveCapacity(subgraph.tensors.count)
        for (index, info) in subgraph.tensors.enumerated() {
            guard let type = info.type.elementType else {
                throw .unsupportedTensorType(
                    tensorIndex: index, tensorName: info.name, type: "\(info.type)", context: "in the main subgraph")
            }
            guard info.shape.count <= InterpreterLimits.maximumRank, info.shape.allSatisfy({ $0 >= 0 }) else {
                throw .invalidModel("tensor \(index) '\(info.name)' has unsupported shape \(info.shape)")
            }
            guard let count = TensorShape(info.shape).checkedElementCount,
                count <= memoryLimit / type.byteWidth
            else {
                throw .limitExceeded("tensor \(index) '\(info.name)' of shape \(info.shape)")
            }
            var constant: ConstantStorage?
            if let data = model.bufferData(info.bufferIndex), !data.isEmpty {
                if info.sparsity == nil && data.count != count * type.byteWidth {
                    throw .invalidModel(
                        "tensor \(index) '\(info.name)' of shape \(info.shape) and type \(type) has \(data.count) bytes of data"
                    )
                }
                constant = ConstantStorage(copying: data)
            }
            result.append(
                GraphTensor(
                    index: index, name: info.name, shape: info.shape, elementType: type, constant: constant,
                    quantization: info.quantization, sparsity: info.sparsity))
        }
        return result
    }
}
