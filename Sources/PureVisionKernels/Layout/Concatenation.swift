/// CONCATENATION: joins float32 tensors along one axis, with a fused output clamp.
///
/// Every input has the same rank and the same extent as the others in every dimension except `axis`; the output's
/// extent along `axis` is the sum of the inputs'. All tensors are row-major and contiguous.
public enum Concatenation {
    /// Writes the inputs one after another along `axis` (0 ≤ axis < rank) into `output`, clamping each element. An
    /// input that already lies where it belongs in `output` (a memory plan put it there) is not copied.
    public static func run(
        inputs: [UnsafePointer<Float>], inputShapes: [[Int]], axis: Int, output: UnsafeMutablePointer<Float>,
        clamp: ClampRange
    ) {
        precondition(inputs.count == inputShapes.count && !inputs.isEmpty, "one shape per input, at least one input")
        let rank = inputShapes[0].count
        precondition(axis >= 0 && axis < rank, "axis \(axis) out of range for rank \(rank)")
        let outerCount = inputShapes[0][..<axis].reduce(1, *)
        let innerCount = inputShapes[0][(axis + 1)...].reduce(1, *)
        for shape in inputShapes {
            precondition(
                shape.count == rank && shape[..<axis].reduce(1, *) == outerCount
                    && shape[(axis + 1)...].reduce(1, *) == innerCount,
                "inputs \(inputShapes) disagree outside axis \(axis)")
        }
        var rowLength = 0
        for shape in inputShapes { rowLength += shape[axis] * innerCount }
        let lower = clamp.lower
        let upper = clamp.upper
        let identity = clamp.isIdentity
        for outer in 0..<outerCount {
            var destination = output + outer * rowLength
            for (input, shape) in zip(inputs, inputShapes) {
                let chunk = shape[axis] * innerCount
                let source = input + outer * chunk
                if identity {
                    // An input the memory plan placed inside the output is already where it belongs.
                    if source != UnsafePointer(destination) { destination.update(from: source, count: chunk) }
                } else {
                    for i in 0..<chunk { destination[i] = min(max(source[i], lower), upper) }
                }
                destination += chunk
            }
        }
    }
}
