import Foundation
import PureVision
import PureVisionImage

/// `purevision gestures IMAGE... [--model PATH] [--num-hands N] [--mode image|video] [--json] [--out DIR]`
enum GesturesCommand {
    static func run(_ arguments: [String]) throws {
        for line in try lines(arguments) { print(line) }
    }

    /// The lines `run` prints, one per image; writes the `--out` images as it goes.
    static func lines(_ arguments: [String]) throws -> [String] {
        let parsed = try ParsedArguments(
            arguments, valueOptions: ["--model", "--num-hands", "--mode", "--out"], flagOptions: ["--json"])
        guard !parsed.positional.isEmpty else { throw CommandLineError.usage("gestures needs at least one IMAGE") }
        let mode: RunningMode
        switch try parsed.single("--mode") ?? "image" {
        case "image": mode = .image
        case "video": mode = .video
        case let other: throw CommandLineError.usage("--mode must be image or video, got '\(other)'")
        }
        var options = GestureRecognizerOptions(
            baseOptions: BaseOptions(
                modelAssetPath: try parsed.single("--model") ?? BundledModels.path("gesture_recognizer.task")),
            runningMode: mode)
        if let text = try parsed.single("--num-hands") {
            guard let value = Int(text), value >= 1 else {
                throw CommandLineError.usage("--num-hands takes a whole number ≥ 1, got '\(text)'")
            }
            options.numHands = value
        }
        let recognizer = try GestureRecognizer(options: options)
        let outputDirectory = try parsed.single("--out")
        if let outputDirectory {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        }
        var lines: [String] = []
        for (index, path) in parsed.positional.enumerated() {
            let image = try PixelImage(contentsOfFile: path)
            let timestamp = mode == .video ? 33 * index : 0
            let result =
                mode == .video
                ? try recognizer.recognize(videoFrame: image, timestampInMilliseconds: timestamp)
                : try recognizer.recognize(image: image)
            let name = (path as NSString).lastPathComponent
            if parsed.flags.contains("--json") {
                lines.append(json(name: name, image: image, timestamp: timestamp, result: result))
            } else {
                let hands = result.hands.map { hand in
                    let gesture = hand.gestures.first.map { "\(label($0)) \(String(format: "%.2f", $0.score))" } ?? "-"
                    return "\(gesture) (\(hand.handedness?.categoryName ?? "?") hand)"
                }
                lines.append("\(name): \(result.landmarks.count) hand(s) \(hands.joined(separator: ", "))")
            }
            if let outputDirectory {
                let stem = (name as NSString).deletingPathExtension
                let destination = (outputDirectory as NSString).appendingPathComponent("\(stem)_gestures.png")
                try annotate(image, result).writePNG(toFile: destination)
            }
        }
        return lines
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
            return #"{"gestures":[\#(gestures)],"handedness":\#(category(hand.handedness)),"landmarks":[\#(landmarks)],"worldLandmarks":[\#(world)]}"#
        }
        return #"{"image":\#(JSONText.quoted(name)),"width":\#(image.width),"height":\#(image.height),"timestampMs":\#(timestamp),"hands":[\#(hands.joined(separator: ","))]}"#
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
