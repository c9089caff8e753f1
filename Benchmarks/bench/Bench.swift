import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionKernels
import PureVisionTestSupport

/// One prepared configuration of a model or pipeline (loaded, inputs decoded): each call runs it once.
typealias Workload = () throws -> Void

/// The timed runs of one workload.
struct Timing {
    /// Each run's latency in ms.
    var times: [Double] = []
    /// Wall time of the timed runs, in ns.
    var nanoseconds: UInt64 = 0
    /// Clock ticks the hypervisor ran other guests on this machine's CPUs during the timed runs (steal time, summed
    /// over the CPUs; 0 where it is not reported).
    var stealTicks = 0
    /// The medians of the machine's probes before and between the rounds (see `CapacityProbe`); nil when not
    /// probed.
    var probe: CapacityProbe.Reading?

    /// Steal time as a share of the CPU time the machine had during the timed runs, in percent: how much of the
    /// runs a virtual machine's host took away (a two-thread run waits for a stolen CPU; a one-thread run moves).
    var stealPercent: Double {
        guard nanoseconds > 0 else { return 0 }
        let available = Double(nanoseconds) / 1e9 * SystemInfo.clockTicksPerSecond * Double(SystemInfo.coreCount)
        return 100 * Double(stealTicks) / available
    }
}

/// Runs the configured measurements and prints one line per (name, thread count).
struct Bench {
    let options: BenchOptions
    /// Probes the machine's parallel capacity for the most threads asked for (nil: one thread, or no generated code).
    let capacityProbe: CapacityProbe?

    init(options: BenchOptions) throws {
        self.options = options
        capacityProbe = try CapacityProbe(threads: options.threadCounts.max() ?? 1)
    }

    static let models = [
        "palm_detection_full", "hand_landmark_full", "face_detection_short_range",
        "face_detection_full_range_sparse", "face_landmark", "efficientnet_lite0", "efficientnet_lite0_int8",
        "efficientnet_lite0_uint8", "efficientdet_lite0", "palm_detection_full_int8", "hand_landmark_full_int8",
        "deeplab_v3",
        "selfie_segmenter",
    ]

