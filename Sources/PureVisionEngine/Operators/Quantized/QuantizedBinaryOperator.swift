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
        let (lhs, rhs, _, plan) = try context.broadcastOperands(
            quantized: true, roles: ("first input", "second input"))
        let type = lhs.elementType
        let (lhsScale, lhsZero) = try context.quantization(lhs, "first input")
        let (rhsScale, rhsZero) = try context.quantization(rhs, "second input")
        let (outScale, outZero) = try context.outputQuantization(type)
        let range = try context.quantizedRange(
            activation, output: context.output(0), scale: outScale, zeroPoint: outZero)
        let kernel = chooseKernel(
            context, lhs: lhs, rhs: rhs, quantizations: ((lhsScale, lhsZero), (rhsScale, rhsZero), (outScale, outZero)),
            range: range)
        let pool = context.pool
        func step<T: QuantizedElement>(
            _ a: UnsafePointer<T>, _ b: UnsafePointer<T>, _ y: UnsafeMutablePointer<T>
        ) -> ExecutionStep {
            switch kernel {
            case .multiply(let multiplier):
                return {
                    Quantized.multiply(
                        lhs: a, rhs: b, output: y, plan: plan, lhsZeroPoint: lhsZero, rhsZeroPoint: rhsZero,
                        outputZeroPoint: outZero, multiplier: multiplier, range: range)
                }
            case .xnnpack(let kernel): return { kernel.run(lhs: a, rhs: b, output: y, pool: pool) }
            case .table(let table): return { table.run(lhs: a, rhs: b, output: y, pool: pool) }
            case .add(let parameters, let subtract):
                return {
                    Quantized.add(lhs: a, rhs: b, output: y, plan: plan, parameters: parameters, subtract: subtract)
                }
            }
        }
        return context.loweredQuantized(reading: lhs, rhs, int8: step, uint8: step)
    }

    /// A tensor's per-tensor scale and zero point.
    typealias Quantization = (scale: Float, zeroPoint: Int32)

    /// The kernel an 8-bit ADD, SUB or MUL runs, chosen at load.
    enum Kernel {
        /// MUL: one multiplier of `scaleA · scaleB / scaleOut`.
        case multiply(QuantizedMultiplier)
        /// ADD of equal shapes with XNNPACK's arithmetic, optimized.
        case xnnpack(XNNPACKAddKernel)
        /// ADD or SUB of equal shapes, optimized, through a table of every pair of values.
        case table(QuantizedPairTable)
        /// ADD or SUB element by element (broadcasting, or the reference twin).
        case add(QuantizedAddParameters, subtract: Bool)
    }

    /// Picks the kernel for this ADD, SUB or MUL from the quantizations of its inputs and output.
    static func chooseKernel(
        _ context: LoweringContext, lhs: GraphTensor, rhs: GraphTensor,
        quantizations: (lhs: Quantization, rhs: Quantization, output: Quantization), range: QuantizedRange
    ) -> Kernel {
        let (l, r, o) = quantizations
        if context.builtin == .mul { return .multiply(QuantizedMultiplier(Double(l.scale * r.scale / o.scale))) }
        var parameters = QuantizedAddParameters(
            lhsScale: l.scale, lhsZeroPoint: l.zeroPoint, rhsScale: r.scale, rhsZeroPoint: r.zeroPoint,
            outputScale: o.scale, outputZeroPoint: o.zeroPoint, range: range)
        let subtract = context.builtin == .sub
        if context.options.quantizedArithmetic == .xnnpack, !subtract {
            parameters.xnnpack = XNNPACKAddTerms(
                lhsScale: l.scale, lhsZeroPoint: l.zeroPoint, rhsScale: r.scale, rhsZeroPoint: r.zeroPoint,
                outputScale: o.scale)
        }
        let count = context.output(0).elementCount
        let threadCount = context.pool.threadCount
        if !context.useReference, lhs.shape == rhs.shape, let terms = parameters.xnnpack,
            let kernel = XNNPACKAddKernel(
                count: count, terms: terms, zeroPoint: o.zeroPoint, range: range, threadCount: threadCount,
                generatesMachineCode: context.generatesMachineCode)
        {
            return .xnnpack(kernel)
        }
        if !context.useReference, lhs.shape == rhs.shape, QuantizedPairTable.pays(count: count) {
            return .table(
                lhs.elementType == .uint8
                    ? QuantizedPairTable(
                        UInt8.self, count: count, parameters: parameters, subtract: subtract, threadCount: threadCount)
                    : QuantizedPairTable(
                        Int8.self, count: count, parameters: parameters, subtract: subtract, threadCount: threadCount))
        }
        return .add(parameters, subtract: subtract)
    }
}
