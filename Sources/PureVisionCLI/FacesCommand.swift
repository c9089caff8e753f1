import Foundation
import PureVision
import PureVisionImage

/// `purevision faces IMAGE... [--model PATH] [--min-confidence X] [--out DIR] [--video-out PATH] [--json] …`
enum FacesCommand {
    static let subcommand = Subcommand.drawingTask(
        name: "faces",
        summary: "Detect faces (MediaPipe's FaceDetector; default model: the bundled short-range BlazeFace). With "
            + #"--json one line per image: {"image","width","height","detections":[{"score","boundingBox":"#
            + #"[originX,originY,width,height] (pixels),"keypoints":[[x,y],...] (normalized)}]}. In --mode video the "#
            + "images are consecutive frames. --out writes an annotated PNG per image, --video-out an annotated video.",
        options: [
            .value("--model", "PATH", "the face detector .tflite (default: face_detection_short_range.tflite)"),
            .value("--min-confidence", "X", "the lowest detection score kept (default 0.5)"),
        ],
        drawingSuffix: "faces", drawing: "each face's box, keypoints and score", run: run)

    static func run(_ command: TaskCommandLine) throws {
        var options = FaceDetectorOptions(
            baseOptions: try command.baseOptions(defaultModel: "face_detection_short_range.tflite"),
            runningMode: command.batch.mode)
        if let value = try command.parsed.number("--min-confidence") { options.minDetectionConfidence = value }
        let outputDirectory = try OutputDirectory(command.parsed.single("--out"))
        try command.runFrames(
            FaceDetector.self, options: options, outputDirectory: outputDirectory, annotate: annotate
        ) { item, image, result in
            var text = "\(item.displayName): \(result.detections.count) face(s)"
            for detection in result.detections {
                let b = detection.boundingBox
                let score = detection.categories.first?.score ?? 0
                text += "\n  score \(score)  box x \(b.originX) y \(b.originY) w \(b.width) h \(b.height)"
            }
            return ItemReport(json: json(name: item.name, image: image, result: result), text: text)
        }
    }

    static func json(name: String, image: PixelImage, result: FaceDetectorResult) -> String {
        let detections = result.detections.map { d in
            let b = d.boundingBox
            let keypoints = d.keypoints.map { "[\($0.x),\($0.y)]" }.joined(separator: ",")
            return
                #"{"score":\#(d.categories.first?.score ?? 0),"boundingBox":[\#(b.originX),\#(b.originY),\#(b.width),\#(b.height)],"keypoints":[\#(keypoints)]}"#
        }
        return JSONText.imageLine(name, image, #""detections":[\#(detections.joined(separator: ","))]"#)
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
