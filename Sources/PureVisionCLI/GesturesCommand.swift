import Foundation
import PureVision
import PureVisionImage

/// `purevision gestures IMAGE... [--model PATH] [--num-hands N] [--out DIR] [--video-out PATH] [--json] …`
enum GesturesCommand {
    static let subcommand = Subcommand.drawingTask(
        name: "gestures",
        summary: "Hand gestures (MediaPipe's GestureRecognizer; default model: the bundled gesture_recognizer.task; "
            + "a Model Maker bundle adds its custom gestures). With --json one line per image: "
            + #"{"image","width","height","timestampMs","hands":[{"gestures":[{"index","score","categoryName"}],"#
            + #""handedness":{"index","score","categoryName"},"landmarks":[[x,y,z]...21],"worldLandmarks":[[x,y,z]"#
            + "...21]}]} (gesture index -1 as in MediaPipe). In --mode video the images are consecutive frames 33 ms "
            + "apart. --out draws the skeleton with the gesture name, --video-out makes a video of it.",
        options: [
            .value("--model", "PATH", "the gesture recognizer .task bundle (default: gesture_recognizer.task)"),
            .value("--num-hands", "N", "the most hands found per image (default 1)"),
        ],
        drawingSuffix: "gestures", drawing: "each hand's skeleton and its gesture's name", run: run)

    static func run(_ command: TaskCommandLine) throws {
        var options = GestureRecognizerOptions(
            baseOptions: try command.baseOptions(defaultModel: "gesture_recognizer.task"),
            runningMode: command.batch.mode)
        if let value = try command.parsed.positiveInteger("--num-hands") { options.numHands = value }
        let outputDirectory = try OutputDirectory(command.parsed.single("--out"))
        try command.runFrames(
            GestureRecognizer.self, options: options, outputDirectory: outputDirectory, annotate: annotate
        ) { item, image, result in
            let hands = result.hands.map { hand in
                let gesture = hand.gestures.first.map { "\(label($0)) \(String(format: "%.2f", $0.score))" } ?? "-"
                return "\(gesture) (\(hand.handedness?.categoryName ?? "?") hand)"
            }
            return ItemReport(
                json: json(name: item.name, image: image, timestamp: item.timestampInMilliseconds, result: result),
                text: "\(item.displayName): \(result.landmarks.count) hand(s) \(hands.joined(separator: ", "))")
        }
    }

    /// A gesture's name for people: the label, or "(unlabelled)" for a classifier without labels.
    static func label(_ gesture: ResultCategory) -> String {
        let name = gesture.categoryName ?? ""
        return name.isEmpty ? "(unlabelled)" : name
    }

    static func json(name: String, image: PixelImage, timestamp: Int, result: GestureRecognizerResult) -> String {
        let hands = result.hands.map { hand -> String in
            let gestures = hand.gestures.map { JSONText.category($0) }.joined(separator: ",")
            let (landmarks, world) = (JSONText.xyz(hand.landmarks), JSONText.xyz(hand.worldLandmarks))
            return
                #"{"gestures":[\#(gestures)],"handedness":\#(JSONText.category(hand.handedness)),"landmarks":[\#(landmarks)],"worldLandmarks":[\#(world)]}"#
        }
        return JSONText.imageLine(name, image, timestamp: timestamp, #""hands":[\#(hands.joined(separator: ","))]"#)
    }

    /// The hand landmarker's drawing (skeleton, landmarks, handedness) with each hand's gesture name above its wrist.
    static func annotate(_ image: PixelImage, _ result: GestureRecognizerResult) throws -> PixelImage {
        let skeleton = try HandsCommand.annotate(
            image,
            HandLandmarkerResult(
                handedness: result.handedness, landmarks: result.landmarks, worldLandmarks: result.worldLandmarks))
        var canvas = ImageCanvas(image: skeleton)
        let thickness = max(2, min(image.width, image.height) / 250)
        let scale = max(2, thickness)
        for hand in result.hands {
            guard let gesture = hand.gestures.first, let wrist = hand.landmarks.first else { continue }
            let name = label(gesture)
            // From the wrist, moved left as far as needed for the name to fit (6 px a character).
            let x = min(Int(Double(wrist.x) * Double(image.width)), image.width - 6 * scale * name.count)
            let y = Int(Double(wrist.y) * Double(image.height)) - 10 * scale
            canvas.drawText(name, at: (x: max(0, x), y: max(0, y)), color: .cyan, scale: scale)
        }
        return canvas.image
    }
}
