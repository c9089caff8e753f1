import PureVision

/// `purevision labels MODEL [--locale L]`: prints a classifier's labels, one per line in class-index order (the name,
/// then a tab and the display name when the model has display names for the locale). Heads are introduced by a
/// `# head I NAME` line when the model has more than one.
enum LabelsCommand {
    static let subcommand = Subcommand(
        name: "labels", operands: "MODEL",
        summary: "Print a model's labels (from its metadata), one per line in class-index order: the name, then a tab "
            + "and the display name when the model has display names for the locale. Heads are introduced by a "
            + "'# head I NAME' line when the model has more than one.",
        options: [.value("--locale", "L", "the locale of the display names (default en)")],
        readsImages: false, run: run)

    static func run(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(arguments, options: subcommand.options)
        guard parsed.positional.count == 1 else {
            throw CommandLineError.usage("labels takes exactly one MODEL, got \(parsed.positional.count)")
        }
        let path = parsed.positional[0]
        let heads = try ImageClassifier.labels(
            of: BaseOptions(modelAssetPath: path), displayNamesLocale: try parsed.single("--locale") ?? "en")
        guard heads.contains(where: { !$0.names.isEmpty }) else {
            throw CommandLineError.file(
                "'\(path)' has no labels: its metadata names no TENSOR_AXIS_LABELS file for any output, so its "
                    + "categories have indices only")
        }
        for head in heads {
            if heads.count > 1 { print("# head \(head.headIndex) \(head.headName ?? "")") }
            for (index, name) in head.names.enumerated() {
                if let display = head.displayNames?[index] { print("\(name)\t\(display)") } else { print(name) }
            }
        }
    }
}
