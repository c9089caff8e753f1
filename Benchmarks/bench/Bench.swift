import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionKernels
import PureVisionTestSupport

/// Runs the configured measurements and prints one line per (name, thread count).
struct Bench {
    let options: BenchOptions

    static let models = [
        "palm_detection_full", "hand_landmark_full", "face_detection_short_range",
        "face_detection_full_range_sparse", "face_landmark", "efficientnet_lite0", "efficientnet_lite0_int8",
        "efficientnet_lite0_uint8", "efficientdet_lite0", "palm_detection_full_int8", "hand_landmark_full_int8",
        "deeplab_v3",
        "selfie_segmenter",
    ]

    func run() throws {
        try options.requireMatch(in: Self.models + pipelines.map(\.name))
        printHeader()
        for model in Self.models where options.keeps(model) {
            for threads in options.threadCounts {
                try measureModel(model, threads: threads)
            }
        }
        try measurePipelines()
    }

    private func printHeader() {
        #if DEBUG
            let configuration = "debug"
            FileHandle.standardError.write(
                Data(
                    "WARNING: this is a DEBUG build; its timings mean nothing. Use `swift run -c release bench`.\n"
                        .utf8))
        #else
            let configuration = "release"
        #endif
        let cpu = SystemInfo.cpuModel
        let codegen =
            !options.generatesMachineCode
            ? "Swift (--no-codegen)"
            : HostCPU.supportsGeneratedAVX512VNNI
                ? "generated AVX-512 (VNNI) and AVX2/FMA"
                : HostCPU.supportsGeneratedAVX512
                    ? "generated AVX-512 and AVX2/FMA"
                    : HostCPU.supportsGeneratedAVX2
                        ? "generated AVX2/FMA" : "Swift (no AVX2/FMA codegen on this machine)"
        if options.json {
            print(
                #"{"kind":"environment","configuration":"\#(configuration)","cpu":"\#(cpu)","cores":\#(SystemInfo.coreCount),"codegen":"\#(codegen)"}"#
            )
        } else {
            print(
                "PureVision bench — \(configuration) build, CPU: \(cpu), \(SystemInfo.coreCount) cores, kernels: \(codegen)"
            )
            print(
                "runs \(options.runs) after \(options.warmup) warm-up (and at least "
                    + "\(BenchOptions.minimumWarmupSeconds) s); times in ms")
            print(
                "name".padding(toLength: 36, withPad: " ", startingAt: 0)
                    + "threads      min   median      p90   arena MB   peak RSS MB")
        }
    }

