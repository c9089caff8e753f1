import PureVisionKernels

/// An operator each of whose output elements depends only on the input element at the same position and on its
/// channel (the innermost index), described so that a chain of such operators from one 8-bit tensor to another can
/// run as a single table lookup per element (see ``ChannelLookupFusion``).
package struct ChannelwiseMap {
    /// The run-time tensor the operator reads (its only one) and the tensor it writes.
    package let input: Int
    package let output: Int
    /// Bytes per element read and written: 1 for int8 / uint8, 4 for float32.
    package let inputWidth: Int
    package let outputWidth: Int
    /// The innermost extent of the input (and output) shape.
    package let channels: Int
    /// Runs the operator's own kernel on `rows · channels` elements (`rows` rows of `channels`, channels innermost)
    /// from `input` to `output`, on the calling thread.
    package let apply: (_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, _ rows: Int) -> Void

    package init(
        input: Int, output: Int, inputWidth: Int, outputWidth: Int, channels: Int,
        apply: @escaping (_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, _ rows: Int) -> Void
    ) {
        self.input = input
        self.output = output
        self.inputWidth = inputWidth
        self.outputWidth = outputWidth
        self.channels = channels
        self.apply = apply
    }
}

/// Runs chains of channel-wise operators between two 8-bit tensors as one lookup per element, at load: a quantized
/// model whose converter left an operator in float (DEQUANTIZE → PRELU → QUANTIZE, as in an int8 palm detector) maps
/// each input byte of a channel to one output byte, so the chain is replaced by a ``QuantizedChannelLookupTable``
/// made by running the chain's own kernels on the 256 byte values of every channel: the lookup gives exactly what
/// the operators give, without the float tensors between them (4 bytes an element each, written and read once per
/// operator).
///
/// A chain starts at an operator reading an 8-bit tensor and ends at the first one writing an 8-bit tensor, with
/// at least two operators; each tensor inside it is read only by the next operator and is not a graph output. The
/// fused operator takes the place of the chain's last operator.
package enum ChannelLookupFusion {
    /// `operators` in run order, each chain replaced by one lookup operator that runs on `pool`.
    package static func fuse(
        _ operators: [LoweredOperator], graphOutputs: Set<Int>, pool: ThreadPool
    ) -> [LoweredOperator] {
        var readers: [Int: [Int]] = [:]
        for (position, op) in operators.enumerated() {
            for input in op.inputs { readers[input, default: []].append(position) }
        }
        var slots: [LoweredOperator?] = operators
        for start in operators.indices {
            guard let first = operators[start].channelwiseMap, first.inputWidth == 1, first.outputWidth != 1 else {
                continue
            }
            var chain = [start]
            var last = first
            while last.outputWidth != 1 {
                guard !graphOutputs.contains(last.output), let users = readers[last.output], users.count == 1,
                    let next = operators[users[0]].channelwiseMap, next.input == last.output,
                    next.channels == first.channels, next.inputWidth == last.outputWidth,
                    operators[users[0]].outputs == [next.output]
                else { break }
                chain.append(users[0])
                last = next
            }
            guard last.outputWidth == 1, chain.count >= 2 else { continue }
            let table = lookupTable(for: chain.compactMap { operators[$0].channelwiseMap })
            let (input, output) = (first.input, last.output)
            let end = chain[chain.count - 1]
            // Every operator of the chain keeps the shape: pixels are its elements over its channels.
            let pixelCount = (operators[end].outputShapes.first ?? []).reduce(1, *) / first.channels
            let fused = LoweredOperator(
                operatorIndex: operators[end].operatorIndex,
                name: chain.map { operators[$0].name }.joined(separator: "+"), inputs: [input],
                outputShapes: operators[end].outputShapes, outputs: [output], scratchBytes: 0
            ) { binder in
                let x = UnsafePointer(binder.raw(input).assumingMemoryBound(to: UInt8.self))
                let y = binder.raw(output).assumingMemoryBound(to: UInt8.self)
                return { table.run(input: x, output: y, pixels: pixelCount, pool: pool) }
            }
            for position in chain { slots[position] = nil }
            slots[end] = fused
        }
        return slots.compactMap { $0 }
    }

    /// The tables of a chain: its operators' kernels run in turn on 256 rows of `channels` elements, row `b` holding
    /// the byte `b` in every channel.
    static func lookupTable(for maps: [ChannelwiseMap]) -> QuantizedChannelLookupTable {
        let channels = maps[0].channels
        let rows = 256
        var current = QuantizedChannelLookupTable.byteRows(channels: channels)
        for map in maps {
            var next = [UInt8](repeating: 0, count: rows * channels * map.outputWidth)
            current.withUnsafeBytes { source in
                next.withUnsafeMutableBytes { target in
                    if let x = source.baseAddress, let y = target.baseAddress { map.apply(x, y, rows) }
                }
            }
            current = next
        }
        return QuantizedChannelLookupTable(channels: channels, rowsOfByteValues: current)
    }
}
