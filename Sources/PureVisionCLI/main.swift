import Foundation

/// `purevision`: the command-line face of the engine. Every failure prints one `error: …` line to stderr and exits
/// with status 1.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    try CommandLineTool.run(arguments)
} catch {
    FileHandle.standardError.write(Data("error: \(singleLine("\(error)"))\n".utf8))
    exit(1)
}

/// `text` with control characters escaped (`\n`, `\u{1A}` …), so that a message quoting bytes of a bad file (a PNG
/// signature given as a model, say) stays on one line.
func singleLine(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case let s where s.value < 0x20 || s.value == 0x7F: out += "\\u{\(String(s.value, radix: 16, uppercase: true))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
