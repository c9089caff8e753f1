import PureVisionTFLite

extension LoweringContext {
    /// The operands of this RESIZE_BILINEAR (inputs `[input, size]`): the rank-4 NHWC input, float32 unless
    /// `quantized`; the options' coordinate rules; and the constant integer size as stored (each lowering checks
    /// its values).
    func resizeBilinearOperands(
        quantized: Bool
    ) throws(InterpreterError) -> (input: GraphTensor, alignCorners: Bool, halfPixelCenters: Bool, size: [Int]) {
        try expectArity(inputs: 2...2)
        guard case .resizeBilinear(let alignCorners, let halfPixelCenters) = builtinOptions(.resizeBilinear) else {
            throw failure("options are not ResizeBilinearOptions")
        }
        let input = try input(0)
        if !quantized { try expectFloat(input, "input") }
        try expectRank(input, 4, "input")
        return (input, alignCorners, halfPixelCenters, try constantIntegers(try self.input(1), "size"))
    }
}
