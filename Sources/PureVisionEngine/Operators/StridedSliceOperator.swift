import PureVisionKernels
import PureVisionTFLite

/// STRIDED_SLICE with constant begin / end / strides and TensorFlow's masks: begin and end masks, ellipsis,
/// new axes, shrinking axes, and TFLite's `offset` (end is relative to begin). Any element type.
enum StridedSliceOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 4...4)
        guard case .stridedSlice(let options) = context.builtinOptions(.stridedSlice) else {
            throw context.failure("options are not StridedSliceOptions")
        }
        let input = try context.input(0)
        let begin = try context.constantIntegers(try context.input(1), "begin")
        let end = try context.constantIntegers(try context.input(2), "end")
        let strides = try context.constantIntegers(try context.input(3), "strides")
        guard begin.count == end.count, end.count == strides.count, begin.count <= 32 else {
            throw context.failure("begin, end and strides have \(begin.count), \(end.count), \(strides.count) values")
        }
        let plan = try resolve(
            inputShape: input.shape, begin: begin, end: end, strides: strides, options: options, context)
        try context.setOutput(0, shape: plan.outputShape, type: input.elementType)
        let (shape, width) = (input.shape, input.elementType.byteWidth)
        return context.loweredBytes(reading: input) { x, y in
            return {
                StridedSlice.run(
                    input: x, inputShape: shape, elementByteWidth: width, begin: plan.begin, strides: plan.strides,
                    outputShape: plan.sliceShape, output: y)
            }
        }
    }

    /// Per input dimension: first index, step and count; and the output shape after new / shrunk axes.
    struct Plan {
        var begin: [Int]
        var strides: [Int]
        var sliceShape: [Int]
        var outputShape: [Int]
    }

    static func resolve(
        inputShape: [Int], begin: [Int], end: [Int], strides: [Int], options: StridedSliceOptions,
        _ context: LoweringContext
    ) throws(InterpreterError) -> Plan {
        let rank = inputShape.count
        let sparseCount = begin.count
        func bit(_ mask: Int32, _ i: Int) -> Bool { (mask >> Int32(i)) & 1 == 1 }

        // Expand the sparse specification (with ellipsis and new axes) to one entry per input dimension.
        struct DenseEntry {
            var begin = 0
            var end = 0
            var stride = 1
            var beginMasked = true
            var endMasked = true
            var shrink = false
        }
        var dense = [DenseEntry](repeating: DenseEntry(), count: rank)
        enum OutputAxis {
            case input(Int)
            case newAxis
        }
        var outputAxes: [OutputAxis] = []
        let hasEllipsis = (0..<sparseCount).contains { bit(options.ellipsisMask, $0) }
        var newAxesAfterEllipsis = 0
        if let ellipsis = (0..<sparseCount).first(where: { bit(options.ellipsisMask, $0) }) {
            newAxesAfterEllipsis = ((ellipsis + 1)..<sparseCount).filter { bit(options.newAxisMask, $0) }.count
        }
        var full = 0
        for i in 0..<sparseCount {
            if bit(options.ellipsisMask, i) {
                let next = min(rank - (sparseCount - i) + 1 + newAxesAfterEllipsis, rank)
                while full < next {
                    outputAxes.append(.input(full))
                    full += 1
                }
            } else if bit(options.newAxisMask, i) {
                outputAxes.append(.newAxis)
            } else {
                guard full < rank else { throw context.failure("the slice has more dimensions than the input") }
                dense[full] = DenseEntry(
                    begin: begin[i], end: end[i], stride: strides[i], beginMasked: bit(options.beginMask, i),
                    endMasked: bit(options.endMask, i), shrink: bit(options.shrinkAxisMask, i))
                if !dense[full].shrink { outputAxes.append(.input(full)) }
                full += 1
            }
        }
        if !hasEllipsis {
            while full < rank {
                outputAxes.append(.input(full))
                full += 1
            }
        }

        var plan = Plan(begin: [], strides: [], sliceShape: [], outputShape: [])
        for axis in 0..<rank {
            let entry = dense[axis]
            let extent = inputShape[axis]
            let stride = entry.stride
            guard stride != 0 else { throw context.failure("stride 0 on axis \(axis)") }
            var first: Int
            var count: Int
            if entry.shrink {
                first = entry.begin < 0 ? entry.begin + extent : entry.begin
                guard first >= 0, first < extent else {
                    throw context.failure("index \(entry.begin) out of range for axis \(axis) of extent \(extent)")
                }
                count = 1
            } else {
                let (low, high) = stride > 0 ? (0, extent) : (-1, extent - 1)
                if entry.beginMasked {
                    first = stride > 0 ? 0 : extent - 1
                } else {
                    first = min(max(entry.begin < 0 ? entry.begin + extent : entry.begin, low), high)
                }
                var last: Int
                if entry.endMasked {
                    last = stride > 0 ? extent : -1
                } else {
                    var e = options.offset ? entry.begin + entry.end : entry.end
                    if e < 0 { e += extent }
                    last = min(max(e, low), high)
                }
                let span = stride > 0 ? last - first : first - last
                let step = abs(stride)
                count = span > 0 ? (span + step - 1) / step : 0
                if count == 0 { first = 0 }
            }
            plan.begin.append(first)
            plan.strides.append(stride)
            plan.sliceShape.append(count)
        }
        plan.outputShape = outputAxes.map { axis in
            switch axis {
            case .input(let i): plan.sliceShape[i]
            case .newAxis: 1
            }
        }
        return plan
    }
}
