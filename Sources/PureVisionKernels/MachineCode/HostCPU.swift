#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the machine running this process can execute, for choosing generated kernels.
public enum HostCPU {
    /// Whether kernels may generate and run x86-64 AVX2 + FMA code: on Linux x86-64, when the kernel reports the
    /// `avx`, `avx2` and `fma` flags for the CPU (it reports them only when it also saves the YMM state) and the
    /// process was not started with `PUREVISION_DISABLE_GENERATED_CODE=1` (``disabledByEnvironment``).
    /// False everywhere else, where the Swift kernels run.
    public static let supportsGeneratedAVX2: Bool = {
        #if arch(x86_64) && os(Linux)
            guard !disabledByEnvironment, let flags = cpuFlags else { return false }
            return flags.contains("avx") && flags.contains("avx2") && flags.contains("fma")
        #else
            return false
        #endif
    }()

    /// Whether the environment variable `PUREVISION_DISABLE_GENERATED_CODE` was `1` when first asked (read once per
    /// process): then ``supportsGeneratedAVX2`` and everything built on it are false and every kernel, model and task
    /// runs the portable Swift kernels, as on a CPU without AVX2 + FMA, whatever `generatesMachineCode` says.
    /// `tools/sanitize.sh` sets it for its passes over the Swift kernels. Unset (or any other value) changes nothing.
    public static let disabledByEnvironment: Bool = disablesGeneratedCode(
        environmentValue: getenv(disablingVariable).map { String(cString: $0) })

    /// The name of the environment variable read by ``disabledByEnvironment``.
    public static let disablingVariable = "PUREVISION_DISABLE_GENERATED_CODE"

    /// Whether a value of ``disablingVariable`` (nil when unset) turns generated code off: exactly `"1"`.
    package static func disablesGeneratedCode(environmentValue: String?) -> Bool {
        environmentValue == "1"
    }

    /// Whether kernels may also generate AVX-512 code (512-bit vectors, opmasks, byte-masked stores): on top of
    /// ``supportsGeneratedAVX2``, the kernel reports `avx512f`, `avx512bw` and `avx512vl` (it reports them only when
    /// it also saves the ZMM and opmask state).
    public static let supportsGeneratedAVX512: Bool = {
        #if arch(x86_64) && os(Linux)
            guard supportsGeneratedAVX2, let flags = cpuFlags else { return false }
            return ["avx512f", "avx512bw", "avx512vl"].allSatisfy { flags.contains(Substring($0)) }
        #else
            return false
        #endif
    }()

    /// Whether the 8-bit kernels may generate AVX-512 VNNI code (`vpdpbusd`, `vpdpwssd`): ``supportsGeneratedAVX512``
    /// and the `avx512_vnni` flag.
    public static let supportsGeneratedAVX512VNNI: Bool = {
        #if arch(x86_64) && os(Linux)
            guard supportsGeneratedAVX512, let flags = cpuFlags else { return false }
            return flags.contains("avx512_vnni")
        #else
            return false
        #endif
    }()

    /// Whether this is an AMD CPU whose AVX-512 (F, CD, BW, DQ, VL, with the state saved by the kernel) OpenBLAS's
    /// SkylakeX kernels can use: Zen 4 and Zen 5. OpenBLAS releases before 0.3.22 (Debian 12 ships 0.3.21) do not
    /// recognise these CPUs and fall back to their AVX2 (Haswell) kernels.
    package static let isAMDWithAVX512ForBLAS: Bool = {
        #if arch(x86_64) && os(Linux)
            guard supportsGeneratedAVX512, cpuVendor == "AuthenticAMD", let flags = cpuFlags else {
                return false
            }
            let needed = ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]
            return needed.allSatisfy { flags.contains(Substring($0)) }
        #else
            return false
        #endif
    }()

    #if arch(x86_64) && os(Linux)
        /// The `flags` of the first processor in `/proc/cpuinfo`, or nil when it cannot be read (read once).
        private static let cpuFlags: Set<Substring>? = cpuField("flags").map { Set($0.split(separator: " ")) }

        /// The first processor's `vendor_id` in `/proc/cpuinfo` (read once).
        private static let cpuVendor: Substring? = cpuField("vendor_id")

        /// The value of the first processor's `name` line in `/proc/cpuinfo` (trimmed), or nil when it cannot be read.
        private static func cpuField(_ name: String) -> Substring? {
            guard let file = fopen("/proc/cpuinfo", "r") else { return nil }
            defer { fclose(file) }
            var line: UnsafeMutablePointer<CChar>? = nil
            var capacity = 0
            defer { free(line) }
            while getline(&line, &capacity, file) > 0 {
                guard let line else { break }
                let text = String(cString: line)
                guard text.hasPrefix(name), let colon = text.firstIndex(of: ":"),
                    text[..<colon].trimmingSpaces == Substring(name)
                else { continue }
                return text[text.index(after: colon)...].trimmingSpaces
            }
            return nil
        }
    #endif
}

extension StringProtocol where SubSequence == Substring {
    /// Without leading and trailing spaces, tabs and newlines.
    fileprivate var trimmingSpaces: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
        var start = startIndex
        var end = endIndex
        while start < end, blank(self[start]) { start = index(after: start) }
        while end > start, blank(self[index(before: end)]) { end = index(before: end) }
        return self[start..<end]
    }
}
