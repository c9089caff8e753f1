/// An aligned, immutable-after-load block of memory holding one constant tensor (weights, folded results).
///
/// Model buffers can sit at any byte offset of the file, so constants are copied into 64-byte aligned storage
/// before kernels read them as typed values.
final class ConstantStorage: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        pointer = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 64)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 1))
    }

    convenience init(copying bytes: ArraySlice<UInt8>) {
        self.init(byteCount: bytes.count)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { pointer.copyMemory(from: base, byteCount: bytes.count) }
        }
    }

    deinit { pointer.deallocate() }

    var floats: UnsafeMutablePointer<Float> { pointer.assumingMemoryBound(to: Float.self) }
}
