import Foundation
import Testing

/// `purevision SUBCOMMAND --help` (or `-h`): the subcommand's usage and every option it accepts, exit status 0, for
/// every subcommand; the top-level usage names every subcommand.
@Suite struct HelpTests {
    static let batchOptions = ["--json", "--mode", "--jobs", "--threads", "--paths-from"]
    static let drawingOptions = ["--out", "--video-out"]

    /// Each subcommand with the options it documents.
    static let subcommands: [(String, [String])] = [
        ("run", ["--input", "--output-dir", "--threads", "--reference", "--quantized-arithmetic"]),
        ("faces", ["--model", "--min-confidence"] + drawingOptions + batchOptions),
        ("hands", ["--model", "--num-hands"] + drawingOptions + batchOptions),
        ("face-landmarks", ["--model", "--num-faces", "--blendshapes", "--matrices"] + drawingOptions + batchOptions),
        ("gestures", ["--model", "--num-hands"] + drawingOptions + batchOptions),
        ("pose", ["--model", "--num-poses", "--segmentation-masks"] + drawingOptions + batchOptions),
        (
            "face-analyze",
            ["--accurate", "--landmarks", "--contours", "--classify", "--models"] + drawingOptions + batchOptions
        ),
        (
            "classify",
            ["--model", "--max-results", "--score-threshold", "--allow", "--deny", "--normalization", "--labels"]
                + batchOptions
        ),
        ("labels", ["--locale"]),
        (
            "objects",
            ["--model", "--max-results", "--score-threshold", "--allow", "--deny"] + drawingOptions + batchOptions
        ),
        ("embed", ["--model", "--l2-normalize", "--quantize"] + batchOptions),
        ("similarity", ["--model"]),
        ("segment", ["--model", "--out", "--background", "--video-out"] + batchOptions),
    ]

    @Test(arguments: subcommands.map(\.0))
    func everySubcommandHasHelp(_ name: String) throws {
        let options = try #require(Self.subcommands.first { $0.0 == name }?.1)
        for flag in ["--help", "-h"] {
            let run = try CLI.succeed([name, flag])
            #expect(run.stdout.hasPrefix("usage: purevision \(name) "), "\(name) \(flag): \(run.stdout.prefix(200))")
            let optionLines = run.lines.filter { $0.hasPrefix("  --") }
            for option in options {
                // Listed in the synopsis and described on a line of its own.
                #expect(run.stdout.contains("[\(option)"), "\(name): the synopsis lacks \(option)")
                #expect(
                    optionLines.contains { $0.hasPrefix("  \(option) ") && $0.count > option.count + 6 },
                    "\(name): no description of \(option)")
            }
        }
    }

    @Test func helpWinsOverTheOtherArguments() throws {
        // Nothing is read or run: the missing image is not an error.
        let run = try CLI.succeed(["hands", CLI.missingFile, "--num-hands", "2", "--help"])
        #expect(run.stdout.hasPrefix("usage: purevision hands"))
    }

    @Test func theUsageNamesEverySubcommand() throws {
        let usage = try CLI.succeed(["--help"])
        for (name, _) in Self.subcommands {
            #expect(usage.stdout.contains("purevision \(name) "), "usage lacks \(name)")
        }
        #expect(usage.stdout.contains("purevision SUBCOMMAND --help"))
    }
}
