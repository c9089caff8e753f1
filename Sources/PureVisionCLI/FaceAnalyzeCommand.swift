import Foundation
import PureVision
import PureVisionImage

/// `purevision face-analyze IMAGE... [--accurate] [--landmarks] [--contours] [--classify] [--models DIR] [--out DIR]
/// [--video-out PATH] [--json] …`
enum FaceAnalyzeCommand {
    static let subcommand = Subcommand.drawingTask(
        name: "face-analyze",
        summary: "ML Kit-style face analysis (FaceAnalyzer: BlazeFace + the 468-point face mesh; default models: the "
            + "bundled Models/ directory, or --models DIR). --accurate uses the full-range detector; --landmarks, "
            + "--contours and --classify turn on ML Kit's landmarks, contours and smiling / eyes-open probabilities. "
            + "In --mode video the images are consecutive frames 33 ms apart, with tracking IDs. With --json one "
            + #"line per image: {"image","width","height","timestampMs","faces":[{"frame":[x,y,w,h] (pixels),"#
            + #""headEulerAngleX/Y/Z" (degrees),"landmarks":{type:[x,y]},"contours":{type:[[x,y]...]},"#
            + #""smilingProbability","leftEyeOpenProbability","rightEyeOpenProbability","trackingID"}]} (values "#
            + "turned off are absent). --out draws the frame, contours, landmarks, angles and scores; --video-out "
            + "makes a video of them.",
        options: [
            .flag("--accurate", "the full-range face detector (ML Kit's accurate mode)"),
            .flag("--landmarks", "ML Kit's face landmarks (eyes, ears, cheeks, nose, mouth)"),
            .flag("--contours", "ML Kit's 15 face contours"),
            .flag("--classify", "smiling and eyes-open probabilities"),
            .value("--models", "DIR", "the directory of the face models (default: the bundled Models/)"),
        ],
        drawingSuffix: "face_analysis", drawing: "each face's frame, contours, landmarks, angles and scores", run: run)

    /// The JSON shape of one face: `Face` without its 468 mesh points.
    struct FaceJSON: Encodable {
        let frame: [Float]
        let headEulerAngleX: Float?
        let headEulerAngleY: Float?
        let headEulerAngleZ: Float?
        let landmarks: [String: [Float]]?
        let contours: [String: [[Float]]]?
        let smilingProbability: Float?
        let leftEyeOpenProbability: Float?
        let rightEyeOpenProbability: Float?
        let trackingID: Int?

        init(_ face: Face) {
            frame = [face.frame.originX, face.frame.originY, face.frame.width, face.frame.height]
            headEulerAngleX = face.headEulerAngleX
            headEulerAngleY = face.headEulerAngleY
            headEulerAngleZ = face.headEulerAngleZ
            landmarks = face.landmarks.map {
                Dictionary(uniqueKeysWithValues: $0.map { ($0.type.rawValue, [$0.position.x, $0.position.y]) })
            }
            contours = face.contours.map {
                Dictionary(uniqueKeysWithValues: $0.map { ($0.type.rawValue, $0.points.map { [$0.x, $0.y] }) })
            }
            smilingProbability = face.smilingProbability
            leftEyeOpenProbability = face.leftEyeOpenProbability
            rightEyeOpenProbability = face.rightEyeOpenProbability
            trackingID = face.trackingID
        }
    }

    struct ImageJSON: Encodable {
        let image: String
        let width: Int
        let height: Int
        let timestampMs: Int
        let faces: [FaceJSON]
    }

