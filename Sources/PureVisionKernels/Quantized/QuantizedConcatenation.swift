extension Quantized {
    /// CONCATENATION of byte-addressed tensors that share one quantization: along `axis`, each input contributes
    /// `innerBytes[i]` contiguous bytes per outer index. An input that already lies where it belongs in `output` (a
    /// memory plan put it there) is not copied.
    public static func concatenate(
        inputs: [UnsafeRawPointer], innerBytes: [Int], outerCount: Int, output: UnsafeMutableRawPointer
    ) {
        var offset = 0
        for outer in 0..<outerCount {
            for (input, bytes) in zip(inputs, innerBytes) {
                let source = input + outer * bytes
                if source != UnsafeRawPointer(output + offset) {
                    (output + offset).copyMemory(from: source, byteCount: bytes)
                }
                offset += bytes
            }
        }
    }
}
