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
/// cannot skip them silently. `PUREVISION_DISABLE_GENERATED_CODE=1` (`HostCPU.disabledByEnvironment`, the Swift
/// kernels' passes of `tools/sanitize.sh`) wins over the requirement: the suites are skipped and the line says why.
enum GeneratedCode {
    static let isRequired =
        ProcessInfo.processInfo.environment["PUREVISION_REQUIRE_GENERATED_CODE"] == "1"
        && !HostCPU.disabledByEnvironment
    /// The condition of every generated-code suite. The requirement only forces them on an x86-64 build: elsewhere
    /// the generated x86 code cannot run at all (under arm64 emulation it died of SIGILL and took the whole test
    /// process with it), and `GeneratedCodeAvailabilityTests` alone reports the mismatch.
    static let runs: Bool = {
        #if arch(x86_64)
            return HostCPU.supportsGeneratedAVX2 || isRequired
        #else
            return HostCPU.supportsGeneratedAVX2
        #endif
    }()
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
        } else if HostCPU.disabledByEnvironment {
            print(
                "Generated-code suites: SKIPPED, \(HostCPU.disablingVariable)=1 forces the Swift kernels everywhere")
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

@Suite struct GeneratedCodeSwitchTests {
    @Test func onlyTheValueOneDisablesGeneratedCode() {
        #expect(HostCPU.disablesGeneratedCode(environmentValue: "1"))
        for value in [nil, "", "0", "true", "yes", " 1"] as [String?] {
            #expect(!HostCPU.disablesGeneratedCode(environmentValue: value), "value \(String(describing: value))")
        }
    }

    @Test func theProcessSwitchFollowsItsEnvironment() {
        let value = ProcessInfo.processInfo.environment[HostCPU.disablingVariable]
        #expect(HostCPU.disabledByEnvironment == HostCPU.disablesGeneratedCode(environmentValue: value))
        if HostCPU.disabledByEnvironment {
            #expect(!HostCPU.supportsGeneratedAVX2 && !HostCPU.supportsGeneratedAVX512)
        }
    }
}
