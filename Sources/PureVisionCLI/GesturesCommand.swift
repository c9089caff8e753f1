import Foundation
import PureVision
import PureVisionImage

/// `purevision gestures IMAGE... [--model PATH] [--num-hands N] [--mode image|video] [--json] [--out DIR]`
enum GesturesCommand {
    static func run(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(
            arguments, valueOptions: BatchOptions.valueOptions.union(["--model", "--num-hands", "--out"]),
            flagOptions: BatchOptions.flagOptions)
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
                try outputDirectory?.write(annotate(image, result), for: item, suffix: "gestures")
                let hands = result.hands.map { hand in
                    let gesture = hand.gestures.first.map { "\(label($0)) \(String(format: "%.2f", $0.score))" } ?? "-"
                    return "\(gesture) (\(hand.handedness?.categoryName ?? "?") hand)"
                }
                return ItemReport(
                    json: json(name: item.name, image: image, timestamp: item.timestampInMilliseconds, result: result),
                    text: "\(item.displayName): \(result.landmarks.count) hand(s) \(hands.joined(separator: ", "))")
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
            let x = Int(Double(wrist.x) * Double(image.width))
            let y = Int(Double(wrist.y) * Double(image.height)) - 10 * scale
            canvas.drawText(label(gesture), at: (x: x, y: max(0, y)), color: .cyan, scale: scale)
        }
        return canvas.image
    }
}
