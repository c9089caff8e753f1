import Foundation
import PureVision
import PureVisionImage

/// `purevision gestures IMAGE... [--model PATH] [--num-hands N] [--out DIR] [--video-out PATH] [--json] …`
enum GesturesCommand {
    static let subcommand = Subcommand(
        name: "gestures", operands: "IMAGE...",
        summary: "Hand gestures (MediaPipe's GestureRecognizer; default model: the bundled gesture_recognizer.task; "
            + "a Model Maker bundle adds its custom gestures). With --json one line per image: "
            + #"{"image","width","height","timestampMs","hands":[{"gestures":[{"index","score","categoryName"}],"#
            + #""handedness":{"index","score","categoryName"},"landmarks":[[x,y,z]...21],"worldLandmarks":[[x,y,z]"#
            + "...21]}]} (gesture index -1 as in MediaPipe). In --mode video the images are consecutive frames 33 ms "
            + "apart. --out draws the skeleton with the gesture name, --video-out makes a video of it.",
        options: [
            .value("--model", "PATH", "the gesture recognizer .task bundle (default: gesture_recognizer.task)"),
            .value("--num-hands", "N", "the most hands found per image (default 1)"),
        ] + BatchOptions.drawingOptions(suffix: "gestures", drawing: "each hand's skeleton and its gesture's name")
            + BatchOptions.options(video: true),
        readsImages: true, run: run)

    static func run(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(arguments, options: subcommand.options)
        let batch = try BatchOptions(parsed, modes: [.image, .video])
        var options = GestureRecognizerOptions(
            baseOptions: BaseOptions(
                modelAssetPath: try parsed.single("--model") ?? BundledModels.path("gesture_recognizer.task"),
                threadCount: batch.threads),
            runningMode: batch.mode)
        if let value = try parsed.positiveInteger("--num-hands") { options.numHands = value }
        let outputDirectory = try OutputDirectory(parsed.single("--out"))
        try BatchRunner.run(command: "gestures", positional: parsed.positional, options: batch) {
            let recognizer = try GestureRecognizer(options: options)
            return { item in
                let image = try item.image()
                let result =
                    batch.mode == .video
                    ? try recognizer.recognize(videoFrame: image, timestampInMilliseconds: item.timestampInMilliseconds)
                    : try recognizer.recognize(image: image)
                let drawing = batch.draws(outputDirectory) ? try annotate(image, result) : nil
                if let drawing { try outputDirectory?.write(drawing, for: item, suffix: "gestures") }
                let hands = result.hands.map { hand in
                    let gesture = hand.gestures.first.map { "\(label($0)) \(String(format: "%.2f", $0.score))" } ?? "-"
                    return "\(gesture) (\(hand.handedness?.categoryName ?? "?") hand)"
                }
                return ItemReport(
                    json: json(name: item.name, image: image, timestamp: item.timestampInMilliseconds, result: result),
                    text: "\(item.displayName): \(result.landmarks.count) hand(s) \(hands.joined(separator: ", "))",
                    drawing: drawing)
            }
        }
    }

    /// A gesture's name for people: the label, or "(unlabelled)" for a classifier without labels.
    static func label(_ gesture: ResultCategory) -> String {
        let name = gesture.categoryName ?? ""
        return name.isEmpty ? "(unlabelled)" : name
    }

    static func json(name: String, image: PixelImage, timestamp: Int, result: GestureRecognizerResult) -> String {
        func category(_ c: ResultCategory?) -> String {
            #"{"index":\#(c?.index ?? -1),"score":\#(c?.score ?? 0),"categoryName":\#(JSONText.quoted(c?.categoryName ?? ""))}"#
        }
        let hands = result.hands.map { hand -> String in
            let gestures = hand.gestures.map(category).joined(separator: ",")
            let landmarks = hand.landmarks.map { "[\($0.x),\($0.y),\($0.z)]" }.joined(separator: ",")
            let world = hand.worldLandmarks.map { "[\($0.x),\($0.y),\($0.z)]" }.joined(separator: ",")
            return
                #"{"gestures":[\#(gestures)],"handedness":\#(category(hand.handedness)),"landmarks":[\#(landmarks)],"worldLandmarks":[\#(world)]}"#
        }
        return
            #"{"image":\#(JSONText.quoted(name)),"width":\#(image.width),"height":\#(image.height),"timestampMs":\#(timestamp),"hands":[\#(hands.joined(separator: ","))]}"#
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
