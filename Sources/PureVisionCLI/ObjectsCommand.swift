import Foundation
import PureVision
import PureVisionImage

/// `purevision objects IMAGE... [--model PATH] [--max-results K] [--score-threshold X] [--allow a,b] [--deny a,b]
/// [--json] [--out DIR]`
///
/// Without `--max-results` the human-readable output lists the 5 best detections (MediaPipe's default, every
/// suppression survivor, is often over a thousand boxes); `--json` and `--out` keep MediaPipe's defaults.
enum ObjectsCommand {
    static let humanDefaultMaxResults = 5

    static func run(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(
            arguments,
            valueOptions: ["--model", "--max-results", "--score-threshold", "--allow", "--deny", "--out"],
            flagOptions: ["--json"])
        guard !parsed.positional.isEmpty else { throw CommandLineError.usage("objects needs at least one IMAGE") }
        let json = parsed.flags.contains("--json")
        var options = ObjectDetectorOptions(
            baseOptions: BaseOptions(
                modelAssetPath: try parsed.single("--model") ?? BundledModels.path("efficientdet_lite0.tflite")))
        if let text = try parsed.single("--max-results") {
            guard let value = Int(text) else { throw CommandLineError.usage("--max-results takes an integer") }
            options.maxResults = value
        } else if !json {
            options.maxResults = humanDefaultMaxResults
        }
        if let text = try parsed.single("--score-threshold") {
            guard let value = Float(text) else { throw CommandLineError.usage("--score-threshold takes a number") }
            options.scoreThreshold = value
        }
        options.categoryAllowlist = ClassifyCommand.names(try parsed.single("--allow"))
        options.categoryDenylist = ClassifyCommand.names(try parsed.single("--deny"))
        let detector = try ObjectDetector(options: options)
        let outputDirectory = try parsed.single("--out")
        if let outputDirectory {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        }
        for path in parsed.positional {
            let image = try PixelImage(contentsOfFile: path)
            let result = try detector.detect(image: image)
            let name = (path as NSString).lastPathComponent
            if json {
                print(self.json(name: name, image: image, result: result))
            } else {
                print("\(name): \(result.detections.count) object(s)")
                for detection in result.detections {
                    let b = detection.boundingBox
                    let c = detection.categories.first
                    let label = c?.displayName ?? c?.categoryName ?? "#\(c?.index ?? -1)"
                    print(
                        "  \(String(format: "%.4f", c?.score ?? 0))  \(label)  box x \(b.originX) y \(b.originY) "
                            + "w \(b.width) h \(b.height)")
                }
            }
            if let outputDirectory {
                let stem = (name as NSString).deletingPathExtension
                let destination = (outputDirectory as NSString).appendingPathComponent("\(stem)_objects.png")
                try annotate(image, result).writePNG(toFile: destination)
            }
        }
    }

    static func json(name: String, image: PixelImage, result: ObjectDetectorResult) -> String {
        let detections = result.detections.map { d in
            let b = d.boundingBox
            let categories = d.categories.map { c in
                #"{"index":\#(c.index),"score":\#(c.score),"categoryName":\#(JSONText.quoted(c.categoryName ?? ""))}"#
            }
            return
                #"{"boundingBox":[\#(b.originX),\#(b.originY),\#(b.width),\#(b.height)],"categories":[\#(categories.joined(separator: ","))]}"#
        }
        return
            #"{"image":\#(JSONText.quoted(name)),"width":\#(image.width),"height":\#(image.height),"detections":[\#(detections.joined(separator: ","))]}"#
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
