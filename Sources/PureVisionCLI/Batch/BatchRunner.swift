import Dispatch
import Foundation
import PureVision
import PureVisionImage

/// One input's result, in both output forms.
struct ItemReport: Sendable {
    /// The JSON object for `--json` (one line, no trailing newline).
    var json: String
    /// The human-readable text (may span lines).
    var text: String
    /// The input with the results drawn on it, when `--out` or `--video-out` asked for it (`BatchOptions.draws`).
    var drawing: PixelImage? = nil
}

/// Processes one item with one task instance. Each processor is used by one thread at a time.
typealias ItemProcessor = (BatchItem) throws -> ItemReport

/// The options every image subcommand shares for how its inputs are run.
struct BatchOptions {
    /// JSON lines instead of text.
    var json = false
    /// Task instances working at once (`--jobs`), each on its own image; results stay in input order.
    var jobs = 1
    /// Threads of each task instance (`--threads`).
    var threads = 1
    /// `--paths-from FILE`.
    var pathsFrom: String?
    /// The running mode (`--mode`).
    var mode: RunningMode = .image
    /// `--video-out PATH` (`-`: standard output) of the subcommands that draw.
    var videoOut: String?

    /// The options these settings read, to add to a subcommand's own; `video` offers `--mode video`.
    static func options(video: Bool) -> [CommandOption] {
        [
            .flag("--json", "one JSON object per line (fields as above) instead of text"),
            .value("--mode", video ? "image|video" : "image", video ? modeHelp : "the running mode; only image"),
            .value("--jobs", "J", "J task instances at once (image mode; default 1), results still in input order"),
            .value("--threads", "N", "threads per task instance (default 1)"),
            .value("--paths-from", "FILE", "image paths from FILE, one per line, instead of IMAGE arguments"),
        ]
    }

    private static let modeHelp =
        "image (default): independent images; video: consecutive frames (tracked), from a .y4m file or - (a "
        + "YUV4MPEG2 stream: timestamps from its frame rate), a directory of frames or image files (33 ms apart)"

    /// `--out DIR` and `--video-out PATH` of a subcommand that draws its results: `--out` writes
    /// `DIR/<stem>_<suffix>.png` showing `drawing`.
    static func drawingOptions(suffix: String, drawing: String) -> [CommandOption] {
        [
            .value("--out", "DIR", "writes DIR/<stem>_\(suffix).png per input: \(drawing)"),
            .value("--video-out", "PATH", videoOutHelp(showing: "the frames with the --out drawing on them")),
        ]
    }

    /// What `--video-out` does; the frames show `showing`.
    static func videoOutHelp(showing: String) -> String {
        "with --mode video and a YUV4MPEG2 input (a .y4m file or -): \(showing), as a YUV4MPEG2 stream with the "
            + "input's header (size, frame rate, chroma layout) and frame count, each frame written as soon as it is "
            + "done; only drawn-on pixels change. - writes it to standard output (the JSON lines or text are then not "
            + "written; errors still go to standard error)"
    }

    /// Reads the shared options; `modes` are the running modes the subcommand offers.
    init(_ parsed: ParsedArguments, modes: [RunningMode] = [.image]) throws {
        json = parsed.flags.contains("--json")
        jobs = try parsed.positiveInteger("--jobs") ?? 1
        threads = try parsed.positiveInteger("--threads") ?? 1
        pathsFrom = try parsed.single("--paths-from")
        videoOut = try parsed.single("--video-out")
        if let text = try parsed.single("--mode") {
            guard let value = RunningMode(rawValue: text), value != .liveStream, modes.contains(value) else {
                let names = modes.map(\.rawValue).joined(separator: " or ")
                throw CommandLineError.usage("--mode must be \(names), got '\(text)'")
            }
            mode = value
        }
        if mode == .video, jobs > 1 {
            throw CommandLineError.usage("--jobs must be 1 in video mode (frames are tracked one after another)")
        }
        if videoOut != nil, mode != .video {
            throw CommandLineError.usage("--video-out needs --mode video (and a .y4m file or - as input)")
        }
    }

    /// Whether the results are drawn on the input: for `--out` (when `outputDirectory` is given) or `--video-out`.
    func draws(_ outputDirectory: OutputDirectory?) -> Bool { outputDirectory != nil || videoOut != nil }
}

/// Runs a subcommand over its inputs as a Unix filter: results go to standard output one per input, in input order,
/// flushed as each is ready; an input that fails gives an error line (`{"image":…,"error":{"kind":…,"message":…}}`
/// with `--json`, `error: …` on standard error otherwise) and the run goes on. A summary (inputs, failures,
/// inputs/s) goes to standard error, with a progress line while it runs when standard error is a terminal.
enum BatchRunner {
    /// What a run did.
    struct Summary {
        var items = 0
        var failures = 0
        var seconds = 0.0
    }

