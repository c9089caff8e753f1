import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Parity with MediaPipe Tasks 0.10.14's HandLandmarker on the hand photos and their rotated, scaled and composite
/// copies (IMAGE mode, numHands 1 and 2) and on a 48-frame synthetic video (VIDEO mode, tracking).
/// Goldens: `tools/make_hand_goldens.py`.
///
/// Acceptance (the issue's): same number of hands, same handedness label, handedness score within 0.03, every
/// landmark within 0.02 and on average within 0.005 (normalized, x, y and z), world landmarks within 0.01 m. Every
/// hand has 21 landmarks and 21 world landmarks, checked before any value. The worst cases over all goldens are also
/// held to `MeasuredBounds`: the measured error times a safety factor, so a 10× regression cannot pass.
@Suite struct HandLandmarkerParityTests {
    static let directory = Fixtures.testFile("PureVisionTests/Fixtures/hands")
    static let bundle = Fixtures.model("hand_landmarker.task")

    /// IMAGE mode. In MediaPipe's arithmetic (``MediaPipeArithmetic``) landmarks and world landmarks are equal to
    /// MediaPipe's (measured 0 over the 110 image runs and the 96 runs on the video frames); the handedness score
    /// differs by up to 5.4e-7, the model's LOGISTIC (XNNPACK's polynomial, not reproduced). With the Swift kernels:
    /// the worst errors measured (landmarks 8.0e-5, world 3.6e-5 m, handedness 2.2e-4) times about 5.
    enum MeasuredBounds {
        static let landmark: Float = MediaPipeArithmetic.isReproduced ? 0 : 4e-4
        static let world: Float = MediaPipeArithmetic.isReproduced ? 0 : 2e-4
        static let handedness: Float = MediaPipeArithmetic.isReproduced ? 2e-6 : 1e-3
    }

    /// VIDEO mode (tracking: each frame's crop comes from the previous frame's landmarks). In MediaPipe's arithmetic
    /// every frame's landmarks equal MediaPipe's (measured 0 over the 48 frames). With the Swift kernels the
    /// last-bit differences carry over and grow: measured landmarks 4.7e-3 (largest in z), world 3.5e-3 m,
    /// handedness 9.9e-3, held to twice that.
    enum VideoBounds {
        static let landmark: Float = MediaPipeArithmetic.isReproduced ? 0 : 1e-2
        static let world: Float = MediaPipeArithmetic.isReproduced ? 0 : 7e-3
        static let handedness: Float = MediaPipeArithmetic.isReproduced ? 2e-6 : 0.02
    }

    struct GoldenHand: Sendable {
        let index: Int
        let score: Float
        let label: String
        let landmarks: [[Float]]
        let world: [[Float]]
    }

    struct Golden: Sendable, CustomTestStringConvertible {
        let image: String
        let numHands: Int
        let rotationDegrees: Int
        let hands: [GoldenHand]
        var testDescription: String { "\(image) hands \(numHands) rot \(rotationDegrees)" }
    }

