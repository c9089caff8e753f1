/// Copies `count` elements of `elementByteWidth` bytes from `source`, reading every `sourceStride`-th element
/// (negative strides walk backwards), into contiguous `destination`.
@inline(__always)
func copyStridedElements(
    from source: UnsafeRawPointer, sourceStride: Int, to destination: UnsafeMutableRawPointer, count: Int,
    elementByteWidth: Int
) {
    if sourceStride == 1 {
        destination.copyMemory(from: source, byteCount: count * elementByteWidth)
        return
    }
    switch elementByteWidth {
    case 1: gather(UInt8.self, source, sourceStride, destination, count)
    case 2: gather(UInt16.self, source, sourceStride, destination, count)
    case 4: gather(UInt32.self, source, sourceStride, destination, count)
    case 8: gather(UInt64.self, source, sourceStride, destination, count)
    default:
        for i in 0..<count {
            (destination + i * elementByteWidth).copyMemory(
                from: source + i * sourceStride * elementByteWidth, byteCount: elementByteWidth)
        }
    }
}

@inline(__always)
private func gather<T>(
    _ type: T.Type, _ source: UnsafeRawPointer, _ stride: Int, _ destination: UnsafeMutableRawPointer, _ count: Int
) {
    let from = source.assumingMemoryBound(to: T.self)
    let to = destination.assumingMemoryBound(to: T.self)
    for i in 0..<count { to[i] = from[i * stride] }
}

/// Writes `count` copies of the `elementByteWidth`-byte element at `pattern` to `destination`.
func fillElements(
    _ destination: UnsafeMutableRawPointer, count: Int, pattern: UnsafeRawPointer, elementByteWidth: Int
) {
    guard count > 0 else { return }
    destination.copyMemory(from: pattern, byteCount: elementByteWidth)
    // Doubling: each copy duplicates everything written so far.
    var filled = 1
    while filled < count {
        let chunk = min(filled, count - filled)
        (destination + filled * elementByteWidth).copyMemory(
            from: UnsafeRawPointer(destination), byteCount: chunk * elementByteWidth)
        filled += chunk
    }
}

/// Row-major element strides of `shape`.
func contiguousStrides(_ shape: [Int]) -> [Int] {
    var strides = [Int](repeating: 1, count: shape.count)
    var running = 1
    for axis in stride(from: shape.count - 1, through: 0, by: -1) {
        strides[axis] = running
        running *= shape[axis]
    }
    return strides
}
