import Foundation
import PureVisionKernels
import Testing

/// OpenBLAS must never start threads of its own beside the kernels' pool, whatever the environment says.
@Suite struct BLASThreadsTests {
    #if os(Linux)
        /// The value `name` had when the process started (`/proc/self/environ`, which `setenv` does not change).
        /// Not the current environment: another test running in parallel may be loading OpenBLAS at that moment, with
        /// the library's temporary settings in place (seen under arm64 emulation).
        static func initialEnvironment(_ name: String) throws -> String? {
            let block = try Data(contentsOf: URL(fileURLWithPath: "/proc/self/environ"))
            for entry in block.split(separator: 0) {
                let text = String(decoding: entry, as: UTF8.self)
                if text.hasPrefix(name + "=") { return String(text.dropFirst(name.count + 1)) }
            }
            return nil
        }

        @Test func openBLASIsLoadedWithoutThreadsOfItsOwn() throws {
            let before = try Self.initialEnvironment("OPENBLAS_NUM_THREADS")
            var c = [Float](repeating: 0, count: 4)
            GEMM.multiply(
                m: 2, n: 2, k: 2, a: [1, 2, 3, 4], lda: 2, b: [5, 6, 7, 8], ldb: 2, layout: .kByN, c: &c, ldc: 2)
            #expect(c == [19, 22, 43, 50])
            #expect(GEMM.isBLASAvailable, "libopenblas0 is installed on Linux CI; GEMM fell back to its portable loops")
            #expect(GEMM.blasThreadCount == 1)
            #expect(
                ProcessInfo.processInfo.environment["OPENBLAS_NUM_THREADS"] == before, "the caller's value is restored")
        }

        /// On AMD CPUs with AVX-512, which Debian's OpenBLAS 0.3.21 does not recognise, its AVX-512 kernels are chosen
        /// (unless the caller named a core type), and the environment is left as it was.
        @Test func openBLASUsesAVX512KernelsOnAMDCPUsWithAVX512() throws {
            let callerCoreType = try Self.initialEnvironment("OPENBLAS_CORETYPE")
            var c = [Float](repeating: 0, count: 1)
            GEMM.multiply(m: 1, n: 1, k: 1, a: [2], lda: 1, b: [3], ldb: 1, layout: .kByN, c: &c, ldc: 1)
            #expect(c == [6])
            let core = try #require(GEMM.blasCoreName)
            if HostCPU.isAMDWithAVX512ForBLAS && callerCoreType == nil {
                #expect(core == "SkylakeX")
            }
            #expect(ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"] == callerCoreType)
        }
    #endif
}
