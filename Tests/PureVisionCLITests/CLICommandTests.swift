import Foundation
import PureVision
import PureVisionCore
import PureVisionEngine
import PureVisionImage
import PureVisionTestSupport
import Testing

/// The `purevision` command line, run as a subprocess on the fixtures: every subcommand's JSON output against the
/// library's result for the same options, its `--out` files, and its documented error paths (missing file, not an
/// image, a model of another task, bad option values), each one `error: …` line and exit status 1. Helpers:
/// `CLITestSupport.swift`.
@Suite(.timeLimit(.minutes(10))) struct CLICommandTests {
    static let face = CLI.fixture("PureVisionTests/Fixtures/faces/astronaut_scale50.png")
    static let faceJPEG = CLI.fixture("PureVisionTests/Fixtures/faces/grace_hopper.jpg")
    static let hand = CLI.fixture("PureVisionTests/Fixtures/hands/hand_dst_scale50.png")
    static let handFrames = (0..<3).map { CLI.fixture("PureVisionTests/Fixtures/hands/video/frame_00\($0).png") }
    static let object = CLI.fixture("PureVisionTests/Fixtures/classifier/skimage_chelsea.png")
    static let object2 = CLI.fixture("PureVisionTests/Fixtures/classifier/opencvdoc_orange.png")

    // MARK: general

    @Test func helpAndUsageErrors() throws {
        let help = try CLI.succeed(["--help"])
        for subcommand in ["faces", "face-analyze", "hands", "classify", "labels", "run"] {
            #expect(help.stdout.contains("purevision \(subcommand)"), "usage lacks \(subcommand)")
        }
        try CLI.fail(["bogus"], message: ["unknown subcommand 'bogus'"])
        let none = try CLI.run([])
        #expect(none.status == 1 && none.stderr.hasPrefix("error: missing subcommand"), "\(none)")
    }

    // MARK: faces

    @Test func facesJSONMatchesTheLibrary() throws {
        let output = try CLI.succeed(["faces", Self.face, Self.faceJPEG, "--json"])
        let lines = try CLI.jsonLines(output)
        try #require(lines.count == 2)
        let detector = try FaceDetector(modelPath: Fixtures.model("face_detection_short_range.tflite"))
        for (line, path) in zip(lines, [Self.face, Self.faceJPEG]) {
            let image = try PixelImage(contentsOfFile: path)
            let expected = try detector.detect(image: image)
            #expect(line["image"] as? String == path, "the path as given")
            #expect(line["width"] as? Int == image.width && line["height"] as? Int == image.height)
            let detections = try #require(line["detections"] as? [[String: Any]])
            try #require(detections.count == expected.detections.count && !detections.isEmpty)
            for (json, detection) in zip(detections, expected.detections) {
                #expect(CLI.float(json["score"]) == detection.categories.first?.score)
                let b = detection.boundingBox
                #expect(json["boundingBox"] as? [Int] == [b.originX, b.originY, b.width, b.height])
                let keypoints = try #require(json["keypoints"] as? [[Any]])
                try #require(keypoints.count == detection.keypoints.count && keypoints.count == 6)
                for (pair, keypoint) in zip(keypoints, detection.keypoints) {
                    #expect(CLI.floats(pair) == [keypoint.x, keypoint.y])
                }
            }
        }
    }

    @Test func facesOptionsAndOutput() throws {
        let directory = try CLI.scratchDirectory("faces")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = try CLI.succeed(["faces", Self.face, "--min-confidence", "0.2", "--out", directory + "/sub"])
        let lowThreshold = try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("face_detection_short_range.tflite")),
                minDetectionConfidence: 0.2)
        ).detect(image: try PixelImage(contentsOfFile: Self.face))
        #expect(lowThreshold.detections.count == 2, "the 0.2 threshold lets a second, weak detection through")
        #expect(output.lines.first == "\(Self.face): \(lowThreshold.detections.count) face(s)", "\(output)")
        #expect(output.lines.count == 1 + lowThreshold.detections.count)
        try CLI.expectAnnotatedImage(
            at: directory + "/sub/astronaut_scale50_faces.png", like: try PixelImage(contentsOfFile: Self.face))
        // A threshold above every score: no detection.
        let none = try CLI.jsonLines(try CLI.succeed(["faces", Self.face, "--min-confidence", "0.9999", "--json"]))
        #expect((none.first?["detections"] as? [Any])?.isEmpty == true)
        // Another model by --model: the full-range detector's result.
        let full = try CLI.jsonLines(
            try CLI.succeed([
                "faces", Self.face, "--json", "--model", Fixtures.model("face_detection_full_range_sparse.tflite"),
            ]))
        let expected = try FaceDetector(modelPath: Fixtures.model("face_detection_full_range_sparse.tflite"))
            .detect(image: try PixelImage(contentsOfFile: Self.face))
        let detections = try #require(full.first?["detections"] as? [[String: Any]])
        #expect(detections.count == expected.detections.count)
        #expect(CLI.float(detections.first?["score"]) == expected.detections.first?.categories.first?.score)
    }

    @Test func facesErrors() throws {
        let directory = try CLI.scratchDirectory("faces-errors")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try CLI.notAnImage(in: directory)
        try CLI.fail(["faces"], message: ["faces needs at least one IMAGE"])
        try CLI.fail(["faces", CLI.missingFile], message: [CLI.missingFile])
        try CLI.fail(["faces", text], message: ["unsupported image format"])
        try CLI.fail(["faces", Self.face, "--min-confidence", "high"], message: ["--min-confidence takes a number"])
        try CLI.fail(["faces", Self.face, "--min-confidence"], message: ["--min-confidence needs a value"])
        try CLI.fail(["faces", Self.face, "--min-confidence", "1.5"], message: ["minDetectionConfidence"])
        try CLI.fail(["faces", Self.face, "--frobnicate"], message: ["unknown option --frobnicate"])
        try CLI.fail(["faces", Self.face, "--model", Fixtures.model("hand_landmarker.task")], message: ["model"])
        try CLI.fail(["faces", Self.face, "--model", CLI.missingFile], message: [CLI.missingFile])
        try CLI.fail(["faces", Self.face, "--model", text], message: ["model"])
    }

    // MARK: hands

    static func expectHands(_ line: [String: Any], _ expected: HandLandmarkerResult, timestamp: Int) throws {
        #expect(line["timestampMs"] as? Int == timestamp)
        let hands = try #require(line["hands"] as? [[String: Any]])
        try #require(hands.count == expected.hands.count)
        for (json, hand) in zip(hands, expected.hands) {
            let handedness = try #require(json["handedness"] as? [String: Any])
            #expect(handedness["categoryName"] as? String == hand.handedness?.categoryName)
            #expect(handedness["index"] as? Int == hand.handedness?.index)
            #expect(CLI.float(handedness["score"]) == hand.handedness?.score)
            let landmarks = try #require(json["landmarks"] as? [[Any]])
            let world = try #require(json["worldLandmarks"] as? [[Any]])
            try #require(landmarks.count == 21 && world.count == 21 && hand.landmarks.count == 21)
            for (pair, point) in zip(landmarks, hand.landmarks) {
                #expect(CLI.floats(pair) == [point.x, point.y, point.z])
            }
            for (pair, point) in zip(world, hand.worldLandmarks) {
                #expect(CLI.floats(pair) == [point.x, point.y, point.z])
            }
        }
    }

    @Test func handsJSONMatchesTheLibraryInBothModes() throws {
        let image = try CLI.jsonLines(try CLI.succeed(["hands", Self.hand, "--json", "--num-hands", "2"]))
        try #require(image.count == 1)
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("hand_landmarker.task")), numHands: 2))
        let expected = try landmarker.detect(image: try PixelImage(contentsOfFile: Self.hand))
        #expect(expected.hands.count == 1)
        try Self.expectHands(image[0], expected, timestamp: 0)

        let video = try CLI.jsonLines(try CLI.succeed(["hands"] + Self.handFrames + ["--mode", "video", "--json"]))
        try #require(video.count == 3)
        let tracker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("hand_landmarker.task")), runningMode: .video))
        for (index, (line, path)) in zip(video, Self.handFrames).enumerated() {
            let frame = try tracker.detect(
                videoFrame: try PixelImage(contentsOfFile: path), timestampInMilliseconds: 33 * index)
            try Self.expectHands(line, frame, timestamp: 33 * index)
        }
    }

    @Test func handsOutputAndErrors() throws {
        let directory = try CLI.scratchDirectory("hands")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = try CLI.succeed(["hands", Self.hand, "--out", directory])
        #expect(output.lines.first?.hasPrefix("\(Self.hand): 1 hand(s) Left") == true, "\(output)")
        try CLI.expectAnnotatedImage(
            at: directory + "/hand_dst_scale50_hands.png", like: try PixelImage(contentsOfFile: Self.hand))
        let text = try CLI.notAnImage(in: directory)
        try CLI.fail(["hands"], message: ["hands needs at least one IMAGE"])
        try CLI.fail(["hands", CLI.missingFile], message: [CLI.missingFile])
        try CLI.fail(["hands", text], message: ["unsupported image format"])
        try CLI.fail(["hands", Self.hand, "--num-hands", "0"], message: ["--num-hands takes a whole number ≥ 1"])
        try CLI.fail(["hands", Self.hand, "--num-hands", "two"], message: ["--num-hands"])
        try CLI.fail(["hands", Self.hand, "--mode", "live"], message: ["--mode must be image or video, got 'live'"])
        // A face model is not a hand landmarker bundle: the error names the missing entry.
        try CLI.fail(
            ["hands", Self.hand, "--model", Fixtures.model("face_detection_short_range.tflite")], message: ["model"])
    }

    // MARK: face-analyze

    @Test func faceAnalyzeJSONMatchesTheLibrary() throws {
        let directory = try CLI.scratchDirectory("face-analyze")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = try CLI.succeed([
            "face-analyze", Self.face, "--landmarks", "--contours", "--classify", "--json", "--out", directory,
        ])
        let lines = try CLI.jsonLines(output)
        try #require(lines.count == 1)
        let analyzer = try FaceAnalyzer(
            options: FaceAnalyzerOptions(
                modelDirectory: Fixtures.packageRoot().appendingPathComponent("Models").path, landmarkMode: .all,
                contourMode: .all, classificationMode: .all))
        let image = try PixelImage(contentsOfFile: Self.face)
        let faces = try analyzer.results(in: image)
        let json = try #require(lines[0]["faces"] as? [[String: Any]])
        try #require(json.count == faces.count && faces.count == 1)
        let (face, line) = (faces[0], json[0])
        #expect(
            CLI.floats(line["frame"]) == [face.frame.originX, face.frame.originY, face.frame.width, face.frame.height])
        #expect(CLI.float(line["headEulerAngleY"]) == face.headEulerAngleY)
        #expect(CLI.float(line["smilingProbability"]) == face.smilingProbability)
        #expect(CLI.float(line["leftEyeOpenProbability"]) == face.leftEyeOpenProbability)
        let landmarks = try #require(line["landmarks"] as? [String: [Any]])
        #expect(landmarks.count == face.landmarks?.count && !landmarks.isEmpty)
        for landmark in face.landmarks ?? [] {
            #expect(CLI.floats(landmarks[landmark.type.rawValue]) == [landmark.position.x, landmark.position.y])
        }
        let contours = try #require(line["contours"] as? [String: [[Any]]])
        #expect(contours.count == 15 && contours.values.reduce(0) { $0 + $1.count } == 133)
        #expect(line["trackingID"] == nil, "no tracking ID in image mode")
        try CLI.expectAnnotatedImage(at: directory + "/astronaut_scale50_face_analysis.png", like: image)

        // Flags off: the values are absent. Video mode: tracking IDs and timestamps 33 ms apart.
        let plain = try CLI.jsonLines(
            try CLI.succeed(["face-analyze", Self.face, Self.face, "--mode", "video", "--json"]))
        try #require(plain.count == 2)
        #expect(plain.map { $0["timestampMs"] as? Int } == [0, 33])
        let first = try #require((plain[0]["faces"] as? [[String: Any]])?.first)
        #expect(first["landmarks"] == nil && first["contours"] == nil && first["smilingProbability"] == nil)
        let ids = plain.compactMap { ($0["faces"] as? [[String: Any]])?.first?["trackingID"] as? Int }
        #expect(ids.count == 2 && ids[0] == ids[1], "the same face keeps its tracking ID: \(ids)")
    }

    @Test func faceAnalyzeErrors() throws {
        let directory = try CLI.scratchDirectory("face-analyze-errors")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try CLI.notAnImage(in: directory)
        try CLI.fail(["face-analyze"], message: ["face-analyze needs at least one IMAGE"])
        try CLI.fail(["face-analyze", CLI.missingFile], message: [CLI.missingFile])
        try CLI.fail(["face-analyze", text], message: ["unsupported image format"])
        try CLI.fail(["face-analyze", Self.face, "--mode", "stream"], message: ["--mode must be image or video"])
        // A directory without the face models.
        try CLI.fail(["face-analyze", Self.face, "--models", directory], message: [directory])
    }

    // MARK: classify

    @Test func classifyJSONMatchesTheLibrary() throws {
        let lines = try CLI.jsonLines(
            try CLI.succeed(["classify", Self.object, Self.object2, "--json", "--max-results", "3"]))
        try #require(lines.count == 2)
        let classifier = try ImageClassifier(
            options: ImageClassifierOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("efficientnet_lite0.tflite")), maxResults: 3))
        for (line, path) in zip(lines, [Self.object, Self.object2]) {
            let expected = try classifier.classify(image: try PixelImage(contentsOfFile: path))
            #expect(line["image"] as? String == path, "the path as given")
            let heads = try #require(line["classifications"] as? [[String: Any]])
            try #require(heads.count == 1 && expected.classifications.count == 1)
            #expect(heads[0]["headIndex"] as? Int == 0)
            let categories = try #require(heads[0]["categories"] as? [[String: Any]])
            let reference = expected.classifications[0].categories
            try #require(categories.count == 3 && reference.count == 3)
            for (json, category) in zip(categories, reference) {
                #expect(json["index"] as? Int == category.index)
                #expect(CLI.float(json["score"]) == category.score)
                #expect(json["categoryName"] as? String == category.categoryName)
            }
        }
        // --allow keeps only the named classes, in score order; --score-threshold drops the rest.
        let allowed = try CLI.jsonLines(
            try CLI.succeed(["classify", Self.object, "--json", "--allow", "tabby,tiger cat", "--score-threshold", "0"])
        )
        let names = ((allowed.first?["classifications"] as? [[String: Any]])?.first?["categories"] as? [[String: Any]])?
            .compactMap { $0["categoryName"] as? String }
        #expect(Set(names ?? []) == ["tabby", "tiger cat"])
        let human = try CLI.succeed(["classify", Self.object, "--max-results", "1"])
        let top = try #require(
            try classifier.classify(image: try PixelImage(contentsOfFile: Self.object))
                .classifications.first?.categories.first)
        #expect(
            human.lines.count == 2 && human.lines[1].hasSuffix("\(top.categoryName ?? "?") (\(top.index))"), "\(human)")
    }

    @Test func classifyInt8WithNormalizationAndLabels() throws {
        let directory = try CLI.scratchDirectory("classify-int8")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let labels = directory + "/labels.txt"
        try (0..<1000).map { "class \($0)" }.joined(separator: "\n").write(
            toFile: labels, atomically: true, encoding: .utf8)
        let int8 = Fixtures.model("efficientnet_lite0_int8.tflite")
        let lines = try CLI.jsonLines(
            try CLI.succeed([
                "classify", Self.object, "--model", int8, "--normalization", "127,128", "--labels", labels, "--json",
                "--max-results", "5",
            ]))
        let expected = try ImageClassifier(
            options: ImageClassifierOptions(
                baseOptions: BaseOptions(modelAssetPath: int8), maxResults: 5,
                inputNormalization: InputNormalization(mean: 127, std: 128), labelsFilePath: labels)
        ).classify(image: try PixelImage(contentsOfFile: Self.object))
        let categories = try #require(
            ((lines.first?["classifications"] as? [[String: Any]])?.first?["categories"] as? [[String: Any]]))
        try #require(categories.count == 5)
        for (json, category) in zip(categories, expected.classifications[0].categories) {
            #expect(json["index"] as? Int == category.index)
            #expect(json["categoryName"] as? String == "class \(category.index)")
            #expect(CLI.float(json["score"]) == category.score)
        }
        // Without its normalization the int8 model (no metadata) is refused.
        try CLI.fail(["classify", Self.object, "--model", int8], message: [])
    }

    @Test func classifyErrors() throws {
        let directory = try CLI.scratchDirectory("classify-errors")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try CLI.notAnImage(in: directory)
        try CLI.fail(["classify"], message: ["classify needs at least one IMAGE"])
        try CLI.fail(["classify", CLI.missingFile], message: [CLI.missingFile])
        try CLI.fail(["classify", text], message: ["unsupported image format"])
        try CLI.fail(["classify", Self.object, "--max-results", "many"], message: ["--max-results takes an integer"])
        try CLI.fail(["classify", Self.object, "--max-results", "0"], message: ["maxResults"])
        try CLI.fail(
            ["classify", Self.object, "--score-threshold", "x"], message: ["--score-threshold takes a number"])
        try CLI.fail(["classify", Self.object, "--normalization", "127"], message: ["--normalization takes MEAN,STD"])
        try CLI.fail(
            ["classify", Self.object, "--normalization", "127,0"], message: ["--normalization takes MEAN,STD"])
        try CLI.fail(["classify", Self.object, "--allow", "tabby", "--deny", "tench"], message: [])
        try CLI.fail(
            [
                "classify", Self.object, "--labels", CLI.missingFile, "--model",
                Fixtures.model("efficientnet_lite0_int8.tflite"), "--normalization", "127,128",
            ],
            message: [])
        // A detector is not a classifier.
        try CLI.fail(["classify", Self.object, "--model", Fixtures.model("hand_landmarker.task")], message: [])
    }

    // MARK: labels

    @Test func labelsPrintsTheModelsLabels() throws {
        let output = try CLI.succeed(["labels", Fixtures.model("efficientnet_lite0.tflite")])
        let expected = try ImageClassifier.labels(
            of: BaseOptions(modelAssetPath: Fixtures.model("efficientnet_lite0.tflite")))
        try #require(expected.count == 1)
        #expect(output.lines == expected[0].names)
        #expect(output.lines.count == 1000 && output.lines.first == "tench")
        try CLI.fail(["labels"], message: ["labels takes exactly one MODEL, got 0"])
        try CLI.fail(["labels", CLI.missingFile], message: [CLI.missingFile])
        try CLI.fail(["labels", Fixtures.model("efficientnet_lite0_int8.tflite")], message: ["has no labels"])
        try CLI.fail(["labels", Self.object], message: ["file identifier", "expected \"TFL3\""])
    }

    // MARK: run

    @Test func runWritesTheInterpretersOutputs() throws {
        let directory = try CLI.scratchDirectory("run")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = Fixtures.model("face_detection_short_range.tflite")
        let interpreter = try Interpreter(contentsOf: model)
        let description = try #require(interpreter.inputs.first)
        var random = SplitMix64(seed: 5)
        let input = try Tensor(
            shape: description.shape, floats: random.signedUnitFloats(description.shape.elementCount))
        let inputPath = directory + "/input.npy"
        try Data(NumpyFile.encode(input)).write(to: URL(fileURLWithPath: inputPath))
        let expected = try interpreter.run([input])
        for threads in ["1", "2"] {
            let out = directory + "/out\(threads)"
            _ = try CLI.succeed(["run", model, "--input", inputPath, "--output-dir", out, "--threads", threads])
            let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(files == ["output_0.npy", "output_1.npy"])
            for (index, tensor) in expected.enumerated() {
                let written = try Fixtures.numpy(atPath: out + "/output_\(index).npy")
                #expect(written.shape == tensor.shape && written.elementType == .float32)
                let comparison = Comparison(
                    written.floats, tensor.floats, tolerance: Tolerance(absolute: 1e-5, relative: 1e-5))
                #expect(comparison.passed, "output \(index), \(threads) threads: \(comparison)")
            }
        }
        // int8 in, int8 out.
        let int8 = Fixtures.model("efficientnet_lite0_int8.tflite")
        let int8Interpreter = try Interpreter(contentsOf: int8)
        let int8Description = try #require(int8Interpreter.inputs.first)
        let int8Input = try Tensor(
            shape: int8Description.shape, elementType: .int8,
            bytes: (0..<int8Description.shape.elementCount).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try Data(NumpyFile.encode(int8Input)).write(to: URL(fileURLWithPath: directory + "/int8.npy"))
        _ = try CLI.succeed(["run", int8, "--input", directory + "/int8.npy", "--output-dir", directory + "/int8out"])
        let int8Output = try Fixtures.numpy(atPath: directory + "/int8out/output_0.npy")
        #expect(int8Output.elementType == .int8)
        #expect(int8Output.bytes == (try int8Interpreter.run([int8Input]))[0].bytes)
    }

    @Test func runErrors() throws {
        let directory = try CLI.scratchDirectory("run-errors")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = Fixtures.model("face_detection_short_range.tflite")
        let good = directory + "/good.npy"
        try Data(NumpyFile.encode(try Tensor(shape: [1, 128, 128, 3], floats: [Float](repeating: 0, count: 49152))))
            .write(to: URL(fileURLWithPath: good))
        let wrongShape = directory + "/shape.npy"
        try Data(NumpyFile.encode(try Tensor(shape: [1, 3], floats: [0, 0, 0]))).write(
            to: URL(fileURLWithPath: wrongShape))
        let wrongType = directory + "/type.npy"
        try Data(
            NumpyFile.encode(
                try Tensor(shape: [1, 128, 128, 3], elementType: .int8, bytes: [UInt8](repeating: 0, count: 49152)))
        )
        .write(to: URL(fileURLWithPath: wrongType))
        let text = try CLI.notAnImage(in: directory, name: "bad.npy")
        let out = directory + "/out"
        try CLI.fail(["run", "--input", good, "--output-dir", out], message: ["run takes exactly one MODEL, got 0"])
        try CLI.fail(["run", model, "--input", good], message: ["run needs --output-dir DIR"])
        try CLI.fail(["run", CLI.missingFile, "--input", good, "--output-dir", out], message: [CLI.missingFile])
        try CLI.fail(["run", Self.object, "--input", good, "--output-dir", out], message: ["expected \"TFL3\""])
        try CLI.fail(["run", model, "--output-dir", out], message: ["the model has 1 input(s)", "got 0 --input"])
        try CLI.fail(["run", model, "--input", CLI.missingFile, "--output-dir", out], message: [CLI.missingFile])
        try CLI.fail(["run", model, "--input", text, "--output-dir", out], message: ["bad.npy"])
        try CLI.fail(["run", model, "--input", wrongShape, "--output-dir", out], message: ["has shape", "needs"])
        try CLI.fail(["run", model, "--input", wrongType, "--output-dir", out], message: ["holds int8", "is float32"])
        for threads in ["0", "257", "two"] {
            try CLI.fail(
                ["run", model, "--input", good, "--output-dir", out, "--threads", threads],
                message: ["--threads must be an integer from 1 to 256, got '\(threads)'"])
        }
        #expect(!FileManager.default.fileExists(atPath: out), "a failed run wrote its output directory")
    }
}
