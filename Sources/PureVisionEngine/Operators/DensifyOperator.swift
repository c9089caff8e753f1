import PureVisionKernels
import PureVisionTFLite

/// DENSIFY: expands a constant sparse tensor (TFLite sparsity: traversal order, block map, dense / CSR dimensions)
/// into its dense form. The input is always a constant, so this runs once, at load.
enum DensifyOperator: OperatorLowering {
    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 1...1)
        let input = try context.input(0)
        guard let storage = input.constant, let sparsity = input.sparsity else {
            throw context.failure("input '\(input.name)' must be a constant sparse tensor")
        }
        let format = SparseFormat(
            traversalOrder: sparsity.traversalOrder, blockMap: sparsity.blockMap,
            dimensions: sparsity.dimensionMetadata.map { metadata in
                switch metadata {
                case .dense(let size): .dense(size: size)
                case .sparseCSR(let segments, let indices): .sparseCSR(segments: segments, indices: indices)
                }
            })
        let width = input.elementType.byteWidth
        let valueCount = storage.byteCount / width
        let shape = input.shape
        // Validate now, with the real data, so a malformed format is a load error and never a bad read.
        let probe = ConstantStorage(byteCount: input.byteCount)
        do {
            try Densify.run(
                format: format, values: storage.pointer, valueCount: valueCount, elementByteWidth: width,
                denseShape: shape, output: probe.pointer)
        } catch {
            throw context.failure("sparse tensor '\(input.name)': \(error)")
        }
        try context.setOutput(0, shape: shape, type: input.elementType)
        let output = context.output(0)
        let bytes = input.byteCount
        return context.lowered(reading: [input]) { binder in
            let y = binder.raw(output.index)
            return { y.copyMemory(from: probe.pointer, byteCount: bytes) }
        }
    }
}
