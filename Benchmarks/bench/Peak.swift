import Foundation
import PureVisionKernels

/// `bench --peak`: the arithmetic ceiling of this machine, against which a model's operations per second are a
/// share. Each figure comes from a generated loop that only multiply-adds in registers (no memory traffic), with
/// enough independent accumulators to hide the instructions' latency:
///
/// - `float32_fma`: 12 `vfmadd231ps` (256-bit) per iteration, each 8 lanes × 2 operations (the AVX2 float kernels'
///   inner loops);
/// - `int16_multiply_add`: 6 pairs of `vpmaddwd` + `vpaddd` (256-bit) per iteration, each pair 16 int16 products
///   summed into int32 = 32 operations (the AVX2 int8 kernels' inner loops, the activations widened to int16);
/// - where the CPU has AVX-512 (and VNNI), `float32_fma_avx512`: 12 512-bit `vfmadd231ps`, 16 lanes × 2 operations
///   each, and `int8_dot_vnni`: 12 512-bit `vpdpbusd`, each 64 byte products summed into int32 = 128 operations
///   (what the AVX-512 kernels issue).
///
/// Each loop runs on 1 thread, then at once on every thread count asked for (each thread its own loop, operations
/// over wall time); the best of `rounds` timings is the peak. Where generated code cannot run, nothing is measured.
struct PeakRun {
    let options: BenchOptions
    /// Timings per loop and thread count; the fastest counts.
    static let rounds = 15
    /// Loop iterations per timing: about 20 ms at this machine's float peak.
    static let iterations = 10_000_000

    struct Loop {
        let name: String
        let unit: String
        /// Operations one iteration does.
        let operationsPerIteration: Double
        let code: ExecutableCode
    }

    func run() throws {
        guard HostCPU.supportsGeneratedAVX2 else {
            print("peak: generated AVX2/FMA code cannot run on this machine; nothing measured")
            return
        }
        var loops = try [Self.floatLoop(), Self.integerLoop()]
        if HostCPU.supportsGeneratedAVX512 { loops.append(try Self.wideFloatLoop()) }
        if HostCPU.supportsGeneratedAVX512VNNI { loops.append(try Self.byteDotLoop()) }
        if !options.json {
            print("peak arithmetic per thread count: generated loops in registers, best of \(Self.rounds)")
        }
        for loop in loops {
            for threads in options.threadCounts {
                let pool = ThreadPool(threadCount: threads)
                let spin = Spin(code: loop.code, iterations: Self.iterations)
                let best = Self.fastest(of: Self.rounds) { pool.parallelFor(threads, spin) } / 1e9
                let rate = loop.operationsPerIteration * Double(Self.iterations) * Double(threads) / best / 1e9
                if options.json {
                    print(
                        #"{"kind":"peak","name":"\#(loop.name)","threads":\#(threads),"gops":\#(String(format: "%.2f", rate))}"#
                    )
                } else {
                    print(
                        loop.name.padding(toLength: 22, withPad: " ", startingAt: 0) + "\(threads) thread(s) "
                            + String(format: "%8.1f", rate) + " " + loop.unit)
                }
            }
        }
    }

    /// One thread's loop of `iterations` iterations, as a pool task.
    struct Spin: ParallelTaskBody {
        let code: ExecutableCode
        let iterations: Int
        func run(task: Int) { code.entry(iterations, 0, 0, 0, 0, 0) }
    }

    /// The fastest of `attempts` timings of `body`, in ns.
    static func fastest(of attempts: Int, _ body: () -> Void) -> Double {
        var best = UInt64.max
        for _ in 0..<attempts {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            best = min(best, DispatchTime.now().uptimeNanoseconds - start)
        }
        return Double(best)
    }

    /// `for _ in 0..<rdi { 12 × vfmadd231ps ymm_i, ymm12, ymm13 }` on zeroed registers (no denormals, no NaNs).
    static func floatLoop() throws -> Loop {
        let code = try registerLoop { a in
            for i in 0..<12 { a.vfmadd231ps(YMM(i), YMM(12), YMM(13)) }
        }
        return Loop(name: "float32_fma", unit: "GFLOP/s", operationsPerIteration: 12 * 8 * 2, code: code)
    }

    /// `for _ in 0..<rdi { 6 × (vpmaddwd ymm_{6+i}, ymm12, ymm13; vpaddd ymm_i, ymm_i, ymm_{6+i}) }`.
    static func integerLoop() throws -> Loop {
        let code = try registerLoop { a in
            for i in 0..<6 { a.vpmaddwd(YMM(6 + i), YMM(12), YMM(13)) }
            for i in 0..<6 { a.vpaddd(YMM(i), YMM(i), YMM(6 + i)) }
        }
        return Loop(name: "int16_multiply_add", unit: "GOP/s", operationsPerIteration: 6 * 16 * 2, code: code)
    }

    /// `for _ in 0..<rdi { 12 × vfmadd231ps zmm_i, zmm12, zmm13 }`.
    static func wideFloatLoop() throws -> Loop {
        let code = try registerLoop { a in
            for i in 0..<12 { a.vfmadd231ps(ZMM(i), ZMM(12), ZMM(13)) }
        }
        return Loop(name: "float32_fma_avx512", unit: "GFLOP/s", operationsPerIteration: 12 * 16 * 2, code: code)
    }

    /// `for _ in 0..<rdi { 12 × vpdpbusd zmm_i, zmm12, zmm13 }`.
    static func byteDotLoop() throws -> Loop {
        let code = try registerLoop { a in
            for i in 0..<12 { a.vpdpbusd(ZMM(i), ZMM(12), ZMM(13)) }
        }
        return Loop(name: "int8_dot_vnni", unit: "GOP/s", operationsPerIteration: 12 * 64 * 2, code: code)
    }

    /// `ymm0`…`ymm13` zeroed (a VEX write zeroes the whole zmm), then `body` repeated `rdi` times.
    static func registerLoop(_ body: (inout X86Assembler) -> Void) throws -> ExecutableCode {
        var a = X86Assembler()
        for i in 0..<14 { a.vxorps(YMM(i), YMM(i), YMM(i)) }
        let top = a.makeLabel()
        a.bind(top)
        body(&a)
        a.dec(.rdi)
        a.jnz(top)
        a.vzeroupper()
        a.ret()
        return try ExecutableCode(a.finish())
    }
}
