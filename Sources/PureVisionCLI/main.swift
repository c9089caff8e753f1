import Foundation

/// `purevision`: the command-line face of the engine. Every failure prints one `error: …` line to stderr and exits
/// with a non-zero status.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    try CommandLineTool.run(arguments)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