    func run() throws {
        if !options.modelFiles.isEmpty {
            let rows = options.modelFiles.map { path in
                (name: ((path as NSString).lastPathComponent as NSString).deletingPathExtension, path: path)
            }
            try options.requireMatch(in: rows.map(\.name))
            printHeader()
            for row in rows where options.keeps(row.name) { try measureModel(row.name, path: row.path) }
            return
        }
        try options.requireMatch(in: Self.models + pipelines.map(\.name))
        printHeader()
        for model in Self.models where options.keeps(model) {
            try measureModel(
                model, path: (options.modelsDirectory as NSString).appendingPathComponent("\(model).tflite"))
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
                #"{"kind":"environment","configuration":"\#(configuration)","cpu":"\#(cpu)","cores":\#(SystemInfo.coreCount),"codegen":"\#(codegen)","swift_kernels":"\#(SwiftKernelTarget.description)"}"#
            )
        } else {
            print(
                "PureVision bench — \(configuration) build, CPU: \(cpu), \(SystemInfo.coreCount) cores, kernels: \(codegen)"
            )
            print("Swift kernels compiled for \(SwiftKernelTarget.description)")
            let alternation =
                options.threadCounts.count > 1 && options.rounds > 1
                ? ", the thread counts alternating in \(min(options.rounds, options.runs)) rounds" : ""
            print(
                "runs \(options.runs) after \(options.warmup) warm-up (and at least "
                    + "\(BenchOptions.minimumWarmupSeconds) s)\(alternation); times in ms")
            print(
                "name".padding(toLength: 36, withPad: " ", startingAt: 0)
                    + "threads      min   median      p90   arena MB   peak RSS MB  steal %  capacity  join µs")
        }
    }

    /// Times the model at `path`, reported as `name`, at every thread count (alternating, see
    /// ``timeAlternating(_:)``) with random inputs in [-1, 1), then profiles it per operator when asked.
    private func measureModel(_ name: String, path: String) throws {
        SystemInfo.resetPeakResident()
        let interpreters = try options.threadCounts.map { threads in
            var interpreterOptions = InterpreterOptions(
                threadCount: threads, fusesElementwiseEpilogues: options.fusesEpilogues,
                generatesMachineCode: options.generatesMachineCode)
            interpreterOptions.quantizedArithmetic = options.quantizedArithmetic
            let interpreter = try Interpreter(contentsOf: path, options: interpreterOptions)
            var random = SplitMix64(seed: 1)
            interpreter.withSession { session in
                for index in interpreter.inputs.indices {
                    let input = session.floatInput(index)
                    for i in input.indices { input[i] = random.nextSignedUnitFloat() }
                }
            }
            return interpreter
        }
        let workloads: [Workload] = interpreters.map { interpreter in { interpreter.withSession { $0.invoke() } } }
        let timings = try timeAlternating(workloads)
        for (index, threads) in options.threadCounts.enumerated() {
            report(
                name: name, kind: "model", threads: threads, timing: timings[index],
                arenaBytes: interpreters[index].arenaByteCount)
        }
        if let first = interpreters.first { reportKernelFamilies(first, name: name) }
        if options.profileTop > 0 {
            for (index, threads) in options.threadCounts.enumerated() {
                profile(interpreters[index], name: name, threads: threads)
            }
        }
    }

    /// Prints how many of the model's convolution and fully connected steps run each kernel family (generated,
    /// Swift SIMD, BLAS), so that a reader knows what a figure measures. Every thread count prepares the same
    /// families.
    private func reportKernelFamilies(_ interpreter: Interpreter, name: String) {
        let families = interpreter.stepKernelFamilies.compactMap { $0 }
        let counts = KernelFamily.allCases.map { family in (family, families.filter { $0 == family }.count) }
        if options.json {
            let fields = counts.map { #""\#($0.0.rawValue)":\#($0.1)"# }.joined(separator: ",")
            print(#"{"name":"\#(name)","kind":"kernel_families",\#(fields)}"#)
        } else {
            let listed = counts.filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            print("  kernels of \(name): " + (listed.isEmpty ? "none" : listed))
        }
    }

    /// Times every operator over `runs` invocations and prints the slowest by median, then totals per type.
    ///
    /// Each operator's mean is printed too: the sum of the means is the mean latency of the profiled runs, so an
    /// operator whose mean stands well above its median is one that is slow now and then (a worker thread late to
    /// a parallel call, say), which the medians alone hide.
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
        let means = samples.map { values in
            values.isEmpty ? 0 : Double(values.reduce(0, +)) / Double(values.count) / 1e6
        }
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
                    #"{"name":"\#(name)","kind":"operator","threads":\#(threads),"step":\#(step),"label":"\#(interpreter.stepLabels[step])","median_ms":\#(format(medians[step])),"min_ms":\#(format(minima[step])),"mean_ms":\#(format(means[step]))}"#
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
                + " (minima \(format(minima.reduce(0, +))) ms, means \(format(means.reduce(0, +))) ms);"
                + " median, share, min, mean")
        for step in top {
            let share = String(format: "%5.1f%%", 100 * medians[step] / max(total, 1e-9))
            print(
                "    " + format(medians[step]).leftPadded(8) + " " + share + format(minima[step]).leftPadded(8)
                    + format(means[step]).leftPadded(8) + "  " + interpreter.stepLabels[step])
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

    /// Times one workload per thread count, `options.runs` timed runs each, and returns each one's latencies in ms.
    ///
    /// Every workload is warmed up first (``warmUp(_:)``). With more than one, they then alternate in
    /// `options.rounds` rounds: in each round every workload runs ``rewarmRuns`` untimed runs (the other's runs have
    /// taken the caches, and its threads may have parked) and then its share of the timed runs. On a shared machine
    /// whose speed drifts over seconds, each thread count is then timed across the same spells, so their ratio is not
    /// decided by which one ran during a slow one.
    func timeAlternating(_ workloads: [Workload]) throws -> [Timing] {
        for workload in workloads { try warmUp(workload) }
        let rounds = workloads.count > 1 ? min(options.rounds, options.runs) : 1
        var timings = [Timing](repeating: Timing(), count: workloads.count)
        var readings = capacityProbe.map { [$0.read()] } ?? []
        for round in 0..<rounds {
            let share = options.runs * (round + 1) / rounds - options.runs * round / rounds
            for (index, workload) in workloads.enumerated() {
                if rounds > 1 {
                    for _ in 0..<Self.rewarmRuns { try workload() }
                }
                let stealBefore = SystemInfo.stealTicks
                let roundStart = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<share {
                    let start = DispatchTime.now().uptimeNanoseconds
                    try workload()
                    timings[index].times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
                timings[index].nanoseconds += DispatchTime.now().uptimeNanoseconds - roundStart
                timings[index].stealTicks += SystemInfo.stealTicks - stealBefore
            }
            if let probe = capacityProbe { readings.append(probe.read()) }
        }
        let probe = CapacityProbe.Reading.median(of: readings)
        for index in timings.indices { timings[index].probe = probe }
        return timings
    }

    /// Untimed runs of a workload at the start of each alternating round.
    static let rewarmRuns = 2

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

    func report(name: String, kind: String, threads: Int, timing: Timing, arenaBytes: Int) {
        let times = timing.times
        let sorted = times.sorted()
        let min = sorted[0]
        let median = sorted[sorted.count / 2]
        let p90 = sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
        let peak = SystemInfo.peakResidentBytes
        let steal = String(format: "%.1f", timing.stealPercent)
        let capacity = timing.probe.map { String(format: "%.2f", $0.capacity) }
        let join = timing.probe.map { String(format: "%.2f", $0.joinMicroseconds) }
        if options.json {
            let timesField =
                options.listsTimes ? #","times_ms":["# + times.map(format).joined(separator: ",") + "]" : ""
            print(
                #"{"name":"\#(name)","kind":"\#(kind)","threads":\#(threads),"runs":\#(times.count),"min_ms":\#(format(min)),"median_ms":\#(format(median)),"p90_ms":\#(format(p90)),"arena_bytes":\#(arenaBytes),"peak_rss_bytes":\#(peak),"steal_percent":\#(steal),"capacity":\#(capacity ?? "null"),"join_us":\#(join ?? "null")\#(timesField)}"#
            )
        } else {
            print(
                name.padding(toLength: 36, withPad: " ", startingAt: 0)
                    + String(threads).leftPadded(7) + format(min).leftPadded(9) + format(median).leftPadded(9)
                    + format(p90).leftPadded(9) + format(Double(arenaBytes) / 1_048_576).leftPadded(11)
                    + format(Double(peak) / 1_048_576).leftPadded(14) + steal.leftPadded(9)
                    + (capacity ?? "-").leftPadded(10) + (join ?? "-").leftPadded(9))
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

    /// The kernel's clock ticks per second, the unit of /proc/stat (USER_HZ).
    static let clockTicksPerSecond: Double = {
        #if os(Linux)
            let ticks = sysconf(Int32(_SC_CLK_TCK))
            return ticks > 0 ? Double(ticks) : 100
        #else
            return 100
        #endif
    }()

    /// Steal time of all CPUs so far (the eighth figure of /proc/stat's `cpu` line), in clock ticks; 0 where /proc
    /// is unavailable or does not report it.
    static var stealTicks: Int {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n", maxSplits: 1).first, line.hasPrefix("cpu ")
        else { return 0 }
        let fields = line.split(separator: " ")
        return fields.count > 8 ? Int(fields[8]) ?? 0 : 0
    }

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