    /// Runs `makeProcessor()` once per job (one task instance each) over the inputs and writes the results.
    /// - Throws: `CommandLineError.inputsFailed` after the run when any input failed (the exit status is then 1),
    ///   or the error of `makeProcessor` (a model that does not load stops the run before any input).
    static func run(
        command: String, positional: [String], options: BatchOptions, makeProcessor: () throws -> ItemProcessor
    ) throws {
        let input = try BatchInput.open(
            command: command, positional: positional, pathsFrom: options.pathsFrom, mode: options.mode)
        if options.videoOut != nil, input.videoHeader == nil {
            throw CommandLineError.usage("--video-out needs a YUV4MPEG2 input: one .y4m file or - (with --mode video)")
        }
        let processors = try (0..<options.jobs).map { _ in try makeProcessor() }
        // Opened once the models have loaded, so that a model that fails leaves no half-made stream.
        let video = try options.videoOut.flatMap { path in
            try input.videoHeader.map { try VideoOutput(path: path, header: $0) }
        }
        let isStreamed = options.pathsFrom != nil || positional == ["-"]
        let output = OrderedOutput(json: options.json, video: video, resultsToStandardOutput: options.videoOut != "-")
        let start = DispatchTime.now()
        if processors.count == 1 {
            let processor = processors[0]
            for item in input.items {
                output.deliver(item, outcome: outcome(of: item, processor))
                if video?.failure != nil { break }
            }
        } else {
            runConcurrently(input.items, processors: processors, output: output)
        }
        if let failure = video?.failure {
            throw CommandLineError.file("--video-out \(options.videoOut ?? ""): \(failure)")
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let summary = output.finish(seconds: seconds)
        let rate = summary.seconds > 0 ? Double(summary.items) / summary.seconds : 0
        let counts = "\(summary.items) input(s), \(summary.failures) failed, \(String(format: "%.1f", rate)) per second"
        if summary.failures > 0 {
            // One input given on the command line: its own error is the one message (main prints it).
            if let only = output.onlyFailure, summary.items == 1, !options.json, !isStreamed { throw only }
            output.reportPendingFailure()
            throw CommandLineError.inputsFailed(summary.failures, of: summary.items, detail: counts)
        }
        if isStreamed {
            FileHandle.standardError.write(Data("purevision \(command): \(counts)\n".utf8))
        }
    }

    private static func outcome(of item: BatchItem, _ processor: ItemProcessor) -> Result<ItemReport, Error> {
        Result { try processor(item) }
    }

    /// `processors.count` jobs, each a serial queue that owns one processor; the reader hands an item to a free
    /// job and waits when none is free, so at most one item per job is in flight.
    private static func runConcurrently(
        _ items: AnyIterator<BatchItem>, processors: [ItemProcessor], output: OrderedOutput
    ) {
        let free = FreeList(count: processors.count)
        let group = DispatchGroup()
        let queues = processors.indices.map { DispatchQueue(label: "purevision.job\($0)") }
        let processorBox = UncheckedBox(processors)
        for item in items {
            let job = free.take()
            group.enter()
            queues[job].async {
                output.deliver(item, outcome: outcome(of: item, processorBox.value[job]))
                free.give(job)
                group.leave()
            }
        }
        group.wait()
    }
}

/// Processors hold task objects that are used by one job at a time; the job's serial queue guarantees it.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Indices of idle jobs; `take` blocks until one is idle.
private final class FreeList: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [Int]

    init(count: Int) { idle = Array((0..<count).reversed()) }

    func take() -> Int {
        condition.lock()
        defer { condition.unlock() }
        while idle.isEmpty { condition.wait() }
        return idle.removeLast()
    }

    func give(_ job: Int) {
        condition.lock()
        idle.append(job)
        condition.signal()
        condition.unlock()
    }
}

