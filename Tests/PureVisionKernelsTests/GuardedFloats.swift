#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `count` floats in fresh pages between two inaccessible ones, placed flush against the one after them
/// (`atPageEnd`) or the one before.
final class GuardedFloats {
    let pointer: UnsafeMutablePointer<Float>
    private let mapping: UnsafeMutableRawPointer
    private let byteCount: Int

    init?(count: Int, atPageEnd: Bool) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let dataBytes = (count * 4 + page - 1) / page * page
        byteCount = dataBytes + 2 * page
        guard let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != MAP_FAILED
        else { return nil }
        mapping = mapped
        guard mprotect(mapped, page, PROT_NONE) == 0, mprotect(mapped + page + dataBytes, page, PROT_NONE) == 0
        else {
            munmap(mapped, byteCount)
            return nil
        }
        let start = atPageEnd ? mapped + page + dataBytes - count * 4 : mapped + page
        pointer = start.bindMemory(to: Float.self, capacity: count)
    }

    deinit { munmap(mapping, byteCount) }
}
