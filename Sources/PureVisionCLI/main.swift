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
    escapingControlCharacters(text) { scalar in
        scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : nil
    }
}

/// `text` with line feeds, carriage returns and tabs written as `\n`, `\r` and `\t`, and every other scalar for
/// which `escape` gives a replacement written as that replacement (the error line and the JSON strings escape
/// different characters, in different notations).
func escapingControlCharacters(_ text: String, _ escape: (Unicode.Scalar) -> String?) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if let replacement = escape(scalar) { out += replacement } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out
}
