import Foundation
import PureVision
import PureVisionCore
import PureVisionImage

/// `purevision segment IMAGE... [--model PATH] [--json] [--out DIR] [--background blur|#RRGGBB|IMAGE]`
enum SegmentCommand {
    static func run(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(
            arguments, valueOptions: BatchOptions.valueOptions.union(["--model", "--out", "--background"]),
            flagOptions: BatchOptions.flagOptions)
        let batch = try BatchOptions(parsed, modes: [.image, .video])
        let options = ImageSegmenterOptions(
            baseOptions: BaseOptions(
                modelAssetPath: try parsed.single("--model") ?? BundledModels.path("selfie_segmenter.tflite"),
                threadCount: batch.threads),
            runningMode: batch.mode, outputCategoryMask: true, outputConfidenceMasks: true)
        let background = try parsed.single("--background").map(BackgroundReplacement.init(argument:))
        let outputDirectory = try OutputDirectory(parsed.single("--out"))
        if background != nil && outputDirectory == nil {
            throw CommandLineError.usage("--background writes a composited PNG: it needs --out DIR")
        }
        try BatchRunner.run(command: "segment", positional: parsed.positional, options: batch) {
            let segmenter = try ImageSegmenter(options: options)
            let labels =
                segmenter.labels.count == segmenter.classCount
                ? segmenter.labels : (0..<segmenter.classCount).map { String($0) }
            return { item in
                let image = try item.image()
                let result =
                    batch.mode == .video
                    ? try segmenter.segment(videoFrame: image, timestampInMilliseconds: item.timestampInMilliseconds)
                    : try segmenter.segment(image: image)
                guard let category = result.categoryMask, let masks = result.confidenceMasks else {
                    throw CommandLineError.file("the segmenter returned no masks")
                }
                let counts = pixelCounts(category, classCount: segmenter.classCount)
                if let outputDirectory {
                    try PixelImage(
                        width: category.width, height: category.height, format: .gray8, pixels: category.values
                    ).writePNG(toFile: outputDirectory.file(for: item, suffix: "category.png"))
                    try writeConfidence(masks, to: outputDirectory.file(for: item, suffix: "confidence.npy"))
                    if let background {
                        let alpha = foregroundAlpha(masks, labels: segmenter.labels)
                        try outputDirectory.write(
                            background.composite(image, foreground: alpha), for: item, suffix: "background")
                    }
                }
                let quotedLabels = labels.map(JSONText.quoted).joined(separator: ",")
                let countText = counts.map(String.init).joined(separator: ",")
                let total = Double(max(1, image.width * image.height))
                let present = zip(labels, counts).filter { $0.1 > 0 }
                    .map { "\($0.0) \(String(format: "%.1f", Double($0.1) / total * 100))%" }
                return ItemReport(
                    json:
                        #"{"image":\#(JSONText.quoted(item.name)),"width":\#(image.width),"height":\#(image.height),"labels":[\#(quotedLabels)],"categoryPixelCounts":[\#(countText)]}"#,
                    text: "\(item.displayName): \(image.width)x\(image.height), \(present.joined(separator: ", "))")
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
