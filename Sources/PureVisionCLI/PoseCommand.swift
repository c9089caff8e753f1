import Foundation
import PureVision
import PureVisionCore
import PureVisionImage

/// `purevision pose IMAGE... [--model PATH] [--num-poses N] [--segmentation-masks] [--out DIR] [--video-out PATH]
/// [--json] …`
enum PoseCommand {
    static let subcommand = Subcommand.drawingTask(
        name: "pose",
        summary: "Body pose landmarks (MediaPipe's PoseLandmarker; default model: the bundled "
            + #"pose_landmarker_full.task). With --json one line per image: {"image","width","height","timestampMs","#
            + #""poses":[{"landmarks":[[x,y,z,visibility,presence]...33],"worldLandmarks":[[x,y,z,visibility,"#
            + "presence]...33]}]}. In --mode video the images are consecutive frames 33 ms apart. --out draws the "
            + "skeleton (MediaPipe's 35 connections); with --segmentation-masks it also writes "
            + "DIR/<stem>_pose<i>_mask.npy (float32 H×W) and a tinted PNG overlay DIR/<stem>_pose<i>_mask.png. "
            + "--video-out makes a video of the skeletons.",
        options: [
            .value("--model", "PATH", "the pose landmarker .task bundle (default: pose_landmarker_full.task)"),
            .value("--num-poses", "N", "the most poses found per image (default 1)"),
            .flag("--segmentation-masks", "also compute each pose's segmentation mask (written by --out)"),
        ],
        drawingSuffix: "pose", drawing: "each pose's skeleton and landmarks", run: run)

    /// The colors poses are drawn and tinted with, in order (repeating).
    static let poseColors: [RGBColor] = [.cyan, .magenta, .orange, .yellow]

    static func run(_ command: TaskCommandLine) throws {
        var options = PoseLandmarkerOptions(
            baseOptions: try command.baseOptions(defaultModel: "pose_landmarker_full.task"),
            runningMode: command.batch.mode,
            outputSegmentationMasks: command.parsed.flags.contains("--segmentation-masks"))
        if let value = try command.parsed.positiveInteger("--num-poses") { options.numPoses = value }
        let outputDirectory = try OutputDirectory(command.parsed.single("--out"))
        try command.runFrames(
            PoseLandmarker.self, options: options, outputDirectory: outputDirectory, annotate: annotate
        ) { item, image, result in
            if let outputDirectory { try writeMasks(result, of: image, for: item, to: outputDirectory) }
            return ItemReport(
                json: json(name: item.name, image: image, timestamp: item.timestampInMilliseconds, result: result),
                text: "\(item.displayName): \(result.landmarks.count) pose(s)")
        }
    }

    /// Writes each pose's segmentation mask (when computed) as `DIR/<stem>_pose<i>_mask.npy` (float32 H×W) and as a
    /// tinted overlay `DIR/<stem>_pose<i>_mask.png`.
    static func writeMasks(
        _ result: PoseLandmarkerResult, of image: PixelImage, for item: BatchItem, to outputDirectory: OutputDirectory
    ) throws {
        for (poseIndex, mask) in (result.segmentationMasks ?? []).enumerated() {
            let tensor = try Tensor(shape: TensorShape([mask.height, mask.width]), floats: mask.values)
            let file = outputDirectory.file(for: item, suffix: "pose\(poseIndex)_mask.npy")
            guard FileManager.default.createFile(atPath: file, contents: Data(NumpyFile.encode(tensor))) else {
                throw CommandLineError.file("cannot write '\(file)'")
            }
            try outputDirectory.write(
                tinted(image, mask: mask, color: poseColors[poseIndex % poseColors.count]), for: item,
                suffix: "pose\(poseIndex)_mask")
        }
    }

    /// One JSON line: `{"image","width","height","timestampMs","poses":[{"landmarks":[[x,y,z,visibility,presence]
    /// ×33],"worldLandmarks":[[x,y,z,visibility,presence]×33]}]}`.
    static func json(name: String, image: PixelImage, timestamp: Int, result: PoseLandmarkerResult) -> String {
        func points(_ landmarks: [some LandmarkPoint]) -> String {
            landmarks.map { "[\($0.x),\($0.y),\($0.z),\($0.visibility ?? 0),\($0.presence ?? 0)]" }
                .joined(separator: ",")
        }
        let poses = zip(result.landmarks, result.worldLandmarks).map { landmarks, world -> String in
            #"{"landmarks":[\#(points(landmarks))],"worldLandmarks":[\#(points(world))]}"#
        }
        return JSONText.imageLine(name, image, timestamp: timestamp, #""poses":[\#(poses.joined(separator: ","))]"#)
    }

    /// Draws each pose's skeleton (MediaPipe's 35 connections) and its landmarks on a copy of the image; landmarks
    /// with visibility below 0.5 are drawn hollow.
    static func annotate(_ image: PixelImage, _ result: PoseLandmarkerResult) throws -> PixelImage {
        var canvas = ImageCanvas(image: image)
        let thickness = max(2, min(image.width, image.height) / 200)
        for (poseIndex, landmarks) in result.landmarks.enumerated() {
            let color = poseColors[poseIndex % poseColors.count]
            let points = landmarks.map { (Double($0.x) * Double(image.width), Double($0.y) * Double(image.height)) }
            for connection in PoseConnection.poseLandmarks
            where connection.start < points.count && connection.end < points.count {
                canvas.drawLine(
                    from: points[connection.start], to: points[connection.end], color: color,
                    thickness: Double(thickness))
            }
            for (index, point) in points.enumerated() {
                let visible = (landmarks[index].visibility ?? 1) >= 0.5
                canvas.drawCircle(
                    center: point, radius: Double(thickness * 2), color: index == 0 ? .yellow : .red, filled: visible,
                    thickness: 1)
            }
        }
        return canvas.image
    }

    /// The image with `color` blended in where the mask is on: `(1 − m/2)·pixel + (m/2)·color`.
    static func tinted(_ image: PixelImage, mask: PoseSegmentationMask, color: RGBColor) throws -> PixelImage {
        let canvas = ImageCanvas(image: image)
        var pixels = [UInt8](repeating: 0, count: image.width * image.height * 3)
        let tint = [Float(color.r), Float(color.g), Float(color.b)]
        for y in 0..<image.height {
            for x in 0..<image.width {
                guard let pixel = canvas.color(atX: x, y: y) else { continue }
                let weight = min(max(mask[x, y], 0), 1) / 2
                let source = [Float(pixel.r), Float(pixel.g), Float(pixel.b)]
                for channel in 0..<3 {
                    let value = (1 - weight) * source[channel] + weight * tint[channel]
                    pixels[(y * image.width + x) * 3 + channel] = UInt8(min(max(value.rounded(), 0), 255))
                }
            }
        }
        return try PixelImage(width: image.width, height: image.height, format: .rgb8, pixels: pixels)
    }
}
