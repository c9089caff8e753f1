import PureVisionKernels
import PureVisionTFLite

/// TRANSPOSE by a constant permutation; any element type.
enum TransposeOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 2...2)
        let input = try context.input(0)
        let rank = input.shape.count
        let permutation = try context.constantIntegers(try context.input(1), "permutation")
        guard permutation.count == rank, Set(permutation) == Set(0..<rank) else {
            throw context.failure("permutation \(permutation) is not a permutation of 0..<\(rank)")
        }
        try context.setOutput(0, shape: permutation.map { input.shape[$0] }, type: input.elementType)
        let (shape, width) = (input.shape, input.elementType.byteWidth)
        return context.loweredBytes(reading: input) { x, y in
            return {
                Transpose.run(input: x, inputShape: shape, permutation: permutation, elementByteWidth: width, output: y)
            }
        }
    }
}