/// Writes results in input order as soon as every earlier one is written, flushing each line.
private final class OrderedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let json: Bool
    private let video: VideoOutput?
    private let resultsToStandardOutput: Bool
    private var pending: [Int: (BatchItem, Result<ItemReport, Error>)] = [:]
    private var nextIndex = 0
    private var summary = BatchRunner.Summary()
    private let showsProgress = isatty(STDERR_FILENO) != 0
    private var lastProgress = DispatchTime.now()
    /// The error of the first failed input, held back while it may be the run's only input (see `run`).
    private(set) var onlyFailure: Error?
    private var heldBack: (BatchItem, Error)?

    init(json: Bool, video: VideoOutput?, resultsToStandardOutput: Bool) {
        self.json = json
        self.video = video
        self.resultsToStandardOutput = resultsToStandardOutput
    }

    func deliver(_ item: BatchItem, outcome: Result<ItemReport, Error>) {
        lock.lock()
        defer { lock.unlock() }
        pending[item.index] = (item, outcome)
        while let (ready, result) = pending.removeValue(forKey: nextIndex) {
            write(ready, result)
            nextIndex += 1
        }
    }

    func finish(seconds: Double) -> BatchRunner.Summary {
        lock.lock()
        defer { lock.unlock() }
        if summary.items > 1 { reportHeldBack() }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        summary.seconds = seconds
        return summary
    }

    private func write(_ item: BatchItem, _ result: Result<ItemReport, Error>) {
        if item.index > 0 { reportHeldBack() }
        summary.items += 1
        var out = ""
        video?.write(item, drawing: try? result.get().drawing)
        switch result {
        case .success(let report):
            out = json ? Self.withFrame(report.json, item) + "\n" : report.text + "\n"
        case .failure(let error):
            summary.failures += 1
            let kind = InputErrorKind(error)
            if !resultsToStandardOutput {
                Self.report(item, error)
            } else if json {
                let frame = item.frame.map { #","frame":\#($0)"# } ?? ""
                out =
                    #"{"image":\#(JSONText.quoted(item.name))\#(frame),"error":{"kind":\#(JSONText.quoted(kind.rawValue)),"message":\#(JSONText.quoted("\(error)"))}}"#
                    + "\n"
            } else if item.index == 0, item.frame == nil {
                // Reported when the next input arrives, or by `run` as the run's one error if there is none.
                heldBack = (item, error)
                onlyFailure = error
            } else {
                reportHeldBack()
                Self.report(item, error)
            }
        }
        if resultsToStandardOutput { FileHandle.standardOutput.write(Data(out.utf8)) }
        if showsProgress, DispatchTime.now().uptimeNanoseconds - lastProgress.uptimeNanoseconds > 250_000_000 {
            lastProgress = DispatchTime.now()
            FileHandle.standardError.write(
                Data("\r\(summary.items) done, \(summary.failures) failed\u{1B}[K".utf8))
        }
    }

    /// Writes the held-back failure of the first input, if any (the run reports it itself otherwise).
    func reportPendingFailure() {
        lock.lock()
        defer { lock.unlock() }
        reportHeldBack()
    }

    private func reportHeldBack() {
        guard let (item, error) = heldBack else { return }
        heldBack = nil
        onlyFailure = nil
        Self.report(item, error)
    }

    private static func report(_ item: BatchItem, _ error: Error) {
        let place = item.frame.map { "\(item.name) frame \($0)" } ?? item.name
        FileHandle.standardError.write(Data("error: \(place): \(error)\n".utf8))
    }

    /// Video frames carry their frame number: `"frame":N` is added after the result's opening brace.
    private static func withFrame(_ line: String, _ item: BatchItem) -> String {
        guard let frame = item.frame, line.first == "{" else { return line }
        return #"{"frame":\#(frame),"# + line.dropFirst()
    }
}

/// The `--video-out` stream: every input frame in order, with the item's drawing over it when it has one (a frame
/// whose processing failed is written as it came). The first write error stops the writing; the run then ends with it.
/// Written only under `OrderedOutput`'s lock, in video mode's one job (`--jobs` is 1 there).
final class VideoOutput: @unchecked Sendable {
    private var writer: Y4MWriter
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The error that stopped the stream, if any.
    private(set) var failure: Error?

    /// Opens `path` (`-`: standard output) and writes the header.
    init(path: String, header: Y4MHeader) throws {
        if path == "-" {
            (descriptor, ownsDescriptor) = (STDOUT_FILENO, false)
        } else {
            descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw CommandLineError.file("cannot write '\(path)'") }
            ownsDescriptor = true
        }
        // A reader that goes away (the other end of the pipe closed) is a write error, not a signal that kills the run.
        signal(SIGPIPE, SIG_IGN)
        writer = try Y4MWriter(header: header, descriptor: descriptor)
    }

    deinit { if ownsDescriptor { close(descriptor) } }

    /// Writes the item's frame, with `drawing` over it; items that are not frames (a damaged stream's end) write
    /// nothing.
    func write(_ item: BatchItem, drawing: PixelImage?) {
        guard failure == nil, let frame = item.videoFrame else { return }
        do {
            try writer.write(drawing.map { try frame.overlaid(with: $0) } ?? frame)
        } catch {
            failure = error
        }
    }
}

/// The kind of an input's failure, as the error lines name it.
enum InputErrorKind: String {
    /// The file is missing or cannot be read.
    case unreadable
    /// The bytes are not an image PureVision decodes (or a damaged video stream).
    case notAnImage
    /// The task refused the image (for example a mirrored orientation).
    case task
    /// Anything else.
    case other

    init(_ error: Error) {
        switch error {
        case ImageError.fileAccess: self = .unreadable
        case is ImageError, is Y4MError: self = .notAnImage
        case is VisionTaskError: self = .task
        case CommandLineError.file: self = .unreadable
        default: self = .other
        }
    }
}
