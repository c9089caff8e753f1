import Foundation
import PureVisionCore
import PureVisionEngine

/// Dispatches `purevision SUBCOMMAND …`.
enum CommandLineTool {
    static let usage = """
        usage: purevision run MODEL --input IN.npy [--input IN2.npy ...] --output-dir DIR [--threads N] [--reference]
               purevision faces IMAGE... [--model PATH] [--min-confidence X] [--json] [--out DIR]
               purevision hands IMAGE... [--model PATH] [--num-hands N] [--mode image|video] [--json] [--out DIR]
               purevision face-landmarks IMAGE... [--model PATH] [--num-faces N] [--blendshapes] [--matrices]
                                         [--mode image|video] [--json] [--out DIR]
               purevision gestures IMAGE... [--model PATH] [--num-hands N] [--mode image|video] [--json] [--out DIR]
               purevision pose IMAGE... [--model PATH] [--num-poses N] [--mode image|video] [--segmentation-masks]
                               [--json] [--out DIR]
               purevision face-analyze IMAGE... [--accurate] [--landmarks] [--contours] [--classify]
                                       [--mode image|video] [--json] [--out DIR] [--models DIR]
               purevision classify IMAGE... [--model PATH] [--max-results K] [--score-threshold X] [--allow a,b]
                                   [--deny a,b] [--json]
               purevision labels MODEL
               purevision objects IMAGE... [--model PATH] [--max-results K] [--score-threshold X] [--allow a,b]
                                  [--deny a,b] [--json] [--out DIR]
               purevision embed IMAGE... [--model PATH] [--l2-normalize] [--quantize] [--json]
               purevision similarity IMAGE_A IMAGE_B [--model PATH]
               purevision segment IMAGE... [--model PATH] [--json] [--out DIR] [--background blur|#RRGGBB|IMAGE]

        Inputs of the image subcommands (faces, hands, face-analyze, classify, …):
          IMAGE...            image files (PNG, JPEG), in order
          -                   image paths on standard input, one per line, processed as they arrive
          --paths-from FILE   image paths from FILE, one per line
          --mode video        with one argument: a .y4m file or - (a YUV4MPEG2 stream), or a directory of frames
          --jobs J            J task instances at once (image mode), results still in input order
          --threads N         threads per task instance
        Results are flushed one per input; an input that fails gives an error line (--json) or an 'error:' message
        and the run goes on; the exit status is 1 if any input failed; a summary goes to standard error.

        Subcommands:
          run    Run a .tflite model on .npy inputs; writes DIR/output_0.npy, output_1.npy, ... (float32 outputs
                 as float32, little-endian, in the model's output shapes).
          faces  Detect faces (MediaPipe's FaceDetector; default model: the bundled short-range BlazeFace). With
                 --json one line per image: {"image","width","height","detections":[{"score","boundingBox":
                 [originX,originY,width,height] (pixels),"keypoints":[[x,y],...] (normalized)}]}. --out writes an
                 annotated PNG per image.
          face-analyze  ML Kit-style face analysis (FaceAnalyzer: BlazeFace + the 468-point face mesh; default
                 models: the bundled Models/ directory, or --models DIR). --accurate uses the full-range detector;
                 --landmarks, --contours and --classify turn on ML Kit's landmarks, contours and smiling / eyes-open
                 probabilities. In --mode video the images are consecutive frames 33 ms apart, with tracking IDs.
                 With --json one line per image: {"image","width","height","timestampMs","faces":[{"frame":[x,y,w,h]
                 (pixels),"headEulerAngleX/Y/Z" (degrees),"landmarks":{type:[x,y]},"contours":{type:[[x,y]...]},
                 "smilingProbability","leftEyeOpenProbability","rightEyeOpenProbability","trackingID"}]} (values
                 turned off are absent). --out draws the frame, contours, landmarks, angles and scores.
          hands  Hand landmarks (MediaPipe's HandLandmarker; default model: the bundled hand_landmarker.task). With
                 --json one line per image: {"image","width","height","timestampMs","hands":[{"handedness":{"index",
                 "score","categoryName"},"landmarks":[[x,y,z]...21],"worldLandmarks":[[x,y,z]...21]}]}. In --mode
                 video the images are consecutive frames 33 ms apart. --out draws the landmarks and skeleton.
          face-landmarks  Face landmarks (MediaPipe's FaceLandmarker; default model: the bundled
                 face_landmarker.task): 478 landmarks per face, with --blendshapes the 52 blendshape scores, with
                 --matrices the 4x4 facial transformation matrix (row-major, translation in cm). With --json one line
                 per image: {"image","width","height","timestampMs","faces":[{"landmarks":[[x,y,z]...478],
                 "blendshapes":[{"index","score","categoryName"}...52],"transformationMatrix":[16 numbers]}]} (the
                 last two only when asked for). In --mode video the inputs are consecutive frames, tracked (and with
                 one face smoothed) as MediaPipe does. --out draws the contours and irises and lists the top
                 blendshapes.
          gestures  Hand gestures (MediaPipe's GestureRecognizer; default model: the bundled
                 gesture_recognizer.task; a Model Maker bundle adds its custom gestures). With --json one line per
                 image: {"image","width","height","timestampMs","hands":[{"gestures":[{"index","score","categoryName"}],
                 "handedness":{"index","score","categoryName"},"landmarks":[[x,y,z]...21],"worldLandmarks":[[x,y,z]
                 ...21]}]} (gesture index -1 as in MediaPipe). In --mode video the images are consecutive frames 33 ms
                 apart. --out draws the skeleton with the gesture name.
          pose   Body pose landmarks (MediaPipe's PoseLandmarker; default model: the bundled pose_landmarker_full.task).
                 With --json one line per image: {"image","width","height","timestampMs","poses":[{"landmarks":
                 [[x,y,z,visibility,presence]...33],"worldLandmarks":[[x,y,z,visibility,presence]...33]}]}. In
                 --mode video the images are consecutive frames 33 ms apart. --out draws the skeleton (MediaPipe's
                 35 connections); with --segmentation-masks it also writes DIR/<stem>_pose<i>_mask.npy (float32
                 H×W) and a tinted PNG overlay DIR/<stem>_pose<i>_mask.png.
          classify  Classify images (MediaPipe's ImageClassifier; default model: the bundled efficientnet_lite0).
                 With --json one line per image: {"image","classifications":[{"headIndex","headName","categories":
                 [{"index","score","categoryName","displayName"}]}]}.
          labels Print a model's labels (from its metadata), one per line.
          objects  Detect objects (MediaPipe's ObjectDetector; default model: the bundled efficientdet_lite0). The
                 human-readable listing shows the 5 best unless --max-results is given; with --json (MediaPipe's
                 defaults: every detection) one line per image: {"image","width","height","detections":[{
                 "boundingBox":[x,y,w,h] (pixels),"categories":[{"index","score","categoryName"}]}]}. --out draws
                 labelled boxes.
          embed  Image embeddings (MediaPipe's ImageEmbedder; default model: the bundled
                 efficientnet_lite0_embedder). With --json one line per image: {"image","embeddings":[{"headIndex",
                 "headName","floatEmbedding"|"quantizedEmbedding":[...]}]}.
          similarity  The cosine similarity of two images' embeddings.
          segment  Segment images (MediaPipe's ImageSegmenter; default model: the bundled selfie_segmenter). With
                 --json one line per image: {"image","width","height","labels":[...],"categoryPixelCounts":[...]}
                 (pixels per label; a one-class model's background is not counted). --out DIR writes
                 DIR/<stem>_category.png (the 8-bit category mask as MediaPipe gives it: class indices, or 0 = the
                 class and 255 = background for a one-class model), DIR/<stem>_confidence.npy (float32 H x W x K)
                 and, with --background, DIR/<stem>_background.png: the foreground kept over the blurred image, a
                 colour or another image, blended by the confidence mask.
        """

