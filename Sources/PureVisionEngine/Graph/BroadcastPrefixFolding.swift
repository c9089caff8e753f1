import PureVisionTFLite

/// A CONCATENATION along channels whose leading inputs are each a one-pixel map resized to the full size (every
/// pixel then holds the same channels: DeepLab's image-pooling branch), and whose last input is an ordinary tensor.
struct BroadcastPrefix: Equatable {
    /// A leading input of the concatenation.
    struct Part: Equatable {
        /// The RESIZE_BILINEAR or RESIZE_NEAREST_NEIGHBOR output the concatenation reads.
        let resized: Int
        /// The resize's `[N, 1, 1, C]` input.
        let source: Int
        /// Whether the resize is bilinear (else nearest-neighbour).
        let bilinear: Bool
    }

    /// The leading inputs, in order.
    let parts: [Part]
    /// The concatenation's last input.
    let rest: Int
}

/// Lets a 1×1 convolution skip the leading, per-image-constant channels of the concatenation it reads.
///
/// Such a convolution starts every output at its bias, then takes one fused multiply-add per input channel in
/// order (the generated GEMM, XNNPACK's arithmetic). Over the constant channels that chain is the same at every pixel
/// of an image, so the fused operator runs it once per image (a one-row GEMM of the same code family, same order)
/// and starts each pixel's remaining chain, over the concatenation's last input read in place, from that value
/// (``Conv2DKernel``'s bias at run time): bit for bit the unfused result, with neither the resized maps nor the
/// concatenation written, and the constant channels' multiply-adds done once per image instead of once per pixel.
///
/// The constant channels are what the resize writes at every pixel: a nearest-neighbour copy, or the bilinear
/// blend of four equal corners, `v + (v − v) · α` twice, which is `v` for finite values (a negative zero becomes a
/// positive one) and NaN otherwise, whatever the weights α; the fused operator computes them with the resize
/// kernel's own formula.
enum BroadcastPrefixFolding {
    /// The concatenations of `subgraph` (whose writers and readers `uses` indexes) whose reading convolutions may fold
    /// their constant channels, by output tensor: a float CONCATENATION on the last axis of rank-4 tensors without
    /// activation, whose every input but the last is the output of a RESIZE_BILINEAR or RESIZE_NEAREST_NEIGHBOR of a
    /// one-pixel tensor, whose output is no graph output and is read only as the input of CONV_2D operators. The
    /// shapes are checked again when the convolution is lowered, on the inferred shapes.
    static func candidates(
        _ subgraph: Subgraph, uses: SubgraphUses, tensors: [GraphTensor]
    ) -> [Int: BroadcastPrefix] {
        let (builtin, valid) = (uses.builtin, uses.isValid)
        func broadcastPart(_ tensor: Int) -> BroadcastPrefix.Part? {
            guard let resize = uses.writers[tensor], let kind = builtin(resize),
                kind == .resizeBilinear || kind == .resizeNearestNeighbor, resize.outputs == [tensor],
                let source = resize.inputs.first, valid(source)
            else { return nil }
            let shape = tensors[source].shape
            guard tensors[source].elementType == .float32, shape.count == 4, shape[1] == 1, shape[2] == 1 else {
                return nil
            }
            return BroadcastPrefix.Part(resized: tensor, source: source, bilinear: kind == .resizeBilinear)
        }
        var result: [Int: BroadcastPrefix] = [:]
        for op in subgraph.operators {
            guard builtin(op) == .concatenation, op.outputs.count == 1, valid(op.outputs[0]), op.inputs.count >= 2,
                op.inputs.allSatisfy(valid), case .concatenation(let axis, let activation) = op.options,
                axis == 3 || axis == -1, activation == .none
            else { continue }
            let output = op.outputs[0]
            guard tensors[output].elementType == .float32, uses.isReadOnlyAsInput0(output, by: [.conv2D]) else {
                continue
            }
            let leading = op.inputs.dropLast().map(broadcastPart)
            guard let rest = op.inputs.last, broadcastPart(rest) == nil, !leading.contains(nil) else { continue }
            result[output] = BroadcastPrefix(parts: leading.compactMap { $0 }, rest: rest)
        }
        return result
    }

    /// `operators` without the candidates' CONCATENATIONs and resizes whose outputs no operator reads any more (the
    /// convolutions that folded them read their sources instead); graph outputs are kept.
    static func droppingUnread(
        _ operators: [LoweredOperator], candidates: [Int: BroadcastPrefix], graphOutputs: Set<Int>
    ) -> [LoweredOperator] {
        guard !candidates.isEmpty else { return operators }
        var droppable = Set(candidates.keys)
        for prefix in candidates.values { droppable.formUnion(prefix.parts.map(\.resized)) }
        var result = operators
        // A concatenation first, then the resizes it alone read.
        for _ in 0..<2 {
            let read = Set(result.flatMap(\.inputs))
            result.removeAll { op in
                !op.outputs.isEmpty
                    && op.outputs.allSatisfy {
                        droppable.contains($0) && !read.contains($0) && !graphOutputs.contains($0)
                    }
            }
        }
        return result
    }
}
