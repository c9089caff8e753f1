import PureVisionTFLite

/// Zeros a PAD puts around the rows and columns of an NHWC tensor, and the tensor it pads.
struct SpatialZeroPadding: Equatable {
    /// The PAD's input.
    let source: Int
    let top: Int
    let bottom: Int
    let left: Int
    let right: Int
}

/// Lets convolutions pad their own input: a float PAD (or PADV2 with value 0) that only adds zero rows and columns
/// to an NHWC tensor, and whose every reader is a CONV_2D or DEPTHWISE_CONV_2D taking it as its input, need not
/// run. Each such convolution with VALID padding reads the PAD's input instead, with the PAD's zeros as its own
/// explicit padding (`LoweringContext.absorbedPadding`); the kernels treat taps outside the input as zeros, which is
/// what the PAD would have stored, so the sums are the same (up to the sign of an exact zero). A PAD whose readers
/// all did so is then dropped (`droppingUnreadPads`). XNNPACK folds these PADs the same way.
enum SpatialPadAbsorption {
    /// The PADs of `subgraph` (whose writers and readers `uses` indexes) that may be absorbed, by output tensor.
    static func candidates(
        _ subgraph: Subgraph, uses: SubgraphUses, tensors: [GraphTensor]
    ) -> [Int: SpatialZeroPadding] {
        let (builtin, valid) = (uses.builtin, uses.isValid)
        var result: [Int: SpatialZeroPadding] = [:]
        for op in subgraph.operators {
            guard let kind = builtin(op), kind == .pad || kind == .padv2, op.outputs.count == 1,
                op.inputs.count == (kind == .pad ? 2 : 3), op.inputs.allSatisfy(valid), valid(op.outputs[0])
            else { continue }
            let (source, output) = (tensors[op.inputs[0]], op.outputs[0])
            guard source.elementType == .float32, !source.isConstant, source.shape.count == 4,
                let paddings = tensors[op.inputs[1]].constantIntegers, paddings.count == 8,
                paddings[0] == 0, paddings[1] == 0, paddings[6] == 0, paddings[7] == 0,
                paddings[2...5].allSatisfy({ $0 >= 0 && $0 <= 1 << 24 })
            else { continue }
            if kind == .padv2 {
                let value = tensors[op.inputs[2]]
                guard value.elementType == .float32, value.elementCount == 1,
                    let storage = value.constant, storage.floats[0] == 0
                else { continue }
            }
            guard uses.isReadOnlyAsInput0(output, by: [.conv2D, .depthwiseConv2D]) else { continue }
            result[output] = SpatialZeroPadding(
                source: source.index, top: paddings[2], bottom: paddings[3], left: paddings[4], right: paddings[5])
        }
        return result
    }

    /// `operators` without the absorbable PADs whose output no operator reads any more.
    static func droppingUnreadPads(
        _ operators: [LoweredOperator], absorbable: [Int: SpatialZeroPadding]
    ) -> [LoweredOperator] {
        let read = Set(operators.flatMap(\.inputs))
        return operators.filter { op in
            !(op.outputs.count == 1 && absorbable[op.outputs[0]] != nil && !read.contains(op.outputs[0]))
        }
    }
}

extension LoweringContext {
    /// When `input` (the convolution's input 0) is an absorbable PAD's output and the convolution has VALID padding
    /// with a kernel reaching past every added zero (`padding ≤ effective kernel − 1` on each side): the PAD's input
    /// and its zeros, which the convolution then applies as explicit padding.
    func absorbedPadding(
        of input: GraphTensor, padding: Padding, kernel: (height: Int, width: Int), dilation: (height: Int, width: Int)
    ) -> (source: GraphTensor, padding: SpatialZeroPadding)? {
        guard padding == .valid, let pad = absorbablePads[input.index] else { return nil }
        let reach = ((kernel.height - 1) * dilation.height, (kernel.width - 1) * dilation.width)
        guard pad.top <= reach.0, pad.bottom <= reach.0, pad.left <= reach.1, pad.right <= reach.1 else { return nil }
        let source = tensors[pad.source]
        guard source.shape.count == 4, input.shape.count == 4,
            source.shape[1] + pad.top + pad.bottom == input.shape[1],
            source.shape[2] + pad.left + pad.right == input.shape[2]
        else { return nil }
        return (source, pad)
    }
}
