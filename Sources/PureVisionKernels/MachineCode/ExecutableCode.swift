#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Machine code copied into pages of its own that are mapped readable and executable (never writable and executable
/// at once), unmapped when the last reference goes.
///
/// Immutable once created, so it is safe to call from any thread.
public final class ExecutableCode: @unchecked Sendable {
    /// The function signature of every generated kernel: up to six word-sized arguments, passed in `rdi`, `rsi`,
    /// `rdx`, `rcx`, `r8`, `r9` (System V), no result. Pointers are passed as `Int(bitPattern:)`.
    public typealias Entry = @convention(c) (Int, Int, Int, Int, Int, Int) -> Void

    private let pages: UnsafeMutableRawPointer
    private let byteCount: Int
    /// The code's first instruction.
    public let entry: Entry
    /// Size of the code in bytes (the mapping is rounded up to whole pages).
    public let codeSize: Int

    /// Maps `code` into fresh pages: written while read-write, then switched to read-execute.
    public init(_ code: [UInt8]) throws(MachineCodeError) {
        let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
        let byteCount = max(pageSize, (code.count + pageSize - 1) / pageSize * pageSize)
        #if canImport(Darwin)
            let flags = MAP_PRIVATE | MAP_ANON
        #else
            let flags = MAP_PRIVATE | MAP_ANONYMOUS
        #endif
        guard let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, flags, -1, 0), mapped != MAP_FAILED else {
            throw .mappingFailed(operation: "mmap", errno: errno)
        }
        code.withUnsafeBytes { source in
            if let start = source.baseAddress { mapped.copyMemory(from: start, byteCount: source.count) }
        }
        guard mprotect(mapped, byteCount, PROT_READ | PROT_EXEC) == 0 else {
            let code = errno
            munmap(mapped, byteCount)
            throw .mappingFailed(operation: "mprotect", errno: code)
        }
        self.pages = mapped
        self.byteCount = byteCount
        self.codeSize = code.count
        self.entry = unsafeBitCast(mapped, to: Entry.self)
    }

    deinit { munmap(pages, byteCount) }
}

/// Generated code together with the constants block it reads (its address is embedded in the code): mapped from an
/// assembler's output, freed together, so a generator that fails to map its code leaks nothing.
final class ExecutableCodeWithConstants: @unchecked Sendable {
    /// The mapped code.
    let code: ExecutableCode
    private let constants: UnsafeMutableRawPointer

    /// Maps `assembler`'s code, taking ownership of `constants`; nil (with `constants` freed) when the code has an
    /// unbound label or cannot be mapped.
    init?(_ assembler: X86Assembler, constants: UnsafeMutableRawPointer) {
        do {
            code = try ExecutableCode(assembler.finish())
        } catch {
            constants.deallocate()
            return nil
        }
        self.constants = constants
    }

    deinit { constants.deallocate() }
}
