import Foundation
import PureVision
import PureVisionImage

/// The skeleton every image subcommand shares: its arguments parsed against its options, the batch options read,
/// then its own options read from `parsed` before `run(makeProcessor:)` (or, for a task that draws its results
/// frame by frame, `runFrames`) runs it over the inputs.
struct TaskCommandLine {
    /// The subcommand's name.
    let name: String
    /// The arguments, parsed against the subcommand's options.
    let parsed: ParsedArguments
    /// The options every image subcommand shares (inputs, running mode, jobs, threads, output form).
    let batch: BatchOptions
    /// For a subcommand that draws its results (`Subcommand.drawingTask`): the suffix of the pictures `--out DIR`
    /// writes, `DIR/<stem>_<suffix>.png`.
    let drawingSuffix: String?

    /// Parses `arguments` for the subcommand `name`, whose options are `options`; `modes` are the running modes it
    /// offers.
    init(
        _ arguments: [String], name: String, options: [CommandOption], modes: [RunningMode],
        drawingSuffix: String? = nil
    ) throws {
        self.name = name
        parsed = try ParsedArguments(arguments, options: options)
        batch = try BatchOptions(parsed, modes: modes)
        self.drawingSuffix = drawingSuffix
    }

    /// Parses `arguments` for `subcommand`, which offers the running modes `modes` and draws nothing of its own.
    init(_ arguments: [String], of subcommand: Subcommand, modes: [RunningMode] = [.image]) throws {
        try self.init(arguments, name: subcommand.name, options: subcommand.options, modes: modes)
    }

    /// The task's `BaseOptions`: the model of `--model PATH`, or the bundled `defaultModel`, run on `--threads`
    /// threads.
    func baseOptions(defaultModel: String) throws -> BaseOptions {
        BaseOptions(
            modelAssetPath: try parsed.single("--model") ?? BundledModels.path(defaultModel),
            threadCount: batch.threads)
    }

    /// Runs the subcommand over its inputs with one processor per job (`BatchRunner.run`).
    func run(makeProcessor: () throws -> ItemProcessor) throws {
        try BatchRunner.run(command: name, positional: parsed.positional, options: batch, makeProcessor: makeProcessor)
    }

    /// Runs a task that draws its results over the inputs, one frame at a time, with one `Task` made from `options`
    /// per job. Per item, the image is decoded and processed in the batch's running mode; for `--out` or
    /// `--video-out` the result is drawn by `annotate`, and `--out` writes the drawing as
    /// `DIR/<stem>_<drawingSuffix>.png`; `report` then gives the item's JSON line and text, and may write further
    /// `--out` files of its own. The drawing is added to the report.
    func runFrames<Task: FrameTask>(
        _: Task.Type, options: Task.Options, outputDirectory: OutputDirectory?,
        annotate: @escaping (PixelImage, Task.Result) throws -> PixelImage,
        report: @escaping (BatchItem, PixelImage, Task.Result) throws -> ItemReport
    ) throws {
        let mode = batch.mode
        let draws = batch.draws(outputDirectory)
        // Every subcommand made by `Subcommand.drawingTask` has a suffix; the name stands in for one made otherwise.
        let suffix = drawingSuffix ?? name
        try run {
            let task = try Task(options: options)
            return { item in
                let image = try item.image()
                let result = try task.process(image, of: item, mode: mode)
                let drawing = draws ? try annotate(image, result) : nil
                if let drawing { try outputDirectory?.write(drawing, for: item, suffix: suffix) }
                var itemReport = try report(item, image, result)
                itemReport.drawing = drawing
                return itemReport
            }
        }
    }
}

extension Subcommand {
    /// An image subcommand that draws its results and offers `--mode video`: `options` (its own), then `--out DIR`,
    /// which writes `DIR/<stem>_<drawingSuffix>.png` per input showing `drawing`, `--video-out`, and the batch
    /// options. `run` is given the command line read against all of them.
    static func drawingTask(
        name: String, summary: String, options: [CommandOption], drawingSuffix: String, drawing: String,
        run: @escaping @Sendable (TaskCommandLine) throws -> Void
    ) -> Subcommand {
        let options =
            options + BatchOptions.drawingOptions(suffix: drawingSuffix, drawing: drawing)
            + BatchOptions.options(video: true)
        return Subcommand(
            name: name, operands: "IMAGE...", summary: summary, options: options, readsImages: true,
            run: { arguments in
                try run(
                    TaskCommandLine(
                        arguments, name: name, options: options, modes: [.image, .video], drawingSuffix: drawingSuffix))
            })
    }
}

/// Finds the bundled models: `Models/` in the current directory, or above the executable (a `swift build` tree).
enum BundledModels {
    /// The path of the bundled model file `name`: the first `Models/<name>` that exists, or `Models/<name>` when
    /// none does (the task then reports the missing file).
    static func path(_ name: String) -> String {
        let manager = FileManager.default
        let local = "Models/" + name
        if manager.fileExists(atPath: local) { return local }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Models").appendingPathComponent(name).path
            if manager.fileExists(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return local
    }
}
