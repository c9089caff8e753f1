import Foundation
import PureVision
import PureVisionImage

/// `purevision objects IMAGE... [--model PATH] [--max-results K] [--score-threshold X] [--allow a,b] [--deny a,b]
/// [--out DIR] [--video-out PATH] [--json] …`
///
/// Without `--max-results` the human-readable output lists the 5 best detections (MediaPipe's default, every
/// suppression survivor, is often over a thousand boxes); `--json` and `--out` keep MediaPipe's defaults.
enum ObjectsCommand {
    static let humanDefaultMaxResults = 5

    static let subcommand = Subcommand.drawingTask(
        name: "objects",
        summary: "Detect objects (MediaPipe's ObjectDetector; default model: the bundled efficientdet_lite0). The "
            + "human-readable listing shows the 5 best unless --max-results is given; with --json (MediaPipe's "
            + #"defaults: every detection) one line per image: {"image","width","height","detections":[{"#
            + #""boundingBox":[x,y,w,h] (pixels),"categories":[{"index","score","categoryName"}]}]}. --out draws "#
            + "labelled boxes, --video-out makes a video of them.",
        options: [
            .value("--model", "PATH", "the object detector .tflite (default: efficientdet_lite0.tflite)")
        ] + ClassifyCommand.categoryOptions(results: "detections"),
        drawingSuffix: "objects", drawing: "each detection's box, label and score", run: run)

    static func run(_ command: TaskCommandLine) throws {
        var options = ObjectDetectorOptions(
            baseOptions: try command.baseOptions(defaultModel: "efficientdet_lite0.tflite"),
            runningMode: command.batch.mode)
        if let value = try command.parsed.integer("--max-results") {
            options.maxResults = value
        } else if !command.batch.json {
            options.maxResults = humanDefaultMaxResults
        }
        if let value = try command.parsed.number("--score-threshold") { options.scoreThreshold = value }
        options.categoryAllowlist = ClassifyCommand.names(try command.parsed.single("--allow"))
        options.categoryDenylist = ClassifyCommand.names(try command.parsed.single("--deny"))
        let outputDirectory = try OutputDirectory(command.parsed.single("--out"))
        try command.runFrames(
            ObjectDetector.self, options: options, outputDirectory: outputDirectory, annotate: annotate
        ) { item, image, result in
            var lines = ["\(item.displayName): \(result.detections.count) object(s)"]
            for detection in result.detections {
                let b = detection.boundingBox
                let c = detection.categories.first
                let label = c?.displayName ?? c?.categoryName ?? "#\(c?.index ?? -1)"
                lines.append(
                    "  \(String(format: "%.4f", c?.score ?? 0))  \(label)  box x \(b.originX) y \(b.originY) "
                        + "w \(b.width) h \(b.height)")
            }
            return ItemReport(
                json: json(name: item.name, image: image, result: result), text: lines.joined(separator: "\n"))
        }
    }

    static func json(name: String, image: PixelImage, result: ObjectDetectorResult) -> String {
        let detections = result.detections.map { d in
            let b = d.boundingBox
            let categories = d.categories.map { JSONText.category($0) }
            return
                #"{"boundingBox":[\#(b.originX),\#(b.originY),\#(b.width),\#(b.height)],"categories":[\#(categories.joined(separator: ","))]}"#
        }
        return JSONText.imageLine(name, image, #""detections":[\#(detections.joined(separator: ","))]"#)
    }

    /// Draws each detection's box with its label and score on a copy of the image.
    static func annotate(_ image: PixelImage, _ result: ObjectDetectorResult) throws -> PixelImage {
        var canvas = ImageCanvas(image: image)
        let thickness = max(2, min(image.width, image.height) / 200)
        let colors: [RGBColor] = [.green, .red, .blue, .yellow, .cyan, .magenta]
        for (index, detection) in result.detections.enumerated() {
            let b = detection.boundingBox
            let color = colors[index % colors.count]
            canvas.drawRectangle(
                x: b.originX, y: b.originY, width: b.width, height: b.height, color: color, thickness: thickness)
            let c = detection.categories.first
            let label = "\(c?.categoryName ?? "#\(c?.index ?? -1)") \(String(format: "%.2f", c?.score ?? 0))"
            canvas.drawText(
                label, at: (x: b.originX + thickness, y: b.originY + thickness), color: color,
                scale: max(1, thickness / 2))
        }
        return canvas.image
    }
}
