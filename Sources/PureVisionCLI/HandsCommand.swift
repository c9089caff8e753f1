import Foundation
import PureVision
import PureVisionImage

/// `purevision hands IMAGE... [--model PATH] [--num-hands N] [--out DIR] [--video-out PATH] [--json] …`
enum HandsCommand {
    static let subcommand = Subcommand.drawingTask(
        name: "hands",
        summary: "Hand landmarks (MediaPipe's HandLandmarker; default model: the bundled hand_landmarker.task). With "
            + #"--json one line per image: {"image","width","height","timestampMs","hands":[{"handedness":{"index","#
            + #""score","categoryName"},"landmarks":[[x,y,z]...21],"worldLandmarks":[[x,y,z]...21]}]}. In --mode "#
            + "video the images are consecutive frames 33 ms apart. --out draws the landmarks and skeleton, "
            + "--video-out makes a video of them.",
        options: [
            .value("--model", "PATH", "the hand landmarker .task bundle (default: hand_landmarker.task)"),
            .value("--num-hands", "N", "the most hands found per image (default 1)"),
        ],
        drawingSuffix: "hands", drawing: "each hand's skeleton, landmarks and handedness", run: run)

    /// The hand skeleton: pairs of landmark indices joined by a bone.
    static let connections: [(Int, Int)] = [
        (0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (5, 6), (6, 7), (7, 8), (5, 9), (9, 10), (10, 11), (11, 12),
        (9, 13), (13, 14), (14, 15), (15, 16), (13, 17), (0, 17), (17, 18), (18, 19), (19, 20),
    ]

    static func run(_ command: TaskCommandLine) throws {
        var options = HandLandmarkerOptions(
            baseOptions: try command.baseOptions(defaultModel: "hand_landmarker.task"), runningMode: command.batch.mode)
        if let value = try command.parsed.positiveInteger("--num-hands") { options.numHands = value }
        let outputDirectory = try OutputDirectory(command.parsed.single("--out"))
        try command.runFrames(
            HandLandmarker.self, options: options, outputDirectory: outputDirectory, annotate: annotate
        ) { item, image, result in
            let labels = result.hands.map { hand in
                "\(hand.handedness?.categoryName ?? "?") (\(hand.handedness.map { String(format: "%.2f", $0.score) } ?? "?"))"
            }
            return ItemReport(
                json: json(name: item.name, image: image, timestamp: item.timestampInMilliseconds, result: result),
                text: "\(item.displayName): \(result.landmarks.count) hand(s) \(labels.joined(separator: ", "))")
        }
    }

    static func json(name: String, image: PixelImage, timestamp: Int, result: HandLandmarkerResult) -> String {
        let hands = result.hands.map { hand -> String in
            let (landmarks, world) = (JSONText.xyz(hand.landmarks), JSONText.xyz(hand.worldLandmarks))
            return
                #"{"handedness":\#(JSONText.category(hand.handedness)),"landmarks":[\#(landmarks)],"worldLandmarks":[\#(world)]}"#
        }
        return JSONText.imageLine(name, image, timestamp: timestamp, #""hands":[\#(hands.joined(separator: ","))]"#)
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
