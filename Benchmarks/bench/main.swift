import Foundation

/// `swift run -c release bench [--json] [--filter NAME] [--runs N] [--threads 1,2] [--models-dir DIR]`
/// (`--help` lists the rest: per-operator profiles, soak runs, the machine's arithmetic peak)
///
/// Times every bundled model (and, as they land, every task pipeline) with the prepared interpreter: min, median
/// and p90 latency over N runs after warm-up, for each thread count, with the build configuration and the CPU.
/// `tools/compare_speed.py` runs this next to LiteRT and prints the ratios.
do {
    let options = try BenchOptions(CommandLine.arguments.dropFirst())
    if options.measuresPeak {
        try PeakRun(options: options).run()
    } else if options.soakFrames > 0 {
        try SoakRun(options: options, frames: options.soakFrames).run()
    } else {
        try Bench(options: options).run()
    }
} catch let error as BenchError where error.description.isEmpty {
    // `--help`: the usage is printed; nothing failed.
    exit(0)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
