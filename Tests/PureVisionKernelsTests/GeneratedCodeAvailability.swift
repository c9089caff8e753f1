import Foundation
import PureVisionKernels
import Testing

/// Whether the suites of generated machine code (`Conv2DMachineCodeTests`, `Conv2DRowTailTests`, the generated cases
/// of `DepthwiseConv2DMachineCodeTests`, `X86AssemblerTests.fusedMultiplyAddRuns`) run on this machine.
///
/// They need a Linux x86-64 CPU with AVX2 + FMA (`HostCPU.supportsGeneratedAVX2`); elsewhere they are skipped with
/// `skipComment`, which the test output shows, and `GeneratedCodeAvailabilityTests` prints a line saying so. CI sets
/// `PUREVISION_REQUIRE_GENERATED_CODE=1` when its own look at the CPU finds AVX2 and FMA: the suites then run whatever
/// `HostCPU` says, and `GeneratedCodeAvailabilityTests` fails if `HostCPU` disagrees, so a detection that went wrong
/// cannot skip them silently.
enum GeneratedCode {
    static let isRequired = ProcessInfo.processInfo.environment["PUREVISION_REQUIRE_GENERATED_CODE"] == "1"
    /// The condition of every generated-code suite.
    static let runs = HostCPU.supportsGeneratedAVX2 || isRequired
    /// The instruction sets generated float code can use here: AVX2, and AVX-512 where the CPU has it.
    static let instructionSets: [GeneratedInstructionSet] =
        HostCPU.supportsGeneratedAVX512 ? [.avx2, .avx512] : [.avx2]
    static let skipComment: Comment =
        "SKIPPED on this CPU: generated machine code needs Linux x86-64 with AVX2 + FMA (HostCPU.supportsGeneratedAVX2 is false)"
}

@Suite struct GeneratedCodeAvailabilityTests {
    @Test func generatedCodeSuitesRunWhereTheCPUAllows() {
        if HostCPU.supportsGeneratedAVX2 {
            print("Generated-code suites: running (AVX2 + FMA found)")
        } else {
            print(
                "Generated-code suites: SKIPPED, this CPU has no AVX2 + FMA (or it is not Linux x86-64); the whole-model "
                    + "tests run the Swift kernels only. PUREVISION_REQUIRE_GENERATED_CODE=1 makes this a failure.")
        }
        if GeneratedCode.isRequired {
            #expect(
                HostCPU.supportsGeneratedAVX2,
                "PUREVISION_REQUIRE_GENERATED_CODE=1, but HostCPU.supportsGeneratedAVX2 is false: the generated-code suites would be skipped"
            )
        }
    }
}
