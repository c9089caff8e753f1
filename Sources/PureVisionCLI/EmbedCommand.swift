import Foundation
import PureVision
import PureVisionImage

/// `purevision embed IMAGE... [--model PATH] [--l2-normalize] [--quantize] [--json]` and
/// `purevision similarity IMAGE_A IMAGE_B [--model PATH]`.
enum EmbedCommand {
    static let subcommand = Subcommand(
        name: "embed", operands: "IMAGE...",
        summary:
            "Image embeddings (MediaPipe's ImageEmbedder; default model: the bundled efficientnet_lite0_embedder). "
            + #"With --json one line per image: {"image","embeddings":[{"headIndex","headName","floatEmbedding"|"#
            + #""quantizedEmbedding":[...]}]}."#,
        options: [
            .value("--model", "PATH", "the embedder .tflite (default: efficientnet_lite0_embedder.tflite)"),
            .flag("--l2-normalize", "scale each embedding to length 1"),
            .flag("--quantize", "int8 embeddings instead of floats"),
        ] + BatchOptions.options(video: false),
        readsImages: true, run: run)

    static let similaritySubcommand = Subcommand(
        name: "similarity", operands: "IMAGE_A IMAGE_B",
        summary: "The cosine similarity of two images' embeddings.",
        options: [.value("--model", "PATH", "the embedder .tflite (default: efficientnet_lite0_embedder.tflite)")],
        readsImages: false, run: similarity)

    static func embedder(
        _ parsed: ParsedArguments, l2Normalize: Bool, quantize: Bool, threads: Int = 1
    ) throws -> ImageEmbedder {
        try ImageEmbedder(
            options: ImageEmbedderOptions(
                baseOptions: BaseOptions(
                    modelAssetPath: try parsed.single("--model")
                        ?? BundledModels.path("efficientnet_lite0_embedder.tflite"),
                    threadCount: threads),
                l2Normalize: l2Normalize, quantize: quantize))
    }

    static func run(_ arguments: [String]) throws {
        let command = try TaskCommandLine(arguments, of: subcommand)
        let parsed = command.parsed
        try command.run {
            let embedder = try embedder(
                parsed, l2Normalize: parsed.flags.contains("--l2-normalize"),
                quantize: parsed.flags.contains("--quantize"), threads: command.batch.threads)
            return { item in
                let result = try embedder.embed(image: try item.image())
                var lines = ["\(item.displayName):"]
                for e in result.embeddings {
                    let head = "  head \(e.headIndex)\(e.headName.map { " '\($0)'" } ?? "")"
                    if let floats = e.floatEmbedding {
                        let norm = floats.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot()
                        let first = floats.prefix(6).map { String(format: "%.5f", $0) }.joined(separator: " ")
                        lines.append(
                            "\(head): \(floats.count) floats, L2 norm \(String(format: "%.5f", norm)), first: \(first)")
                    } else if let bytes = e.quantizedEmbedding {
                        let first = bytes.prefix(8).map(String.init).joined(separator: " ")
                        lines.append("\(head): \(bytes.count) int8 values, first: \(first)")
                    }
                }
                return ItemReport(json: json(name: item.name, result: result), text: lines.joined(separator: "\n"))
            }
        }
    }

    static func similarity(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(arguments, options: similaritySubcommand.options)
        guard parsed.positional.count == 2 else {
            throw CommandLineError.usage("similarity needs exactly two images: IMAGE_A IMAGE_B")
        }
        let embedder = try embedder(parsed, l2Normalize: false, quantize: false)
        let a = try embedder.embed(image: try PixelImage(contentsOfFile: parsed.positional[0]))
        let b = try embedder.embed(image: try PixelImage(contentsOfFile: parsed.positional[1]))
        guard let u = a.embeddings.first, let v = b.embeddings.first else {
            throw CommandLineError.file("the model produced no embedding")
        }
        print(try ImageEmbedder.cosineSimilarity(u, v))
    }

    static func json(name: String, result: ImageEmbedderResult) -> String {
        let heads = result.embeddings.map { e in
            let values: String
            if let floats = e.floatEmbedding {
                values = #""floatEmbedding":[\#(floats.map { "\($0)" }.joined(separator: ","))]"#
            } else {
                values =
                    #""quantizedEmbedding":[\#((e.quantizedEmbedding ?? []).map(String.init).joined(separator: ","))]"#
            }
            return #"{"headIndex":\#(e.headIndex),"headName":\#(JSONText.quoted(e.headName ?? "")),\#(values)}"#
        }
        return #"{"image":\#(JSONText.quoted(name)),"embeddings":[\#(heads.joined(separator: ","))]}"#
    }
}
