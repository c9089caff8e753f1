import PureVisionKernels

/// An operator each of whose output elements depends only on the input element at the same position and on its
/// channel (the innermost index), described so that a chain of such operators from an 8-bit tensor to an 8-bit or
/// float32 one can run as a single table lookup per element (see ``ChannelLookupFusion``).
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
/// A chain that ends in float32 instead (an 8-bit LOGISTIC then DEQUANTIZE, as on an int8 EfficientDet's 1.7 M class
/// scores) becomes a ``QuantizedFloatLookupTable`` the same way: one pass writing the floats instead of one per
/// operator.
///
/// A chain starts at an operator reading an 8-bit tensor and takes the operators that follow it, one reader at a
/// time, up to the first one after the start that writes an 8-bit tensor, or up to the last it can take when that
/// one writes float32; it has at least two operators, and each tensor inside it is read only by the next operator
/// and is not a graph output. The fused operator takes the place of the chain's last operator. A float table that
/// differs per channel is made only for at most ``maximumFloatTableChannels`` channels, so that it stays in cache.
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
            guard slots[start] != nil, let first = operators[start].channelwiseMap, first.inputWidth == 1 else {
                continue
            }
            var chain = [start]
            var last = first
            while chain.count == 1 || last.outputWidth != 1 {
                guard !graphOutputs.contains(last.output), let users = readers[last.output], users.count == 1,
                    let next = operators[users[0]].channelwiseMap, next.input == last.output,
                    next.channels == first.channels, next.inputWidth == last.outputWidth,
                    operators[users[0]].outputs == [next.output]
                else { break }
                chain.append(users[0])
                last = next
            }
            guard chain.count >= 2, last.outputWidth == 1 || last.outputWidth == 4 else { continue }
            let maps = chain.compactMap { operators[$0].channelwiseMap }
            let end = chain[chain.count - 1]
            let (input, output) = (first.input, last.output)
            // Every operator of the chain keeps the shape: pixels are its elements over its channels.
            let pixelCount = (operators[end].outputShapes.first ?? []).reduce(1, *) / first.channels
            let step: (TensorBinder) -> ExecutionStep
            if last.outputWidth == 1 {
                let table = QuantizedChannelLookupTable(channels: first.channels, rowsOfByteValues: tableRows(maps))
                step = { binder in
                    let x = UnsafePointer(binder.raw(input).assumingMemoryBound(to: UInt8.self))
                    let y = binder.raw(output).assumingMemoryBound(to: UInt8.self)
                    return { table.run(input: x, output: y, pixels: pixelCount, pool: pool) }
                }
            } else {
                let floats = tableRows(maps).withUnsafeBytes { raw in
                    (0..<raw.count / 4).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) }
                }
                let table = QuantizedFloatLookupTable(channels: first.channels, rowsOfByteValues: floats)
                guard table.isUniform || first.channels <= maximumFloatTableChannels else { continue }
                step = { binder in
                    let x = UnsafePointer(binder.raw(input).assumingMemoryBound(to: UInt8.self))
                    let y = binder.floats(output)
                    return { table.run(input: x, output: y, pixels: pixelCount, pool: pool) }
                }
            }
            let fused = LoweredOperator(
                operatorIndex: operators[end].operatorIndex,
                name: chain.map { operators[$0].name }.joined(separator: "+"), inputs: [input],
                outputShapes: operators[end].outputShapes, outputs: [output], scratchBytes: 0, bind: step)
            for position in chain { slots[position] = nil }
            slots[end] = fused
        }
        return slots.compactMap { $0 }
    }

    /// Channels up to which a chain ending in float32 whose tables differ per channel still runs as a lookup: 64
    /// tables of 256 floats, 64 KiB.
    static let maximumFloatTableChannels = 64

    /// The tables of a chain, laid out `[byte][channel]` in the last operator's output type: its operators' kernels
    /// run in turn on 256 rows of `channels` elements, row `b` holding the byte `b` in every channel.
    static func tableRows(_ maps: [ChannelwiseMap]) -> [UInt8] {
        let rows = 256
        var current = QuantizedChannelLookupTable.byteRows(channels: maps[0].channels)
        for map in maps {
            var next = [UInt8](repeating: 0, count: rows * map.channels * map.outputWidth)
            current.withUnsafeBytes { source in
                next.withUnsafeMutableBytes { target in
                    if let x = source.baseAddress, let y = target.baseAddress { map.apply(x, y, rows) }
                }
            }
            current = next
        }
        return current
    }
}
