import Foundation
import PureVision
import PureVisionImage

/// `purevision face-landmarks IMAGE... [--model PATH] [--num-faces N] [--blendshapes] [--matrices]
/// [--mode image|video] [--json] [--out DIR]`
enum FaceLandmarksCommand {
    static let subcommand = Subcommand.drawingTask(
        name: "face-landmarks",
        summary: "Face landmarks (MediaPipe's FaceLandmarker; default model: the bundled face_landmarker.task): 478 "
            + "landmarks per face, with --blendshapes the 52 blendshape scores, with --matrices the 4x4 facial "
            + "transformation matrix (row-major, translation in cm). With --json one line per image: "
            + #"{"image","width","height","timestampMs","faces":[{"landmarks":[[x,y,z]...478],"blendshapes":"#
            + #"[{"index","score","categoryName"}...52],"transformationMatrix":[16 numbers]}]} (the last two only "#
            + "when asked for). In --mode video the inputs are consecutive frames, tracked (and with one face "
            + "smoothed) as MediaPipe does. --out draws the contours and irises and lists the top blendshapes; "
            + "--video-out makes a video of them.",
        options: [
            .value("--model", "PATH", "the face landmarker .task bundle (default: face_landmarker.task)"),
            .value("--num-faces", "N", "the most faces found per image (default 1)"),
            .flag("--blendshapes", "the 52 blendshape scores of each face"),
            .flag("--matrices", "the facial transformation matrix of each face"),
        ],
        drawingSuffix: "face_landmarks", drawing: "each face's contours and irises, and its top blendshapes", run: run)

    /// How many blendshapes `--out` lists per face, highest score first.
    static let listedBlendshapes = 6

    static func run(_ command: TaskCommandLine) throws {
        let outputDirectory = try OutputDirectory(command.parsed.single("--out"))
        let wantsBlendshapes = command.parsed.flags.contains("--blendshapes")
        let wantsMatrices = command.parsed.flags.contains("--matrices")
        var options = FaceLandmarkerOptions(
            baseOptions: try command.baseOptions(defaultModel: "face_landmarker.task"),
            runningMode: command.batch.mode,
            // The picture lists the top blendshapes, so --out computes them even when the JSON does not show them.
            outputFaceBlendshapes: wantsBlendshapes || command.batch.draws(outputDirectory),
            outputFacialTransformationMatrixes: wantsMatrices)
        if let value = try command.parsed.positiveInteger("--num-faces") { options.numFaces = value }
        try command.runFrames(
            FaceLandmarker.self, options: options, outputDirectory: outputDirectory, annotate: annotate
        ) { item, image, result in
            var lines = ["\(item.displayName): \(result.faceLandmarks.count) face(s)"]
            for (face, scores) in result.faceBlendshapes.enumerated() where wantsBlendshapes {
                lines.append(
                    "  face \(face): "
                        + top(scores).map { "\($0.name) \(String(format: "%.2f", $0.score))" }
                        .joined(separator: ", "))
            }
            for (face, matrix) in result.facialTransformationMatrixes.enumerated() where wantsMatrices {
                lines.append(
                    String(
                        format: "  face %d: translation (%.2f, %.2f, %.2f) cm", face, matrix[0, 3], matrix[1, 3],
                        matrix[2, 3]))
            }
            return ItemReport(
                json: json(
                    name: item.name, image: image, timestamp: item.timestampInMilliseconds, result: result,
                    blendshapes: wantsBlendshapes, matrices: wantsMatrices),
                text: lines.joined(separator: "\n"))
        }
    }

    /// One JSON line: `{"image","width","height","timestampMs","faces":[{"landmarks":[[x,y,z]…478],
    /// "blendshapes":[{"index","score","categoryName"}…52],"transformationMatrix":[16 numbers, row-major]}]}`; the
    /// last two only when asked for. A face without a matrix (MediaPipe skips faces too compact to fit) has none.
    static func json(
        name: String, image: PixelImage, timestamp: Int, result: FaceLandmarkerResult, blendshapes: Bool,
        matrices: Bool
    ) -> String {
        // Matrices are listed per face only when every face has one; MediaPipe's list skips compact faces.
        let matrixPerFace = result.facialTransformationMatrixes.count == result.faceLandmarks.count
        let faces = result.faceLandmarks.enumerated().map { index, landmarks -> String in
            var fields = [#""landmarks":[\#(JSONText.xyz(landmarks))]"#]
            if blendshapes, index < result.faceBlendshapes.count {
                let scores = result.faceBlendshapes[index].map { JSONText.category($0) }
                fields.append(#""blendshapes":[\#(scores.joined(separator: ","))]"#)
            }
            if matrices, matrixPerFace {
                let values = result.facialTransformationMatrixes[index].data.map { "\($0)" }
                fields.append(#""transformationMatrix":[\#(values.joined(separator: ","))]"#)
            }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return JSONText.imageLine(name, image, timestamp: timestamp, #""faces":[\#(faces.joined(separator: ","))]"#)
    }

    /// The highest-scoring blendshapes, `_neutral` left out.
    static func top(_ scores: [ResultCategory]) -> [(name: String, score: Float)] {
        scores.filter { $0.index != 0 }.sorted { $0.score > $1.score }.prefix(listedBlendshapes)
            .map { ($0.categoryName ?? "\($0.index)", $0.score) }
    }

    /// Draws each face's contours (face oval, eyes, eyebrows, lips) and irises, and lists its top blendshapes.
    static func annotate(_ image: PixelImage, _ result: FaceLandmarkerResult) throws -> PixelImage {
        var canvas = ImageCanvas(image: image)
        let thickness = max(1, min(image.width, image.height) / 300)
        let scale = max(1, min(image.width, image.height) / 400)
        for (faceIndex, landmarks) in result.faceLandmarks.enumerated() {
            let points = landmarks.map { (Double($0.x) * Double(image.width), Double($0.y) * Double(image.height)) }
            for edge in FaceLandmarksConnections.contours {
                canvas.drawLine(
                    from: points[edge.start], to: points[edge.end], color: .green, thickness: Double(thickness))
            }
            for edge in FaceLandmarksConnections.irises {
                canvas.drawLine(
                    from: points[edge.start], to: points[edge.end], color: .cyan, thickness: Double(thickness))
            }
            for centre in [468, 473] {
                canvas.drawCircle(
                    center: points[centre], radius: Double(thickness + 1), color: .red, filled: true, thickness: 1)
            }
            guard faceIndex < result.faceBlendshapes.count else { continue }
            let entries = top(result.faceBlendshapes[faceIndex])
            let labels = entries.map { "\($0.name) \(String(format: "%.2f", $0.score))" }
            // From the face's left edge, moved left as far as needed for the longest label (6 px a character).
            let widest = 6 * scale * (labels.map(\.count).max() ?? 0)
            let left = max(0, min(Int(points.map(\.0).min() ?? 0), image.width - widest))
            // Below the face, moved up as far as needed for the list to fit in the picture.
            var y = min(Int(points.map(\.1).max() ?? 0) + 4 * scale, image.height - 10 * scale * entries.count)
            y = max(0, y)
            for label in labels {
                canvas.drawText(label, at: (x: left, y: y), color: .yellow, scale: scale)
                y += 10 * scale
            }
        }
        return canvas.image
    }
}
