import PureVisionKernels

/// Folds element-wise operators into the convolution that produces their input, at load: CONV_2D or
/// DEPTHWISE_CONV_2D followed by the ADD of a residual, a PRELU, or a clamping activation (in any chain, at most one
/// ADD; a residual that is a PAD appending zero channels is read unpadded and the PAD dropped) becomes one operator that applies those steps to each output block while it is in cache.
///
/// A consumer is absorbed only when the tensor between the two has no other reader and is not a graph output; the
/// fused operator takes the place of the last operator it absorbed, so every tensor it reads is written by then. The
/// intermediate tensors are never materialised. Fused steps compute exactly what the separate operators compute.
package enum EpilogueFuser {
    /// `operators` in run order with absorbed consumers removed and their producers moved into their place.
    package static func fuse(_ operators: [LoweredOperator], graphOutputs: Set<Int>) -> [LoweredOperator] {
        var slots: [LoweredOperator?] = operators
        // Reader positions of every run-time tensor (an operator reading a tensor twice appears twice).
        var readers: [Int: [Int]] = [:]
        var writer: [Int: Int] = [:]
        for (position, op) in operators.enumerated() {
            for input in op.inputs { readers[input, default: []].append(position) }
            for output in op.outputs { writer[output] = position }
        }
        for start in slots.indices {
            guard var producer = slots[start], producer.epilogueFusion != nil else { continue }
            var position = start
            chain: while let fusion = producer.epilogueFusion, producer.outputs.count == 1 {
                let tensor = producer.outputs[0]
                guard !graphOutputs.contains(tensor), let users = readers[tensor], users.count == 1,
                    let consumer = slots[users[0]], let source = consumer.epilogueSource,
                    consumer.outputs.count == 1
                else { break chain }
                let step: OutputEpilogue.Step
                var residual = fusion.residual
                let consumerPosition = users[0]
                // A PAD appending zero channels to the residual, to be skipped: its position and input.
                var skippedPad: (position: Int, input: Int)?
                switch source {
                case .add(let lhs, let rhs, let clamp):
                    let other = lhs == tensor ? rhs : lhs
                    guard residual == nil, other != tensor, lhs == tensor || rhs == tensor else { break chain }
                    if let padPosition = writer[other], let pad = slots[padPosition],
                        let (padInput, channels) = pad.channelZeroPadding, channels < fusion.channels,
                        readers[other] == [consumerPosition], !graphOutputs.contains(other)
                    {
                        step = .addResidual(clamp: clamp, residualChannels: channels)
                        residual = padInput
                        skippedPad = (padPosition, padInput)
                    } else {
                        step = .addResidual(clamp: clamp)
                        residual = other
                    }
                case .prelu(let input, let alpha):
                    guard input == tensor, alpha.count == fusion.channels else { break chain }
                    step = .prelu(alpha: alpha)
                case .clamp(let input, let clamp):
                    guard input == tensor else { break chain }
                    step = .clamp(clamp)
                }
                var fused = fusion
                fused.epilogue = fusion.epilogue.appending(step)
                fused.residual = residual
                var merged = producer
                merged.name = producer.name + (skippedPad == nil ? "" : "+PAD") + "+" + consumer.name
                if case .addResidual = step, let residual { merged.inputs.append(residual) }
                merged.outputs = consumer.outputs
                merged.outputShapes = consumer.outputShapes
                merged.bind = fusion.makeBind(fused.epilogue, residual, consumer.outputs[0])
                merged.epilogueFusion = fused
                merged.epilogueSource = nil
                // The fused operator now reads at the consumer's position.
                for input in producer.inputs {
                    readers[input] = readers[input]?.map { $0 == position ? consumerPosition : $0 }
                }
                if let skippedPad {
                    readers[skippedPad.input] = readers[skippedPad.input]?.map {
                        $0 == skippedPad.position ? consumerPosition : $0
                    }
                    slots[skippedPad.position] = nil
                }
                slots[position] = nil
                slots[consumerPosition] = merged
                producer = merged
                position = consumerPosition
            }
        }
        return slots.compactMap { $0 }
    }
}
