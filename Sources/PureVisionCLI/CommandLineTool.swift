import Foundation
import PureVisionCore
import PureVisionEngine

/// Dispatches `purevision SUBCOMMAND …`; `--help` (or `-h`) anywhere after a subcommand prints that subcommand's
/// usage and options instead of running it.
enum CommandLineTool {
    /// Every subcommand, in the order the usage lists them.
    static let subcommands: [Subcommand] = [
        RunCommand.subcommand, FacesCommand.subcommand, HandsCommand.subcommand, FaceLandmarksCommand.subcommand,
        GesturesCommand.subcommand, PoseCommand.subcommand, FaceAnalyzeCommand.subcommand, ClassifyCommand.subcommand,
        LabelsCommand.subcommand, ObjectsCommand.subcommand, EmbedCommand.subcommand, EmbedCommand.similaritySubcommand,
        SegmentCommand.subcommand,
    ]

    /// The inputs every image subcommand reads, and how results come out.
    static let inputsHelp = """
        Inputs of the image subcommands (faces, hands, face-analyze, classify, …):
          IMAGE...            image files (PNG, JPEG), in order
          -                   image paths on standard input, one per line, processed as they arrive
          --paths-from FILE   image paths from FILE, one per line
          --mode video        with one argument: a .y4m file or - (a YUV4MPEG2 stream), or a directory of frames
          --jobs J            J task instances at once (image mode), results still in input order
          --threads N         threads per task instance
        Results are flushed one per input; an input that fails gives an error line (--json) or an 'error:' message
        and the run goes on; the exit status is 1 if any input failed; a summary goes to standard error.
        """

    /// The top-level usage: every subcommand's synopsis, the shared inputs, then what each subcommand does.
    static var usage: String {
        let synopses = subcommands.enumerated().map { index, command in
            (index == 0 ? "usage: " : "       ") + command.synopsis(indent: 7)
        }
        let summaries = subcommands.map { command in
            TextLayout.wrapped("  \(command.name)  " + command.summary, hangingIndent: 9)
        }
        return synopses.joined(separator: "\n") + "\n\n" + inputsHelp + "\n\nSubcommands (purevision SUBCOMMAND --help "
            + "lists a subcommand's options):\n" + summaries.joined(separator: "\n")
    }

    static func run(_ arguments: [String]) throws {
        guard let name = arguments.first else {
            print(usage)
            throw CommandLineError.usage("missing subcommand")
        }
        if ["-h", "--help", "help"].contains(name) {
            print(usage)
            return
        }
        guard let subcommand = subcommands.first(where: { $0.name == name }) else {
            throw CommandLineError.usage("unknown subcommand '\(name)'")
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(subcommand.help)
            return
        }
        try subcommand.run(rest)
    }
}

/// One option a subcommand accepts: how the parser reads it and how `--help` describes it.
struct CommandOption: Sendable {
    /// The option as typed, `--model`.
    let name: String
    /// The placeholder of its value (`PATH`, `N`); nil for a flag.
    let value: String?
    /// What it does.
    let help: String

    /// An option without a value.
    static func flag(_ name: String, _ help: String) -> CommandOption {
        CommandOption(name: name, value: nil, help: help)
    }

    /// An option followed by a value, shown as `placeholder`.
    static func value(_ name: String, _ placeholder: String, _ help: String) -> CommandOption {
        CommandOption(name: name, value: placeholder, help: help)
    }

    /// `--model PATH`, or `--json` for a flag.
    var usage: String { value.map { "\(name) \($0)" } ?? name }
}

/// A subcommand: its name, operands, description and options (the usage and `--help` are made from these, and the
/// parser accepts exactly these options), and what runs it.
struct Subcommand: Sendable {
    /// The word after `purevision`.
    let name: String
    /// The positional arguments, as the synopsis shows them (`IMAGE...`, `MODEL`).
    let operands: String
    /// What it does and what it writes, one paragraph.
    let summary: String
    /// Every option it accepts.
    let options: [CommandOption]
    /// Whether it reads its inputs as the image subcommands do (`BatchInput`), so `--help` explains them.
    let readsImages: Bool
    /// Runs it with the arguments after its name.
    let run: @Sendable ([String]) throws -> Void

    /// `NAME OPERANDS [--option VALUE] …`, wrapped with continuation lines indented by `indent` columns more than the
    /// name.
    func synopsis(indent: Int) -> String {
        let words = ["purevision \(name) \(operands)"] + options.map { "[\($0.usage)]" }
        return TextLayout.wrapped(words: words, hangingIndent: indent + 12 + name.count, firstIndent: indent)
    }

    /// The text of `purevision NAME --help`: the synopsis, the summary, each option with what it does and, for the
    /// image subcommands, how inputs are read.
    var help: String {
        let width = min(28, 4 + (options.map(\.usage.count).max() ?? 0))
        let lines = options.map { option in
            let head = "  " + option.usage
            let padded =
                head.count + 2 <= width ? head.padding(toLength: width, withPad: " ", startingAt: 0) : head + "  "
            return TextLayout.wrapped(padded + option.help, hangingIndent: width)
        }
        var text = "usage: " + synopsis(indent: 7) + "\n\n" + TextLayout.wrapped(summary, hangingIndent: 0)
        text += "\n\nOptions:\n" + lines.joined(separator: "\n")
        if readsImages { text += "\n\n" + CommandLineTool.inputsHelp }
        return text
    }
}

