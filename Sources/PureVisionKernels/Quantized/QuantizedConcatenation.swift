extension Quantized {
    /// CONCATENATION of byte-addressed tensors that share one quantization: along `axis`, each input contributes
    /// `innerBytes[i]` contiguous bytes per outer index.
    public static func concatenate(
        inputs: [UnsafeRawPointer], innerBytes: [Int], outerCount: Int, output: UnsafeMutableRawPointer
    ) {
        var offset = 0
        for outer in 0..<outerCount {
            for (input, bytes) in zip(inputs, innerBytes) {
                (output + offset).copyMemory(from: input + outer * bytes, byteCount: bytes)
                offset += bytes
            }
        }
    }
}
