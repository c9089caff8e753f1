import PureVisionEngine

/// The bench's command line.
struct BenchOptions {
    var json = false
    /// With `--json`, also list every timed run's latency (`times_ms`), for tools that pool runs across processes.
    var listsTimes = false
    var filter: String?
    var runs = 50
    /// Rounds in which the thread counts of one model or pipeline alternate, each with its share of the runs
    /// (1: one thread count after the other).
    var rounds = 5
    /// Untimed runs before timing: at least this many, and at least ``minimumWarmupSeconds``.
    var warmup = 5
    /// Warm-up time before timing, so that one-time start-up work (page faults, caches, lazily opened libraries) is
    /// over; LiteRT, timed inside a long-running Python process, is past it.
    static let minimumWarmupSeconds = 0.3
    var threadCounts = [1, 2]
    var modelsDirectory = "Models"
    /// `--model FILE` (repeatable): time these `.tflite` files, each a row named after its file, in place of the
    /// bench's models and pipelines.
    var modelFiles: [String] = []
    /// Print each model's operators with their median time per invocation, slowest first (at most this many; 0 = off).
    var profileTop = 0
    /// Whether convolutions absorb their element-wise consumers, the zero PADs before them and a concatenation of
    /// per-image constants before a 1×1 one, and element-wise chains from 8-bit tensors run as table lookups
    /// (`--unfused` turns it off, for comparison).
    var fusesEpilogues = true
    /// Whether kernels may generate AVX2/FMA machine code (`--no-codegen` runs the Swift kernels, for comparison).
    var generatesMachineCode = true
    /// How 8-bit layers round (`--quantized-arithmetic`): XNNPACK's by default, what the tasks run and what
    /// LiteRT-XNNPACK, the library the bench is compared with, computes.
    var quantizedArithmetic = InterpreterOptions.QuantizedArithmetic.xnnpack
    /// `--soak [FRAMES]`: instead of timing, push FRAMES frames through each task and report memory, descriptors and
    /// threads (see `SoakRun`); 0 = off.
    var soakFrames = 0
    /// `--peak`: instead of timing models, measure the machine's arithmetic peak (see `PeakRun`).
    var measuresPeak = false

    static let usage = """
        usage: bench [--json [--times]] [--filter NAME] [--runs N] [--rounds R] [--warmup N] [--threads 1,2]
                     [--models-dir DIR] [--model FILE]... [--profile [TOP]] [--unfused] [--no-codegen]
                     [--quantized-arithmetic xnnpack|litert]
                     [--soak [FRAMES]] [--peak]
          --rounds   the thread counts of each model or pipeline take turns in R rounds (default 5), each
                     running its share of the N timed runs after 2 untimed ones; 1 = one after the other
          --warmup   untimed runs first (default 5); warm-up also lasts at least 0.3 s
          --model    time this .tflite file (repeatable), a row named after the file, instead of the bench's
                     models and pipelines
          --times    with --json, add every timed run's latency in ms to each model's line ("times_ms")
          --profile  after each model's timing, time every operator per invocation and print the TOP (default 15)
                     slowest by median, plus totals per operator type
          --unfused  run ADD / PRELU / RELU after a convolution, a zero PAD before one, a concatenation of
                     per-image constants before a 1×1 one and element-wise chains from 8-bit tensors (run as one
                     table lookup) as separate operators
          --no-codegen  run the Swift kernels instead of generated AVX2/FMA code (InterpreterOptions)
          --quantized-arithmetic  how models' 8-bit layers round: xnnpack (default; as the tasks and LiteRT-XNNPACK)
                     or litert (LiteRT's builtin kernels)
          --soak     FRAMES (default 10000) frames through each task: RSS start/peak/end, fds, threads
          --peak     the machine's float32 FMA and int16 multiply-add peak per thread count, in place of the models
        columns: steal % is the hypervisor's steal time during a line's timed runs; capacity is the arithmetic the
        machine gave the most threads asked for, as a multiple of one thread's, median of the probes between rounds
        (near the thread count on dedicated cores; lower when a virtual CPU shared a core or was taken away); join
        µs is what one empty call of the thread pool costs at that moment, the toll of every parallel operator
        """

    init<S: Sequence<String>>(_ arguments: S) throws {
        var iterator = arguments.makeIterator()
        func value(_ name: String) throws -> String {
            guard let next = iterator.next() else { throw BenchError("\(name) needs a value\n\(Self.usage)") }
            return next
        }
        var pending: String?
        while let argument = pending ?? iterator.next() {
            pending = nil
            switch argument {
            case "--json": json = true
            case "--times": listsTimes = true
            case "--unfused": fusesEpilogues = false
            case "--no-codegen": generatesMachineCode = false
            case "--quantized-arithmetic":
                switch try value(argument) {
                case "xnnpack": quantizedArithmetic = .xnnpack
                case "litert": quantizedArithmetic = .liteRT
                case let other: throw BenchError("--quantized-arithmetic takes xnnpack or litert, not \(other)")
                }
            case "--filter": filter = try value(argument)
            case "--runs":
                guard let n = Int(try value(argument)), n >= 1 else { throw BenchError("--runs must be ≥ 1") }
                runs = n
            case "--rounds":
                guard let n = Int(try value(argument)), n >= 1 else { throw BenchError("--rounds must be ≥ 1") }
                rounds = n
            case "--warmup":
                guard let n = Int(try value(argument)), n >= 0 else { throw BenchError("--warmup must be ≥ 0") }
                warmup = n
            case "--threads":
                let list = try value(argument).split(separator: ",").compactMap { Int($0) }
                guard !list.isEmpty, list.allSatisfy({ $0 >= 1 && $0 <= 64 }) else {
                    throw BenchError("--threads takes a list such as 1,2")
                }
                threadCounts = list
            case "--models-dir": modelsDirectory = try value(argument)
            case "--model": modelFiles.append(try value(argument))
            case "--profile":
                profileTop = 15
                if let next = iterator.next() {
                    if let n = Int(next), n >= 1 { profileTop = n } else { pending = next }
                }
            case "--soak":
                soakFrames = 10_000
                if let next = iterator.next() {
                    if let n = Int(next), n >= 1 { soakFrames = n } else { pending = next }
                }
            case "--peak": measuresPeak = true
            case "-h", "--help":
                print(Self.usage)
                throw BenchError("")
            default: throw BenchError("unknown argument \(argument)\n\(Self.usage)")
            }
        }
        if listsTimes && !json { throw BenchError("--times needs --json\n\(Self.usage)") }
    }
}

extension BenchOptions {
    /// Whether `--filter` keeps the row `name` (every row when there is no filter).
    func keeps(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }

    /// Throws when `--filter` keeps none of `names`, so a mistyped name is an error rather than an empty table.
    func requireMatch(in names: [String]) throws {
        guard let filter, !names.contains(where: keeps) else { return }
        throw BenchError("--filter \(filter) matches nothing; the rows are:\n  " + names.joined(separator: "\n  "))
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