/// Plain-text layout for the usage and help texts.
enum TextLayout {
    /// The column the text wraps before.
    static let width = 118
    /// Words longer than this (JSON shapes) may also break after a comma.
    static let longWord = 40

    /// `text` wrapped at spaces (and long words after commas) to `width` columns; continuation lines start with
    /// `hangingIndent` spaces. The first line is taken as already indented by `firstIndent` columns (the text itself
    /// starts with any indentation of its own).
    static func wrapped(_ text: String, hangingIndent: Int, firstIndent: Int = 0) -> String {
        wrapped(
            words: text.split(separator: " ", omittingEmptySubsequences: false).map(String.init),
            hangingIndent: hangingIndent, firstIndent: firstIndent)
    }

    /// `words` joined by spaces and wrapped as `wrapped(_:hangingIndent:firstIndent:)` does; a word never breaks at
    /// its own spaces.
    static func wrapped(words: [String], hangingIndent: Int, firstIndent: Int = 0) -> String {
        // (text, whether it continues the previous word without a space)
        var pieces: [(String, Bool)] = []
        for word in words {
            guard word.count > longWord else {
                pieces.append((word, false))
                continue
            }
            var parts: [String] = []
            var part = ""
            for character in word {
                part.append(character)
                if character == "," {
                    parts.append(part)
                    part = ""
                }
            }
            if !part.isEmpty { parts.append(part) }
            for (index, part) in parts.enumerated() { pieces.append((part, index > 0)) }
        }
        var lines: [String] = []
        var line: String?
        var lineStart = firstIndent
        for (piece, glued) in pieces {
            guard let current = line else {
                line = piece
                continue
            }
            let joined = glued ? current + piece : current + " " + piece
            if lineStart + joined.count > width, !piece.isEmpty, !current.trimmingCharacters(in: .whitespaces).isEmpty {
                lines.append(current)
                line = String(repeating: " ", count: hangingIndent) + piece
                lineStart = 0
            } else {
                line = joined
            }
        }
        lines.append(line ?? "")
        return lines.joined(separator: "\n")
    }
}

/// A problem with the command line or the files it names.
enum CommandLineError: Error, CustomStringConvertible {
    case usage(String)
    case file(String)
    /// Some inputs of a batch failed (each was reported where it occurred); the exit status is 1.
    case inputsFailed(Int, of: Int, detail: String)

    var description: String {
        switch self {
        case .usage(let message): "\(message) (see 'purevision --help')"
        case .file(let message): message
        case .inputsFailed(let failed, let total, let detail): "\(failed) of \(total) input(s) failed (\(detail))"
        }
    }
}

/// A minimal option parser: `--name value`, repeated options, flags and positional arguments.
struct ParsedArguments {
    var positional: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Parses `arguments` against `options` (a repeated value option keeps every value; `single` refuses them).
    init(_ arguments: [String], options: [CommandOption]) throws {
        let valueOptions = Set(options.filter { $0.value != nil }.map(\.name))
        let flagOptions = Set(options.filter { $0.value == nil }.map(\.name))
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if valueOptions.contains(argument) {
                guard index + 1 < arguments.count else { throw CommandLineError.usage("\(argument) needs a value") }
                values[argument, default: []].append(arguments[index + 1])
                index += 2
            } else if flagOptions.contains(argument) {
                flags.insert(argument)
                index += 1
            } else if argument.hasPrefix("--") {
                throw CommandLineError.usage("unknown option \(argument)")
            } else {
                positional.append(argument)
                index += 1
            }
        }
    }

    func single(_ name: String) throws -> String? {
        guard let list = values[name] else { return nil }
        guard list.count == 1 else { throw CommandLineError.usage("\(name) given more than once") }
        return list[0]
    }

    /// The value of `name` as a number, or nil when the option is absent.
    func number(_ name: String) throws -> Float? {
        guard let text = try single(name) else { return nil }
        guard let value = Float(text) else { throw CommandLineError.usage("\(name) takes a number") }
        return value
    }

    /// The value of `name` as an integer, or nil when the option is absent.
    func integer(_ name: String) throws -> Int? {
        guard let text = try single(name) else { return nil }
        guard let value = Int(text) else { throw CommandLineError.usage("\(name) takes an integer") }
        return value
    }

    /// The value of `name` as a whole number ≥ 1, or nil when the option is absent.
    func positiveInteger(_ name: String) throws -> Int? {
        guard let text = try single(name) else { return nil }
        guard let value = Int(text), value >= 1 else {
            throw CommandLineError.usage("\(name) takes a whole number ≥ 1, got '\(text)'")
        }
        return value
    }
}

/// Reads a whole file.
func readFile(_ path: String) throws -> [UInt8] {
    do { return try readFileContents(atPath: path) } catch {
        throw CommandLineError.file("cannot read '\(path)': \(error.reason)")
    }
}
