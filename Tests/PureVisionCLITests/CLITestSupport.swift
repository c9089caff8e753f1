import Foundation
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Shared helpers for the `purevision` command-line tests: run the built binary as a subprocess, read its JSON lines,
/// make scratch directories and bad input files, and check error exits. Every subcommand's CLI tests (this file's
/// users: `CLICommandTests`, and the tests of new subcommands) use these, so that each checks the same contract:
/// JSON parsed and compared with the library's own results, `--out` files written, every error one `error: …`
/// line on stderr and exit status 1.
enum CLI {
    /// What one run of the binary produced.
    struct Output: CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String
        /// stdout as bytes (a YUV4MPEG2 stream from `--video-out -`).
        var stdoutBytes: [UInt8] = []

        /// stdout's non-empty lines.
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
        var description: String { "exit \(status)\nstdout: \(stdout.prefix(2000))\nstderr: \(stderr.prefix(2000))" }
    }

    /// The built `purevision` executable: beside the test bundle (`swift test` builds it with the test product,
    /// this target depends on it), in the same build directory.
    static func executable() throws -> String {
        var candidates: [URL] = []
        if let bundle = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(bundle.deletingLastPathComponent())
        }
        candidates.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        for directory in candidates {
            var url = directory
            // The xctest bundle may be a directory (Apple) whose executable sits a few levels down.
            for _ in 0..<4 {
                let path = url.appendingPathComponent("purevision").path
                if FileManager.default.isExecutableFile(atPath: path) { return path }
                url.deleteLastPathComponent()
            }
        }
        throw FixtureError.missing(
            "the purevision executable next to the test bundle (looked in \(candidates.map(\.path)))")
    }

    /// Runs `purevision arguments…` in the package root with `input` on standard input and waits for it (no
    /// deadline: a hang fails the suite's time limit, not a timing assertion).
    static func run(_ arguments: [String], input: [UInt8] = []) throws -> Output {
        try CLIProcess.run(arguments, input: input)
    }

    /// Runs a command that must succeed (exit 0, nothing on stderr) and returns its output.
    static func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Output {
        let output = try run(arguments)
        try #require(
            output.status == 0, "purevision \(arguments.joined(separator: " ")): \(output)",
            sourceLocation: sourceLocation)
        #expect(output.stderr.isEmpty, "stderr: \(output.stderr)", sourceLocation: sourceLocation)
        return output
    }

    /// Runs a command that must fail as documented: exit status 1, nothing on stdout beyond `allowedStdout` lines,
    /// and exactly one line on stderr, `error: …`, containing every fragment of `message`.
    @discardableResult
    static func fail(
        _ arguments: [String], message fragments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Output {
        let output = try run(arguments)
        let command = "purevision \(arguments.joined(separator: " "))"
        #expect(output.status == 1, "\(command): \(output)", sourceLocation: sourceLocation)
        let errorLines = output.stderr.split(separator: "\n")
        #expect(
            errorLines.count == 1 && output.stderr.hasPrefix("error: "), "\(command): \(output)",
            sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                output.stderr.contains(fragment), "\(command): stderr lacks '\(fragment)': \(output.stderr)",
                sourceLocation: sourceLocation)
        }
        return output
    }

    /// stdout's lines, each parsed as one JSON object.
    static func jsonLines(_ output: Output, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]]
    {
        try output.lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)", sourceLocation: sourceLocation)
        }
    }

    /// A fresh, empty scratch directory (removed by the caller with `FileManager.removeItem`).
    static func scratchDirectory(_ label: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("purevision-cli-\(label)-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A file in `directory` that is not an image (text with an image's extension).
    static func notAnImage(in directory: String, name: String = "not_an_image.png") throws -> String {
        let path = (directory as NSString).appendingPathComponent(name)
        try "this is not an image\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A path that does not exist.
    static let missingFile = "/nonexistent-purevision-test/missing.png"

    /// A fixture below `Tests/` (absolute, so the subprocess's working directory does not matter).
    static func fixture(_ relativePath: String) -> String { Fixtures.testFile(relativePath) }

    /// Checks a `--out` image: it exists, decodes, has the input's size, and differs from the input (something was
    /// drawn).
    static func expectAnnotatedImage(
        at path: String, like input: PixelImage, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(FileManager.default.fileExists(atPath: path), "\(path) was not written", sourceLocation: sourceLocation)
        let written = try PixelImage(contentsOfFile: path).converted(to: .rgb8)
        #expect(written.width == input.width && written.height == input.height, sourceLocation: sourceLocation)
        let original = input.converted(to: .rgb8).ownedCopy().withUnsafePixels { Array($0) }
        let drawn = written.ownedCopy().withUnsafePixels { Array($0) }
        #expect(original != drawn, "\(path) has no annotation", sourceLocation: sourceLocation)
    }

    /// A JSON number as a Float (the CLI prints Swift's shortest round-trip form, so this is exact).
    static func float(_ value: Any?) -> Float? { (value as? NSNumber).map { Float(truncating: $0) } }

    /// A JSON array of numbers as Floats.
    static func floats(_ value: Any?) -> [Float]? {
        (value as? [Any])?.compactMap { float($0) }
    }
}
