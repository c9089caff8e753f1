import PureVisionKernels
import PureVisionTFLite

/// ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE on float32 with NumPy broadcasting and, for the
/// arithmetic ones, a fused activation.
enum BinaryOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        let operation: BinaryOperation
        var activation: FusedActivation = .none
        switch context.builtinOptions(context.builtin) {
        case .add(let a): (operation, activation) = (.add, a)
        case .sub(let a): (operation, activation) = (.sub, a)
        case .mul(let a): (operation, activation) = (.mul, a)
        case .div(let a): (operation, activation) = (.div, a)
        default:
            switch context.builtin {
            case .add: operation = .add
            case .sub: operation = .sub
            case .mul: operation = .mul
            case .div: operation = .div
            case .maximum: operation = .maximum
            case .minimum: operation = .minimum
            case .squaredDifference: operation = .squaredDifference
            default: throw context.failure("not a binary operator")
            }
        }
        let clamp = try context.clamp(activation)
        let (lhs, rhs, shape, plan) = try context.broadcastOperands(
            quantized: false, roles: ("first input", "second input"))
        let (lhsShape, rhsShape) = (lhs.shape, rhs.shape)
        let reference = context.useReference
        let pool = context.pool
        var lowered = context.loweredFloat(reading: lhs, rhs) { a, b, y in
            if reference {
                return {
                    Reference.binary(
                        operation, lhs: a, lhsShape: lhsShape, rhs: b, rhsShape: rhsShape, output: y,
                        outputShape: shape, clamp: clamp)
                }
            }
            return { BinaryElementwise.run(operation, lhs: a, rhs: b, output: y, plan: plan, clamp: clamp, pool: pool) }
        }
        if operation == .add, lhsShape == shape, rhsShape == shape, !lhs.isConstant, !rhs.isConstant {
            lowered.epilogueSource = .add(lhs: lhs.index, rhs: rhs.index, clamp: clamp)
        }
        return lowered
    }

    /// NumPy broadcasting: shapes aligned on the right, each pair of extents equal or one of them 1.
    static func broadcastShape(_ a: [Int], _ b: [Int]) -> [Int]? {
        let rank = max(a.count, b.count)
        var result = [Int](repeating: 1, count: rank)
        for i in 0..<rank {
            let x = i < rank - a.count ? 1 : a[i - (rank - a.count)]
            let y = i < rank - b.count ? 1 : b[i - (rank - b.count)]
            guard x == y || x == 1 || y == 1 else { return nil }
            result[i] = x == 1 ? y : x
        }
        return result
    }
}