    private func measureModel(_ name: String, threads: Int) throws {
        let path = (options.modelsDirectory as NSString).appendingPathComponent("\(name).tflite")
        SystemInfo.resetPeakResident()
        var interpreterOptions = InterpreterOptions(
            threadCount: threads, fusesElementwiseEpilogues: options.fusesEpilogues,
            generatesMachineCode: options.generatesMachineCode)
        interpreterOptions.quantizedArithmetic = options.quantizedArithmetic
        let interpreter = try Interpreter(contentsOf: path, options: interpreterOptions)
        var random = SplitMix64(seed: 1)
        let times = interpreter.withSession { session in
            for index in interpreter.inputs.indices {
                let input = session.floatInput(index)
                for i in input.indices { input[i] = random.nextSignedUnitFloat() }
            }
            warmUp { session.invoke() }
            var times: [Double] = []
            times.reserveCapacity(options.runs)
            for _ in 0..<options.runs {
                let start = DispatchTime.now().uptimeNanoseconds
                session.invoke()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            return times
        }
        report(name: name, kind: "model", threads: threads, times: times, arenaBytes: interpreter.arenaByteCount)
        if options.profileTop > 0 { profile(interpreter, name: name, threads: threads) }
    }

    /// Times every operator over `runs` invocations and prints the slowest by median, then totals per type.
    private func profile(_ interpreter: Interpreter, name: String, threads: Int) {
        let stepCount = interpreter.operatorCount
        var samples = [[UInt64]](repeating: [], count: stepCount)
        interpreter.withSession { session in
            var buffer = [UInt64](repeating: 0, count: stepCount)
            warmUp { session.invoke() }
            for _ in 0..<options.runs {
                buffer.withUnsafeMutableBufferPointer { pointer in
                    pointer.update(repeating: 0)
                    session.invokeProfiled(addingTo: pointer)
                }
                for step in 0..<stepCount { samples[step].append(buffer[step]) }
            }
        }
        let medians = samples.map { values in Double(values.sorted()[values.count / 2]) / 1e6 }
        let minima = samples.map { values in Double(values.min() ?? 0) / 1e6 }
        let total = medians.reduce(0, +)
        var byType: [String: (ms: Double, minimum: Double, count: Int)] = [:]
        for (step, label) in interpreter.stepLabels.enumerated() {
            let type = String(label.split(separator: " ")[1])
            byType[type, default: (0, 0, 0)].ms += medians[step]
            byType[type, default: (0, 0, 0)].minimum += minima[step]
            byType[type, default: (0, 0, 0)].count += 1
        }
        let top = medians.indices.sorted { medians[$0] > medians[$1] }.prefix(options.profileTop)
        if options.json {
            for step in top {
                print(
                    #"{"name":"\#(name)","kind":"operator","threads":\#(threads),"step":\#(step),"label":"\#(interpreter.stepLabels[step])","median_ms":\#(format(medians[step])),"min_ms":\#(format(minima[step]))}"#
                )
            }
            for (type, value) in byType.sorted(by: { $0.value.ms > $1.value.ms }) {
                print(
                    #"{"name":"\#(name)","kind":"operator_type","threads":\#(threads),"type":"\#(type)","count":\#(value.count),"median_ms":\#(format(value.ms)),"min_ms":\#(format(value.minimum))}"#
                )
            }
            return
        }
        print(
            "  profile of \(name), \(threads) thread(s): sum of per-operator medians \(format(total)) ms"
                + " (minima \(format(minima.reduce(0, +))) ms); median, share, min")
        for step in top {
            let share = String(format: "%5.1f%%", 100 * medians[step] / max(total, 1e-9))
            print(
                "    " + format(medians[step]).leftPadded(8) + " " + share + format(minima[step]).leftPadded(8) + "  "
                    + interpreter.stepLabels[step])
        }
        print("  by operator type:")
        for (type, value) in byType.sorted(by: { $0.value.ms > $1.value.ms }) {
            let share = String(format: "%5.1f%%", 100 * value.ms / max(total, 1e-9))
            print(
                "    " + format(value.ms).leftPadded(8) + " " + share + format(value.minimum).leftPadded(8) + "  "
                    + type
                    + " ×\(value.count)")
        }
    }

    /// Runs `body` untimed at least `options.warmup` times and for at least ``BenchOptions/minimumWarmupSeconds``.
    func warmUp(_ body: () throws -> Void) rethrows {
        let start = DispatchTime.now().uptimeNanoseconds
        var count = 0
        while count < options.warmup
            || Double(DispatchTime.now().uptimeNanoseconds - start) < BenchOptions.minimumWarmupSeconds * 1e9
        {
            try body()
            count += 1
        }
    }

    func report(name: String, kind: String, threads: Int, times: [Double], arenaBytes: Int) {
        let sorted = times.sorted()
        let min = sorted[0]
        let median = sorted[sorted.count / 2]
        let p90 = sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
        let peak = SystemInfo.peakResidentBytes
        if options.json {
            let timesField =
                options.listsTimes ? #","times_ms":["# + times.map(format).joined(separator: ",") + "]" : ""
            print(
                #"{"name":"\#(name)","kind":"\#(kind)","threads":\#(threads),"runs":\#(times.count),"min_ms":\#(format(min)),"median_ms":\#(format(median)),"p90_ms":\#(format(p90)),"arena_bytes":\#(arenaBytes),"peak_rss_bytes":\#(peak)\#(timesField)}"#
            )
        } else {
            print(
                name.padding(toLength: 36, withPad: " ", startingAt: 0)
                    + String(threads).leftPadded(7) + format(min).leftPadded(9) + format(median).leftPadded(9)
                    + format(p90).leftPadded(9) + format(Double(arenaBytes) / 1_048_576).leftPadded(11)
                    + format(Double(peak) / 1_048_576).leftPadded(14))
        }
    }

    private func format(_ value: Double) -> String { String(format: "%.3f", value) }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}

/// Facts about the machine the bench runs on.
enum SystemInfo {
    static var cpuModel: String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
                ?? "unknown"
        }
        return "unknown"
    }

    static var coreCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Starts a new peak-resident measurement: Linux resets VmHWM to the current resident set when "5" is written
    /// to /proc/self/clear_refs, so the peak reported after a model is that model's (load and runs) on top of what
    /// the process already held. Does nothing where /proc is unavailable.
    static func resetPeakResident() {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        handle.write(Data("5".utf8))
        try? handle.close()
    }

    /// The process's peak resident set (VmHWM), in bytes; 0 where /proc is unavailable.
    static var peakResidentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.filter(\.isNumber)
            return (Int(digits) ?? 0) * 1024
        }
        return 0
    }
}
