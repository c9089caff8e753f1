import PureVisionKernels
import PureVisionTFLite

/// ADD, SUB and MUL on 8-bit tensors (both inputs and the output of one type, NumPy broadcasting): TFLite's
/// integer schemes (ADD / SUB: 20-bit left shift and per-input multipliers; MUL: one multiplier of
/// `scaleA · scaleB / scaleOut`), fused activations as clamps.
enum QuantizedBinaryOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        let activation: FusedActivation
        switch context.builtinOptions(context.builtin) {
        case .add(let a), .sub(let a), .mul(let a): activation = a
        default: throw context.failure("not ADD, SUB or MUL")
        }
        let lhs = try context.input(0)
        let rhs = try context.input(1)
        let type = lhs.elementType
        try context.expectType(rhs, type, "second input")
        guard let shape = BinaryOperator.broadcastShape(lhs.shape, rhs.shape) else {
            throw context.failure("shapes \(lhs.shape) and \(rhs.shape) do not broadcast")
        }
        try context.setOutput(0, shape: shape, type: type)
        let (lhsScale, lhsZero) = try context.quantization(lhs, "first input")
        let (rhsScale, rhsZero) = try context.quantization(rhs, "second input")
        let (outScale, outZero) = try context.outputQuantization(type)
        let range = try context.quantizedRange(
            activation, output: context.output(0), scale: outScale, zeroPoint: outZero)
        let plan = BroadcastPlan(lhsShape: lhs.shape, rhsShape: rhs.shape, outputShape: shape)
        let output = context.output(0)
        let ctx = context
        if context.builtin == .mul {
            let multiplier = QuantizedMultiplier(Double(lhsScale * rhsScale / outScale))
            return context.lowered(reading: [lhs, rhs]) { binder in
                let a = ctx.pointer(lhs, binder)
                let b = ctx.pointer(rhs, binder)
                let y = binder.raw(output.index)
                func step<T: QuantizedElement>(_: T.Type) -> ExecutionStep {
                    let (a, b, y) = (
                        a.assumingMemoryBound(to: T.self), b.assumingMemoryBound(to: T.self),
                        y.assumingMemoryBound(to: T.self)
                    )
                    return {
                        Quantized.multiply(
                            lhs: a, rhs: b, output: y, plan: plan, lhsZeroPoint: lhsZero, rhsZeroPoint: rhsZero,
                            outputZeroPoint: outZero, multiplier: multiplier, range: range)
                    }
                }
                return type == .uint8 ? step(UInt8.self) : step(Int8.self)
            }
        }
        var parameters = QuantizedAddParameters(
            lhsScale: lhsScale, lhsZeroPoint: lhsZero, rhsScale: rhsScale, rhsZeroPoint: rhsZero, outputScale: outScale,
            outputZeroPoint: outZero, range: range)
        let subtract = context.builtin == .sub
        if context.options.quantizedArithmetic == .xnnpack, !subtract {
            parameters.xnnpack = XNNPACKAddTerms(
                lhsScale: lhsScale, lhsZeroPoint: lhsZero, rhsScale: rhsScale, rhsZeroPoint: rhsZero,
                outputScale: outScale)
        }
        let count = context.output(0).elementCount
        if !context.useReference, lhs.shape == rhs.shape, let terms = parameters.xnnpack,
            let kernel = XNNPACKAddKernel(
                count: count, terms: terms, zeroPoint: outZero, range: range, threadCount: context.pool.threadCount,
                generatesMachineCode: context.generatesMachineCode)
        {
            let pool = context.pool
            return context.lowered(reading: [lhs, rhs]) { binder in
                let (a, b, y) = (ctx.pointer(lhs, binder), ctx.pointer(rhs, binder), binder.raw(output.index))
                func step<T: QuantizedElement>(_: T.Type) -> ExecutionStep {
                    let (a, b, y) = (
                        a.assumingMemoryBound(to: T.self), b.assumingMemoryBound(to: T.self),
                        y.assumingMemoryBound(to: T.self)
                    )
                    return { kernel.run(lhs: a, rhs: b, output: y, pool: pool) }
                }
                return type == .uint8 ? step(UInt8.self) : step(Int8.self)
            }
        }
        if !context.useReference, lhs.shape == rhs.shape, QuantizedPairTable.pays(count: count) {
            let table =
                type == .uint8
                ? QuantizedPairTable(
                    UInt8.self, count: count, parameters: parameters, subtract: subtract,
                    threadCount: context.pool.threadCount)
                : QuantizedPairTable(
                    Int8.self, count: count, parameters: parameters, subtract: subtract,
                    threadCount: context.pool.threadCount)
            let pool = context.pool
            return context.lowered(reading: [lhs, rhs]) { binder in
                let (a, b, y) = (ctx.pointer(lhs, binder), ctx.pointer(rhs, binder), binder.raw(output.index))
                if type == .uint8 {
                    let (a, b, y) = (
                        a.assumingMemoryBound(to: UInt8.self), b.assumingMemoryBound(to: UInt8.self),
                        y.assumingMemoryBound(to: UInt8.self)
                    )
                    return { table.run(lhs: a, rhs: b, output: y, pool: pool) }
                }
                let (a8, b8, y8) = (
                    a.assumingMemoryBound(to: Int8.self), b.assumingMemoryBound(to: Int8.self),
                    y.assumingMemoryBound(to: Int8.self)
                )
                return { table.run(lhs: a8, rhs: b8, output: y8, pool: pool) }
            }
        }
        return context.lowered(reading: [lhs, rhs]) { binder in
            let a = ctx.pointer(lhs, binder)
            let b = ctx.pointer(rhs, binder)
            let y = binder.raw(output.index)
            func step<T: QuantizedElement>(_: T.Type) -> ExecutionStep {
                let (a, b, y) = (
                    a.assumingMemoryBound(to: T.self), b.assumingMemoryBound(to: T.self),
                    y.assumingMemoryBound(to: T.self)
                )
                return {
                    Quantized.add(lhs: a, rhs: b, output: y, plan: plan, parameters: parameters, subtract: subtract)
                }
            }
            return type == .uint8 ? step(UInt8.self) : step(Int8.self)
        }
    }
}
