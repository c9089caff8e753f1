import Foundation
import PureVision
import PureVisionImage

/// `purevision faces IMAGE... [--model PATH] [--min-confidence X] [--out DIR] [--video-out PATH] [--json] …`
enum FacesCommand {
    static let subcommand = Subcommand(
        name: "faces", operands: "IMAGE...",
        summary: "Detect faces (MediaPipe's FaceDetector; default model: the bundled short-range BlazeFace). With "
            + #"--json one line per image: {"image","width","height","detections":[{"score","boundingBox":"#
            + #"[originX,originY,width,height] (pixels),"keypoints":[[x,y],...] (normalized)}]}. In --mode video the "#
            + "images are consecutive frames. --out writes an annotated PNG per image, --video-out an annotated video.",
        options: [
            .value("--model", "PATH", "the face detector .tflite (default: face_detection_short_range.tflite)"),
            .value("--min-confidence", "X", "the lowest detection score kept (default 0.5)"),
        ] + BatchOptions.drawingOptions(suffix: "faces", drawing: "each face's box, keypoints and score")
            + BatchOptions.options(video: true),
        readsImages: true, run: run)

    static func run(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(arguments, options: subcommand.options)
        let batch = try BatchOptions(parsed, modes: [.image, .video])
        var options = FaceDetectorOptions(
            baseOptions: BaseOptions(
                modelAssetPath: try parsed.single("--model") ?? BundledModels.path("face_detection_short_range.tflite"),
                threadCount: batch.threads),
            runningMode: batch.mode)
        if let text = try parsed.single("--min-confidence") {
            guard let value = Float(text) else { throw CommandLineError.usage("--min-confidence takes a number") }
            options.minDetectionConfidence = value
        }
        let outputDirectory = try OutputDirectory(parsed.single("--out"))
        try BatchRunner.run(command: "faces", positional: parsed.positional, options: batch) {
            let detector = try FaceDetector(options: options)
            return { item in
                let image = try item.image()
                let result =
                    batch.mode == .video
                    ? try detector.detect(videoFrame: image, timestampInMilliseconds: item.timestampInMilliseconds)
                    : try detector.detect(image: image)
                let drawing = batch.draws(outputDirectory) ? try annotate(image, result) : nil
                if let drawing { try outputDirectory?.write(drawing, for: item, suffix: "faces") }
                var text = "\(item.displayName): \(result.detections.count) face(s)"
                for detection in result.detections {
                    let b = detection.boundingBox
                    let score = detection.categories.first?.score ?? 0
                    text += "\n  score \(score)  box x \(b.originX) y \(b.originY) w \(b.width) h \(b.height)"
                }
                return ItemReport(
                    json: json(name: item.name, image: image, result: result), text: text, drawing: drawing)
            }
        }
    }

    static func json(name: String, image: PixelImage, result: FaceDetectorResult) -> String {
        let detections = result.detections.map { d in
            let b = d.boundingBox
            let keypoints = d.keypoints.map { "[\($0.x),\($0.y)]" }.joined(separator: ",")
            return
                #"{"score":\#(d.categories.first?.score ?? 0),"boundingBox":[\#(b.originX),\#(b.originY),\#(b.width),\#(b.height)],"keypoints":[\#(keypoints)]}"#
        }
        return
            #"{"image":\#(JSONText.quoted(name)),"width":\#(image.width),"height":\#(image.height),"detections":[\#(detections.joined(separator: ","))]}"#
    }

    /// Draws each face's box, keypoints and score on a copy of the image.
    static func annotate(_ image: PixelImage, _ result: FaceDetectorResult) throws -> PixelImage {
        var canvas = ImageCanvas(image: image)
        let thickness = max(2, min(image.width, image.height) / 200)
        let colors: [RGBColor] = [.red, .green, .blue, .yellow, .cyan, .magenta]
        for detection in result.detections {
            let b = detection.boundingBox
            canvas.drawRectangle(
                x: b.originX, y: b.originY, width: b.width, height: b.height, color: .green, thickness: thickness)
            for (index, point) in detection.keypoints.enumerated() {
                canvas.drawCircle(
                    center: (Double(point.x) * Double(image.width), Double(point.y) * Double(image.height)),
                    radius: Double(thickness * 2), color: colors[index % colors.count], filled: true, thickness: 1)
            }
            let score = detection.categories.first?.score ?? 0
            canvas.drawText(
                String(format: "%.2f", score), at: (x: b.originX, y: max(0, b.originY - 10 * max(1, thickness / 2))),
                color: .green, scale: max(1, thickness / 2))
        }
        return canvas.image
    }
}

/// Finds the bundled models: `Models/` in the current directory, or above the executable (a `swift build` tree).
enum BundledModels {
    static func path(_ name: String) -> String {
        let manager = FileManager.default
        let local = "Models/" + name
        if manager.fileExists(atPath: local) { return local }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Models").appendingPathComponent(name).path
            if manager.fileExists(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return local
    }
}

/// JSON string quoting for the CLI's hand-written JSON lines.
enum JSONText {
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20: out += String(format: "\\u%04x", s.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
