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

/// Steps the row-major multi-index `index` over the extents `shape[0 ... lastAxis]` to its successor and moves
/// `offset` along `strides` with it. Stepping past the last index wraps every coordinate back to 0 and the offset
/// back to where it started; with `lastAxis < 0` nothing moves.
@inline(__always)
func advanceRowMajorIndex(
    _ index: UnsafeMutablePointer<Int>, shape: UnsafePointer<Int>, strides: UnsafePointer<Int>, lastAxis: Int,
    offset: inout Int
) {
    var axis = lastAxis
    while axis >= 0 {
        index[axis] += 1
        offset += strides[axis]
        if index[axis] < shape[axis] { break }
        offset -= strides[axis] * index[axis]
        index[axis] = 0
        axis -= 1
    }
}

/// Copies a strided view of `source` into contiguous `destination` in row-major order: the element at multi-index
/// `j` over `shape[0 ..< rank]` is the one `offset + Σ j[a] · strides[a]` elements into `source` (strides may be
/// negative); a rank-0 view is the one element at `offset`. Every element of the view must lie inside `source`.
/// The innermost dimension is copied a row at a time.
func copyStridedView(
    from source: UnsafeRawPointer, offset: Int, shape: UnsafePointer<Int>, strides: UnsafePointer<Int>, rank: Int,
    to destination: UnsafeMutableRawPointer, elementByteWidth: Int
) {
    let outerRank = max(0, rank - 1)
    let innerCount = rank > 0 ? shape[outerRank] : 1
    let innerStride = rank > 0 ? strides[outerRank] : 1
    var rowCount = 1
    for axis in 0..<outerRank { rowCount *= shape[axis] }
    withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, outerRank)) { scratch in
        guard let index = scratch.baseAddress else { return }
        index.initialize(repeating: 0, count: outerRank)
        var offset = offset
        var destination = destination
        for _ in 0..<rowCount {
            copyStridedElements(
                from: source + offset * elementByteWidth, sourceStride: innerStride, to: destination,
                count: innerCount, elementByteWidth: elementByteWidth)
            destination += innerCount * elementByteWidth
            advanceRowMajorIndex(index, shape: shape, strides: strides, lastAxis: outerRank - 1, offset: &offset)
        }
    }
}

/// Copies `count` floats from `source` to `destination` (which must not overlap) with vector moves inline: the
/// short runs an im2col gathers (a filter row of a few channels) cost less this way than as `memmove` calls.
@inline(__always)
func copyShortFloatRun(from source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>, count: Int) {
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(destination)
    var byte = 0
    let bytes = count &* 4
    while byte &+ 32 <= bytes {
        SIMD8<Float>.load(from, byteOffset: byte).store(to, byteOffset: byte)
        byte &+= 32
    }
    if byte &+ 16 <= bytes {
        SIMD4<Float>.load(from, byteOffset: byte).store(to, byteOffset: byte)
        byte &+= 16
    }
    while byte < bytes {
        to.storeBytes(of: from.load(fromByteOffset: byte, as: Float.self), toByteOffset: byte, as: Float.self)
        byte &+= 4
    }
}

/// Writes `count` zeros to `destination` with vector stores inline (see ``copyShortFloatRun(from:to:count:)``).
@inline(__always)
func zeroShortFloatRun(_ destination: UnsafeMutablePointer<Float>, count: Int) {
    let to = UnsafeMutableRawPointer(destination)
    var byte = 0
    let bytes = count &* 4
    while byte &+ 32 <= bytes {
        SIMD8<Float>(repeating: 0).store(to, byteOffset: byte)
        byte &+= 32
    }
    while byte < bytes {
        to.storeBytes(of: Float(0), toByteOffset: byte, as: Float.self)
        byte &+= 4
    }
}