    static func json(_ file: String) -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: directory + "/" + file),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return root
    }

    static func hands(_ list: Any?) -> [GoldenHand] {
        (list as? [[String: Any]] ?? []).map { hand in
            let h = hand["handedness"] as? [String: Any] ?? [:]
            return GoldenHand(
                index: h["index"] as? Int ?? -1, score: Float(h["score"] as? Double ?? -1),
                label: h["category_name"] as? String ?? "",
                landmarks: (hand["landmarks"] as? [[Double]] ?? []).map { $0.map(Float.init) },
                world: (hand["world_landmarks"] as? [[Double]] ?? []).map { $0.map(Float.init) })
        }
    }

    /// Our decoders agree with PIL; MediaPipe's own loader decodes JPEGs differently, so JPEG inputs are compared
    /// with the runs MediaPipe made on PIL's decode.
    static let imageGoldens: [Golden] = (json("hands_image.json")["results"] as? [[String: Any]] ?? []).compactMap {
        entry in
        let image = entry["image"] as? String ?? ""
        let decoder = entry["decoder"] as? String ?? ""
        guard decoder == "pil" || (decoder == "mediapipe" && image.hasSuffix(".png")) else { return nil }
        let options = entry["options"] as? [String: Any] ?? [:]
        return Golden(
            image: image, numHands: options["num_hands"] as? Int ?? 1,
            rotationDegrees: options["rotation_degrees"] as? Int ?? 0, hands: hands(entry["hands"]))
    }

    /// Differences between one result and its golden.
    struct Differences {
        var maxLandmark: Float = 0
        /// The largest z error (relative depth, on the scale of x).
        var maxDepth: Float = 0
        var sumLandmark: Float = 0
        var landmarkCount = 0
        var maxWorld: Float = 0
        var maxHandedness: Float = 0
        var meanLandmark: Float { landmarkCount == 0 ? 0 : sumLandmark / Float(landmarkCount) }

        mutating func add(_ result: HandLandmarkerResult, _ golden: [GoldenHand], context: String) {
            #expect(result.landmarks.count == golden.count, "\(context): \(result.landmarks.count) hands")
            #expect(result.worldLandmarks.count == golden.count && result.handedness.count == golden.count)
            for (hand, expected) in zip(result.hands, golden) {
                #expect(hand.landmarks.count == 21 && expected.landmarks.count == 21, "\(context): landmark count")
                #expect(hand.worldLandmarks.count == 21 && expected.world.count == 21, "\(context): world count")
                #expect(expected.landmarks.allSatisfy { $0.count == 3 } && expected.world.allSatisfy { $0.count == 3 })
                #expect(hand.handedness?.categoryName == expected.label, "\(context): handedness label")
                #expect(hand.handedness?.index == expected.index, "\(context): handedness index")
                maxHandedness = max(maxHandedness, abs((hand.handedness?.score ?? -1) - expected.score))
                for (p, q) in zip(hand.landmarks, expected.landmarks) {
                    let error = max(abs(p.x - q[0]), abs(p.y - q[1]), abs(p.z - q[2]))
                    maxLandmark = max(maxLandmark, error)
                    maxDepth = max(maxDepth, abs(p.z - q[2]))
                    sumLandmark += error
                    landmarkCount += 1
                }
                for (p, q) in zip(hand.worldLandmarks, expected.world) {
                    maxWorld = max(maxWorld, abs(p.x - q[0]), abs(p.y - q[1]), abs(p.z - q[2]))
                }
            }
        }

        /// The worst case over a whole golden set of IMAGE-mode runs against the measured bounds.
        func expectWithinMeasuredBounds(_ context: String) {
            #expect(maxLandmark <= MeasuredBounds.landmark, "\(context): landmark error \(maxLandmark)")
            #expect(maxWorld <= MeasuredBounds.world, "\(context): world landmark error \(maxWorld)")
            #expect(maxHandedness <= MeasuredBounds.handedness, "\(context): handedness error \(maxHandedness)")
        }

        /// The worst case over a VIDEO-mode sequence against the measured bounds of tracking.
        func expectWithinVideoBounds(_ context: String) {
            #expect(maxLandmark <= VideoBounds.landmark, "\(context): landmark error \(maxLandmark)")
            #expect(maxWorld <= VideoBounds.world, "\(context): world landmark error \(maxWorld)")
            #expect(maxHandedness <= VideoBounds.handedness, "\(context): handedness error \(maxHandedness)")
        }

        var summary: String {
            "max landmark error \(maxLandmark) (z \(maxDepth)), mean \(meanLandmark), world \(maxWorld), "
                + "handedness \(maxHandedness)"
        }

        func expectWithinAcceptance(_ context: String) {
            #expect(maxLandmark <= 0.02, "\(context): landmark error \(maxLandmark)")
            #expect(meanLandmark <= 0.005, "\(context): mean landmark error \(meanLandmark)")
            #expect(maxWorld <= 0.01, "\(context): world landmark error \(maxWorld)")
            #expect(maxHandedness <= 0.03, "\(context): handedness score error \(maxHandedness)")
        }
    }

    @Test func goldensArePresent() {
        #expect(Self.imageGoldens.count >= 60)
    }

    @Test(arguments: GoldenSample.select(imageGoldens))
    func imageModeMatchesMediaPipe(_ golden: Golden) throws {
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Self.bundle), numHands: golden.numHands))
        let image = try PixelImage(contentsOfFile: Self.directory + "/" + golden.image)
        let result = try landmarker.detect(
            image: image, imageProcessingOptions: ImageProcessingOptions(rotationDegrees: golden.rotationDegrees))
        var differences = Differences()
        differences.add(result, golden.hands, context: golden.testDescription)
        differences.expectWithinAcceptance(golden.testDescription)
    }

    /// VIDEO mode: every frame against MediaPipe's video mode, tracking from frame to frame.
    @Test(arguments: [1, 2])
    func videoModeMatchesMediaPipe(numHands: Int) throws {
        let runs = Self.json("hands_video.json")["runs"] as? [[String: Any]] ?? []
        let run = try #require(
            runs.first { (($0["options"] as? [String: Any])?["num_hands"] as? Int) == numHands }, "no golden run")
        let frames = run["frames"] as? [[String: Any]] ?? []
        #expect(frames.count >= 40)
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Self.bundle), runningMode: .video, numHands: numHands))
        var differences = Differences()
        for frame in frames {
            let name = frame["image"] as? String ?? ""
            let image = try PixelImage(contentsOfFile: Self.directory + "/" + name)
            let result = try landmarker.detect(
                videoFrame: image, timestampInMilliseconds: frame["timestamp_ms"] as? Int ?? -1)
            differences.add(result, Self.hands(frame["hands"]), context: "video \(name)")
        }
        differences.expectWithinAcceptance("video numHands \(numHands)")
        differences.expectWithinVideoBounds("video numHands \(numHands)")
        // Tracking: palm detection runs only while fewer than numHands hands are tracked. The sequence shows one
        // hand, so with numHands 1 it runs on frame 0 only (as MediaPipe does, verified in the doc), and with
        // numHands 2 on every frame.
        #expect(landmarker.palmDetectionCount == (numHands == 1 ? 1 : frames.count))
        print(
            "HandLandmarker video numHands \(numHands): \(frames.count) frames, palm detections "
                + "\(landmarker.palmDetectionCount), \(differences.summary)")
    }

    /// IMAGE mode on every frame of the video sequence (`hands_video_image_mode.json`, numHands 1 and 2): no
    /// tracking, a palm detection per frame, each frame against MediaPipe's IMAGE mode on it.
    @Test func imageModeOnTheVideoFramesMatchesMediaPipe() throws {
        let results = Self.json("hands_video_image_mode.json")["results"] as? [[String: Any]] ?? []
        try #require(results.count == 96)
        var landmarkers: [Int: HandLandmarker] = [:]
        var all = Differences()
        for entry in results {
            let image = entry["image"] as? String ?? ""
            let numHands = (entry["options"] as? [String: Any])?["num_hands"] as? Int ?? 1
            let landmarker =
                try landmarkers[numHands]
                ?? HandLandmarker(
                    options: HandLandmarkerOptions(
                        baseOptions: BaseOptions(modelAssetPath: Self.bundle), numHands: numHands))
            landmarkers[numHands] = landmarker
            let result = try landmarker.detect(image: try PixelImage(contentsOfFile: Self.directory + "/" + image))
            all.add(result, Self.hands(entry["hands"]), context: "\(image) numHands \(numHands)")
        }
        print("HandLandmarker image mode on the video frames: \(results.count) runs, \(all.summary)")
        all.expectWithinAcceptance("image mode on the video frames")
        all.expectWithinMeasuredBounds("image mode on the video frames")
    }

    /// The worst case over every image golden, printed for the record and held to the measured bounds: the port
    /// follows MediaPipe's arithmetic.
    @Test func imageModeWorstCase() throws {
        var all = Differences()
        var landmarkers: [Int: HandLandmarker] = [:]
        for golden in GoldenSample.select(Self.imageGoldens) {
            let landmarker =
                try landmarkers[golden.numHands]
                ?? HandLandmarker(
                    options: HandLandmarkerOptions(
                        baseOptions: BaseOptions(modelAssetPath: Self.bundle), numHands: golden.numHands))
            landmarkers[golden.numHands] = landmarker
            let image = try PixelImage(contentsOfFile: Self.directory + "/" + golden.image)
            let result = try landmarker.detect(
                image: image, imageProcessingOptions: ImageProcessingOptions(rotationDegrees: golden.rotationDegrees))
            all.add(result, golden.hands, context: golden.testDescription)
        }
        print("HandLandmarker image mode: \(GoldenSample.select(Self.imageGoldens).count) runs, \(all.summary)")
        all.expectWithinMeasuredBounds("image mode")
    }
}