    static func run(_ command: TaskCommandLine) throws {
        let parsed = command.parsed
        let modelDirectory =
            try parsed.single("--models")
            ?? (BundledModels.path(FaceAnalyzerOptions.landmarkModelFile) as NSString).deletingLastPathComponent
        var options = FaceAnalyzerOptions(
            modelDirectory: modelDirectory.isEmpty ? "." : modelDirectory,
            performanceMode: parsed.flags.contains("--accurate") ? .accurate : .fast,
            landmarkMode: parsed.flags.contains("--landmarks") ? .all : .none,
            contourMode: parsed.flags.contains("--contours") ? .all : .none,
            classificationMode: parsed.flags.contains("--classify") ? .all : .none,
            isTrackingEnabled: command.batch.mode == .video, runningMode: command.batch.mode)
        options.threadCount = command.batch.threads
        let outputDirectory = try OutputDirectory(parsed.single("--out"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try command.runFrames(
            FaceAnalyzer.self, options: options, outputDirectory: outputDirectory, annotate: annotate
        ) { item, image, faces in
            let line = ImageJSON(
                image: item.name, width: image.width, height: image.height,
                timestampMs: item.timestampInMilliseconds, faces: faces.map(FaceJSON.init))
            let text = (["\(item.displayName): \(faces.count) face(s)"] + faces.map { "  " + summary($0) })
            return ItemReport(
                json: String(decoding: try encoder.encode(line), as: UTF8.self), text: text.joined(separator: "\n"))
        }
    }

    static func summary(_ face: Face) -> String {
        let f = face.frame
        var parts = [String(format: "frame x %.1f y %.1f w %.1f h %.1f", f.originX, f.originY, f.width, f.height)]
        parts += attributes(
            face, angles: "euler X %.1f Y %.1f Z %.1f", probabilities: "smiling %.2f eyes open L %.2f R %.2f")
        if let landmarks = face.landmarks { parts.append("\(landmarks.count) landmarks") }
        if let contours = face.contours {
            parts.append("\(contours.reduce(0) { $0 + $1.points.count }) contour points")
        }
        return parts.joined(separator: "  ")
    }

    /// What the face has of its head angles, its smiling and eyes-open probabilities and its tracking ID, in that
    /// order: the angles X, Y, Z written with the format `angles`, the smiling, left-eye-open and right-eye-open
    /// probabilities with the format `probabilities`, the ID as `id N`.
    static func attributes(_ face: Face, angles: String, probabilities: String) -> [String] {
        var parts: [String] = []
        if let x = face.headEulerAngleX, let y = face.headEulerAngleY, let z = face.headEulerAngleZ {
            parts.append(String(format: angles, x, y, z))
        }
        if let smile = face.smilingProbability, let left = face.leftEyeOpenProbability,
            let right = face.rightEyeOpenProbability
        {
            parts.append(String(format: probabilities, smile, left, right))
        }
        if let id = face.trackingID { parts.append("id \(id)") }
        return parts
    }

    /// Draws each face's frame (green), contours (cyan lines, closed loops for the face, eyes and lips), landmarks
    /// (red dots) and a caption with the angles and scores.
    static func annotate(_ image: PixelImage, _ faces: [Face]) throws -> PixelImage {
        var canvas = ImageCanvas(image: image.converted(to: .rgb8))
        let thickness = max(1, min(image.width, image.height) / 300)
        let closed: Set<FaceContourType> = [.face, .leftEye, .rightEye]
        let outerLip: Set<FaceContourType> = [.upperLipTop, .lowerLipBottom]
        for face in faces {
            let f = face.frame
            canvas.drawRectangle(
                x: Int(f.originX), y: Int(f.originY), width: Int(f.width.rounded()), height: Int(f.height.rounded()),
                color: .green, thickness: thickness + 1)
            for contour in face.contours ?? [] {
                // The outer lip lines are drawn below as one closed outline.
                let points = outerLip.contains(contour.type) ? [] : contour.points
                for (start, end) in zip(points, points.dropFirst()) {
                    canvas.drawLine(
                        from: (Double(start.x), Double(start.y)), to: (Double(end.x), Double(end.y)), color: .cyan,
                        thickness: Double(thickness))
                }
                if closed.contains(contour.type), let first = points.first, let last = points.last {
                    canvas.drawLine(
                        from: (Double(last.x), Double(last.y)), to: (Double(first.x), Double(first.y)), color: .cyan,
                        thickness: Double(thickness))
                }
                for point in contour.points {
                    canvas.drawCircle(
                        center: (Double(point.x), Double(point.y)), radius: Double(thickness) + 0.5, color: .yellow,
                        filled: true)
                }
            }
            if let top = face.contour(ofType: .upperLipTop)?.points,
                let bottom = face.contour(ofType: .lowerLipBottom)?.points, let first = top.first
            {
                // Upper lip top runs corner to corner; the lower lip bottom, reversed, closes the mouth.
                let outline = top + bottom.reversed() + [first]
                for (start, end) in zip(outline, outline.dropFirst()) {
                    canvas.drawLine(
                        from: (Double(start.x), Double(start.y)), to: (Double(end.x), Double(end.y)), color: .cyan,
                        thickness: Double(thickness))
                }
            }
            for landmark in face.landmarks ?? [] {
                canvas.drawCircle(
                    center: (Double(landmark.position.x), Double(landmark.position.y)),
                    radius: Double(3 * thickness + 1), color: .red, filled: true)
            }
            let caption = attributes(face, angles: "X%.0f Y%.0f Z%.0f", probabilities: "smile %.2f eyes %.2f %.2f")
            let scale = max(1, thickness)
            let lineHeight = 9 * scale
            let y0 = max(0, Int(f.originY) - lineHeight * caption.count - 2)
            for (line, text) in caption.enumerated() {
                canvas.drawText(
                    text, at: (x: max(0, Int(f.originX)), y: y0 + line * lineHeight), color: .green, scale: scale)
            }
        }
        return canvas.image
    }
}
