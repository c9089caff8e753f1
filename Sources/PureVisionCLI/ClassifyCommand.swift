import Foundation
import PureVision
import PureVisionImage

/// `purevision classify IMAGE... [--model PATH] [--max-results K] [--score-threshold X] [--allow a,b] [--deny a,b]
/// [--normalization MEAN,STD] [--labels FILE] [--json]`
///
/// `--normalization` and `--labels` serve models without metadata, e.g. the int8
/// `efficientnet_lite0_int8.tflite`: `--normalization 127,128 --labels labels.txt`.
enum ClassifyCommand {
    static let subcommand = Subcommand(
        name: "classify", operands: "IMAGE...",
        summary: "Classify images (MediaPipe's ImageClassifier; default model: the bundled efficientnet_lite0). The "
            + "human-readable listing shows the 5 best unless --max-results is given. With --json one line per image: "
            + #"{"image","classifications":[{"headIndex","headName","categories":[{"index","score","categoryName","#
            + #""displayName"}]}]}."#,
        options: [
            .value("--model", "PATH", "the classifier .tflite (default: efficientnet_lite0.tflite)")
        ] + categoryOptions(results: "categories") + [
            .value("--normalization", "MEAN,STD", "the input normalization of a model without metadata (127,128)"),
            .value("--labels", "FILE", "category names, one per line, for a model without metadata"),
        ] + BatchOptions.options(video: false),
        readsImages: true, run: run)

    /// `--max-results`, `--score-threshold`, `--allow` and `--deny`, shared with `objects`, whose results are
    /// `results`.
    static func categoryOptions(results: String) -> [CommandOption] {
        [
            .value("--max-results", "K", "the K best \(results) (default: every one; 5 in the text listing)"),
            .value("--score-threshold", "X", "the lowest score kept"),
            .value("--allow", "a,b", "only these category names"),
            .value("--deny", "a,b", "not these category names"),
        ]
    }

    static func run(_ arguments: [String]) throws {
        let command = try TaskCommandLine(arguments, of: subcommand)
        let parsed = command.parsed
        var options = ImageClassifierOptions(
            baseOptions: try command.baseOptions(defaultModel: "efficientnet_lite0.tflite"))
        if let value = try parsed.integer("--max-results") {
            options.maxResults = value
        } else if !command.batch.json {
            // Human-readable output shows the few best; --json keeps MediaPipe's default (every category).
            options.maxResults = humanDefaultMaxResults
        }
        if let value = try parsed.number("--score-threshold") { options.scoreThreshold = value }
        if let text = try parsed.single("--normalization") {
            let parts = text.split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, parts[1] != 0 else {
                throw CommandLineError.usage("--normalization takes MEAN,STD (e.g. 127,128), got '\(text)'")
            }
            options.inputNormalization = InputNormalization(mean: parts[0], std: parts[1])
        }
        options.labelsFilePath = try parsed.single("--labels")
        options.categoryAllowlist = try names(parsed.single("--allow"))
        options.categoryDenylist = try names(parsed.single("--deny"))
        try command.run {
            let classifier = try ImageClassifier(options: options)
            return { item in
                let result = try classifier.classify(image: try item.image())
                var lines = ["\(item.displayName):"]
                for head in result.classifications {
                    if result.classifications.count > 1 {
                        lines.append("  head \(head.headIndex) \(head.headName ?? "")")
                    }
                    for category in head.categories {
                        let label =
                            category.displayName.flatMap { $0.isEmpty ? nil : $0 }
                            ?? category.categoryName ?? "#\(category.index)"
                        lines.append("  \(String(format: "%.4f", category.score))  \(label) (\(category.index))")
                    }
                }
                return ItemReport(json: json(name: item.name, result: result), text: lines.joined(separator: "\n"))
            }
        }
    }

    /// How many categories the human-readable output shows when `--max-results` is not given.
    static let humanDefaultMaxResults = 5

    /// A comma-separated list of category names (names may contain spaces; empty items are dropped).
    static func names(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func json(name: String, result: ImageClassifierResult) -> String {
        let heads = result.classifications.map { head in
            let categories = head.categories.map { c in
                #"{"index":\#(c.index),"score":\#(c.score),"categoryName":\#(JSONText.quoted(c.categoryName ?? "")),"displayName":\#(JSONText.quoted(c.displayName ?? ""))}"#
            }
            return
                #"{"headIndex":\#(head.headIndex),"headName":\#(JSONText.quoted(head.headName ?? "")),"categories":[\#(categories.joined(separator: ","))]}"#
        }
        return #"{"image":\#(JSONText.quoted(name)),"classifications":[\#(heads.joined(separator: ","))]}"#
    }
}
