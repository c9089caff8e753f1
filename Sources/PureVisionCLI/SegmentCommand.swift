import Foundation
import PureVision
import PureVisionCore
import PureVisionImage

/// `purevision segment IMAGE... [--model PATH] [--out DIR] [--background blur|#RRGGBB|IMAGE] [--video-out PATH]
/// [--json] …`
enum SegmentCommand {
    static let subcommand = Subcommand(
        name: "segment", operands: "IMAGE...",
        summary: "Segment images (MediaPipe's ImageSegmenter; default model: the bundled selfie_segmenter). With "
            + #"--json one line per image: {"image","width","height","labels":[...],"categoryPixelCounts":[...]} "#
            + "(pixels per label; a one-class model's background is not counted). --out DIR writes "
            + "DIR/<stem>_category.png (the 8-bit category mask as MediaPipe gives it: class indices, or 0 = the "
            + "class and 255 = background for a one-class model), DIR/<stem>_confidence.npy (float32 H x W x K) and, "
            + "with --background, DIR/<stem>_background.png: the foreground kept over the blurred image, a colour or "
            + "another image, blended by the confidence mask. With --background, --video-out makes a video of it.",
        options: [
            .value("--model", "PATH", "the segmenter .tflite (default: selfie_segmenter.tflite)"),
            .value("--out", "DIR", "writes the category mask, the confidence masks and the --background picture"),
            .value("--background", "blur|#RRGGBB|IMAGE", "what replaces the background (needs --out or --video-out)"),
            .value(
                "--video-out", "PATH",
                BatchOptions.videoOutHelp(showing: "the frames with their background replaced (needs --background)")),
        ] + BatchOptions.options(video: true),
        readsImages: true, run: run)

    static func run(_ arguments: [String]) throws {
        let command = try TaskCommandLine(arguments, of: subcommand, modes: [.image, .video])
        let batch = command.batch
        let options = ImageSegmenterOptions(
            baseOptions: try command.baseOptions(defaultModel: "selfie_segmenter.tflite"),
            runningMode: batch.mode, outputCategoryMask: true, outputConfidenceMasks: true)
        let background = try command.parsed.single("--background").map(BackgroundReplacement.init(argument:))
        let outputDirectory = try OutputDirectory(command.parsed.single("--out"))
        if background != nil && !batch.draws(outputDirectory) {
            throw CommandLineError.usage("--background writes a composited picture: it needs --out DIR or --video-out")
        }
        if batch.videoOut != nil && background == nil {
            throw CommandLineError.usage("--video-out of segment shows the --background replacement: give --background")
        }
        try command.run {
            let segmenter = try ImageSegmenter(options: options)
            let labels =
                segmenter.labels.count == segmenter.classCount
                ? segmenter.labels : (0..<segmenter.classCount).map { String($0) }
            return { item in
                let image = try item.image()
                let result = try segmenter.process(image, of: item, mode: batch.mode)
                guard let category = result.categoryMask, let masks = result.confidenceMasks else {
                    throw CommandLineError.file("the segmenter returned no masks")
                }
                let counts = pixelCounts(category, classCount: segmenter.classCount)
                let drawing = try background?.composite(
                    image, foreground: foregroundAlpha(masks, labels: segmenter.labels))
                if let outputDirectory {
                    try PixelImage(
                        width: category.width, height: category.height, format: .gray8, pixels: category.values
                    ).writePNG(toFile: outputDirectory.file(for: item, suffix: "category.png"))
                    try writeConfidence(masks, to: outputDirectory.file(for: item, suffix: "confidence.npy"))
                    if let drawing { try outputDirectory.write(drawing, for: item, suffix: "background") }
                }
                let quotedLabels = labels.map(JSONText.quoted).joined(separator: ",")
                let countText = counts.map(String.init).joined(separator: ",")
                let total = Double(max(1, image.width * image.height))
                let present = zip(labels, counts).filter { $0.1 > 0 }
                    .map { "\($0.0) \(String(format: "%.1f", Double($0.1) / total * 100))%" }
                return ItemReport(
                    json: JSONText.imageLine(
                        item.name, image, #""labels":[\#(quotedLabels)],"categoryPixelCounts":[\#(countText)]"#),
                    text: "\(item.displayName): \(image.width)x\(image.height), \(present.joined(separator: ", "))",
                    drawing: drawing)
            }
        }
    }

    /// Pixels per class: a multi-class mask's value is the class index; a one-class mask marks its class with 0
    /// (MediaPipe's convention; 255 is background, not counted).
    static func pixelCounts(_ mask: CategoryMask, classCount: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: max(1, classCount))
        for value in mask.values {
            if classCount == 1 {
                if value == 0 { counts[0] += 1 }
            } else if Int(value) < counts.count {
                counts[Int(value)] += 1
            }
        }
        return counts
    }

    /// The confidence masks as one float32 `.npy` array, height × width × classes.
    static func writeConfidence(_ masks: [ConfidenceMask], to path: String) throws {
        guard let first = masks.first else { return }
        let (width, height, k) = (first.width, first.height, masks.count)
        var values = [Float](repeating: 0, count: width * height * k)
        for (c, mask) in masks.enumerated() {
            for p in 0..<(width * height) { values[p * k + c] = mask.values[p] }
        }
        let tensor = try Tensor(shape: TensorShape([height, width, k]), floats: values)
        guard FileManager.default.createFile(atPath: path, contents: Data(NumpyFile.encode(tensor))) else {
            throw CommandLineError.file("cannot write '\(path)'")
        }
    }

    /// How much of each pixel is foreground: the class's confidence for a one-class model, else 1 minus the
    /// confidence of the "background" class (class 0 when no label says "background").
    static func foregroundAlpha(_ masks: [ConfidenceMask], labels: [String]) -> [Float] {
        guard let first = masks.first else { return [] }
        if masks.count == 1 { return first.values.map { min(max($0, 0), 1) } }
        let background = labels.firstIndex(of: "background") ?? 0
        return masks[background].values.map { 1 - min(max($0, 0), 1) }
    }
}
