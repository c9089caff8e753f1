import Foundation
import PureVision
import PureVisionImage

/// `purevision hands IMAGE... [--model PATH] [--num-hands N] [--out DIR] [--video-out PATH] [--json] …`
enum HandsCommand {
    static let subcommand = Subcommand(
        name: "hands", operands: "IMAGE...",
        summary: "Hand landmarks (MediaPipe's HandLandmarker; default model: the bundled hand_landmarker.task). With "
            + #"--json one line per image: {"image","width","height","timestampMs","hands":[{"handedness":{"index","#
            + #""score","categoryName"},"landmarks":[[x,y,z]...21],"worldLandmarks":[[x,y,z]...21]}]}. In --mode "#
            + "video the images are consecutive frames 33 ms apart. --out draws the landmarks and skeleton, "
            + "--video-out makes a video of them.",
        options: [
            .value("--model", "PATH", "the hand landmarker .task bundle (default: hand_landmarker.task)"),
            .value("--num-hands", "N", "the most hands found per image (default 1)"),
        ] + BatchOptions.drawingOptions(suffix: "hands", drawing: "each hand's skeleton, landmarks and handedness")
            + BatchOptions.options(video: true),
        readsImages: true, run: run)

    /// The hand skeleton: pairs of landmark indices joined by a bone.
    static let connections: [(Int, Int)] = [
        (0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (5, 6), (6, 7), (7, 8), (5, 9), (9, 10), (10, 11), (11, 12),
        (9, 13), (13, 14), (14, 15), (15, 16), (13, 17), (0, 17), (17, 18), (18, 19), (19, 20),
    ]

    static func run(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(arguments, options: subcommand.options)
        let batch = try BatchOptions(parsed, modes: [.image, .video])
        var options = HandLandmarkerOptions(
            baseOptions: BaseOptions(
                modelAssetPath: try parsed.single("--model") ?? BundledModels.path("hand_landmarker.task"),
                threadCount: batch.threads),
            runningMode: batch.mode)
        if let value = try parsed.positiveInteger("--num-hands") { options.numHands = value }
        let outputDirectory = try OutputDirectory(parsed.single("--out"))
        try BatchRunner.run(command: "hands", positional: parsed.positional, options: batch) {
            let landmarker = try HandLandmarker(options: options)
            return { item in
                let image = try item.image()
                let result =
                    batch.mode == .video
                    ? try landmarker.detect(videoFrame: image, timestampInMilliseconds: item.timestampInMilliseconds)
                    : try landmarker.detect(image: image)
                let drawing = batch.draws(outputDirectory) ? try annotate(image, result) : nil
                if let drawing { try outputDirectory?.write(drawing, for: item, suffix: "hands") }
                let labels = result.hands.map { hand in
                    "\(hand.handedness?.categoryName ?? "?") (\(hand.handedness.map { String(format: "%.2f", $0.score) } ?? "?"))"
                }
                return ItemReport(
                    json: json(name: item.name, image: image, timestamp: item.timestampInMilliseconds, result: result),
                    text: "\(item.displayName): \(result.landmarks.count) hand(s) \(labels.joined(separator: ", "))",
                    drawing: drawing)
            }
        }
    }

    static func json(name: String, image: PixelImage, timestamp: Int, result: HandLandmarkerResult) -> String {
        let hands = result.hands.map { hand -> String in
            let h = hand.handedness
            let handedness =
                #"{"index":\#(h?.index ?? -1),"score":\#(h?.score ?? 0),"categoryName":\#(JSONText.quoted(h?.categoryName ?? ""))}"#
            let landmarks = hand.landmarks.map { "[\($0.x),\($0.y),\($0.z)]" }.joined(separator: ",")
            let world = hand.worldLandmarks.map { "[\($0.x),\($0.y),\($0.z)]" }.joined(separator: ",")
            return #"{"handedness":\#(handedness),"landmarks":[\#(landmarks)],"worldLandmarks":[\#(world)]}"#
        }
        return
            #"{"image":\#(JSONText.quoted(name)),"width":\#(image.width),"height":\#(image.height),"timestampMs":\#(timestamp),"hands":[\#(hands.joined(separator: ","))]}"#
    }

    /// Draws each hand's skeleton and landmarks, and its handedness, on a copy of the image.
    static func annotate(_ image: PixelImage, _ result: HandLandmarkerResult) throws -> PixelImage {
        var canvas = ImageCanvas(image: image)
        let thickness = max(2, min(image.width, image.height) / 250)
        for hand in result.hands {
            let points = hand.landmarks.map {
                (Double($0.x) * Double(image.width), Double($0.y) * Double(image.height))
            }
            for (a, b) in connections {
                canvas.drawLine(from: points[a], to: points[b], color: .green, thickness: Double(thickness))
            }
            for (index, point) in points.enumerated() {
                canvas.drawCircle(
                    center: point, radius: Double(thickness * 2), color: index == 0 ? .yellow : .red, filled: true,
                    thickness: 1)
            }
            if let label = hand.handedness?.categoryName {
                canvas.drawText(
                    label, at: (x: Int(points[0].0), y: Int(points[0].1) + 4 * thickness), color: .yellow,
                    scale: max(1, thickness / 2))
            }
        }
        return canvas.image
    }
}