    static func run(_ arguments: [String]) throws {
        guard let subcommand = arguments.first else {
            print(usage)
            throw CommandLineError.usage("missing subcommand")
        }
        let rest = Array(arguments.dropFirst())
        switch subcommand {
        case "run": try RunCommand.run(rest)
        case "faces": try FacesCommand.run(rest)
        case "face-analyze": try FaceAnalyzeCommand.run(rest)
        case "hands": try HandsCommand.run(rest)
        case "face-landmarks": try FaceLandmarksCommand.run(rest)
        case "gestures": try GesturesCommand.run(rest)
        case "pose": try PoseCommand.run(rest)
        case "classify": try ClassifyCommand.run(rest)
        case "labels": try LabelsCommand.run(rest)
        case "objects": try ObjectsCommand.run(rest)
        case "embed": try EmbedCommand.run(rest)
        case "similarity": try EmbedCommand.similarity(rest)
        case "segment": try SegmentCommand.run(rest)
        case "-h", "--help", "help": print(usage)
        default: throw CommandLineError.usage("unknown subcommand '\(subcommand)'")
        }
    }
}

/// A problem with the command line or the files it names.
enum CommandLineError: Error, CustomStringConvertible {
    case usage(String)
    case file(String)
    /// Some inputs of a batch failed (each was reported where it occurred); the exit status is 1.
    case inputsFailed(Int, of: Int, detail: String)

    var description: String {
        switch self {
        case .usage(let message): "\(message) (see 'purevision --help')"
        case .file(let message): message
        case .inputsFailed(let failed, let total, let detail): "\(failed) of \(total) input(s) failed (\(detail))"
        }
    }
}

/// A minimal option parser: `--name value`, repeated options, flags and positional arguments.
struct ParsedArguments {
    var positional: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if valueOptions.contains(argument) {
                guard index + 1 < arguments.count else { throw CommandLineError.usage("\(argument) needs a value") }
                values[argument, default: []].append(arguments[index + 1])
                index += 2
            } else if flagOptions.contains(argument) {
                flags.insert(argument)
                index += 1
            } else if argument.hasPrefix("--") {
                throw CommandLineError.usage("unknown option \(argument)")
            } else {
                positional.append(argument)
                index += 1
            }
        }
    }

    func single(_ name: String) throws -> String? {
        guard let list = values[name] else { return nil }
        guard list.count == 1 else { throw CommandLineError.usage("\(name) given more than once") }
        return list[0]
    }

    /// The value of `name` as a whole number ≥ 1, or nil when the option is absent.
    func positiveInteger(_ name: String) throws -> Int? {
        guard let text = try single(name) else { return nil }
        guard let value = Int(text), value >= 1 else {
            throw CommandLineError.usage("\(name) takes a whole number ≥ 1, got '\(text)'")
        }
        return value
    }
}

/// Reads a whole file.
func readFile(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CommandLineError.file("cannot read '\(path)'")
    }
    return [UInt8](data)
}
