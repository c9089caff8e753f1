import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// The public task API beyond the parity suites: the `async` VIDEO forms, models loaded from a memory buffer, every
/// task on more than one thread, and the IDENTITY / inverse-logistic score calibrations.
@Suite struct TaskAPITests {
    static func fixture(_ path: String) -> String { Fixtures.testFile("PureVisionTests/Fixtures/\(path)") }
    static func handPhoto() throws -> PixelImage {
        try PixelImage(contentsOfFile: fixture("hands/hand_dst_scale50.png"))
    }
    static func facePhoto() throws -> PixelImage {
        try PixelImage(contentsOfFile: fixture("faces/astronaut_scale50.png"))
    }
    static func objectPhoto() throws -> PixelImage {
        try PixelImage(contentsOfFile: fixture("classifier/skimage_chelsea.png"))
    }

    // MARK: async VIDEO forms

    /// Calls `body` from a synchronous context, where the synchronous overload of a task method is chosen (inside an
    /// `async` test the `async` one would be).
    static func synchronously<R>(_ body: () throws -> R) rethrows -> R { try body() }

    /// The `async` VIDEO form runs the same pipeline, tracking included, as the synchronous one.
    @Test func handLandmarkerAsyncVideoMatchesTheSynchronousForm() async throws {
        let frames = try [Self.handPhoto(), PixelImage(contentsOfFile: Self.fixture("hands/hand_src_scale50.png"))]
        let options = HandLandmarkerOptions(
            baseOptions: BaseOptions(modelAssetPath: Fixtures.model("hand_landmarker.task")), runningMode: .video)
        let synchronous = try HandLandmarker(options: options)
        let asynchronous = try HandLandmarker(options: options)
        for t in 0..<4 {
            let frame = frames[t % 2]
            let expected = try Self.synchronously {
                try synchronous.detect(videoFrame: frame, timestampInMilliseconds: 33 * t)
            }
            let result = try await asynchronous.detect(videoFrame: frame, timestampInMilliseconds: 33 * t)
            #expect(expected.landmarks.count == 1 && expected.landmarks.first?.count == 21)
            #expect(result == expected, "frame \(t)")
        }
        #expect(asynchronous.palmDetectionCount == synchronous.palmDetectionCount)
        await #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 99, given: 99)) {
            try await asynchronous.detect(videoFrame: frames[0], timestampInMilliseconds: 99)
        }
        await #expect(throws: VisionTaskError.wrongRunningMode(expected: .image, actual: .video)) {
            try await asynchronous.detect(image: frames[0])
        }
    }

    @Test func imageClassifierAsyncVideoMatchesTheSynchronousForm() async throws {
        let image = try Self.objectPhoto()
        let options = ImageClassifierOptions(
            baseOptions: BaseOptions(modelAssetPath: Fixtures.model("efficientnet_lite0.tflite")), runningMode: .video,
            maxResults: 5)
        let synchronous = try ImageClassifier(options: options)
        let asynchronous = try ImageClassifier(options: options)
        for t in [5, 40] {
            let expected = try Self.synchronously {
                try synchronous.classify(videoFrame: image, timestampInMilliseconds: t)
            }
            let result = try await asynchronous.classify(videoFrame: image, timestampInMilliseconds: t)
            #expect(expected.classifications.first?.categories.count == 5)
            #expect(result == expected)
            #expect(result.timestampInMilliseconds == t)
        }
        await #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 40, given: 40)) {
            try await asynchronous.classify(videoFrame: image, timestampInMilliseconds: 40)
        }
    }

    @Test func faceDetectorAsyncImageFormMatchesTheSynchronousForm() async throws {
        let image = try Self.facePhoto()
        let detector = try FaceDetector(modelPath: Fixtures.model("face_detection_short_range.tflite"))
        let expected = try Self.synchronously { try detector.detect(image: image) }
        #expect(expected.detections.count == 1)
        #expect(try await detector.detect(image: image) == expected)
    }

    // MARK: memory buffers

    /// A model given as bytes (`BaseOptions.modelAssetBuffer`) gives the very results of the same file by path.
    @Test func modelsLoadFromAMemoryBuffer() throws {
        let faceModel = Fixtures.model("face_detection_short_range.tflite")
        let fromPath = try FaceDetector(
            options: FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: faceModel)))
        let fromBuffer = try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(modelAssetBuffer: try Fixtures.bytes(atPath: faceModel))))
        let face = try Self.facePhoto()
        #expect(try fromBuffer.detect(image: face) == fromPath.detect(image: face))
        #expect(try fromBuffer.detect(image: face).detections.count == 1)

        let bundle = Fixtures.model("hand_landmarker.task")
        let handsFromPath = try HandLandmarker(modelPath: bundle)
        let handsFromBuffer = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetBuffer: try Fixtures.bytes(atPath: bundle))))
        let hand = try Self.handPhoto()
        #expect(try handsFromBuffer.detect(image: hand) == handsFromPath.detect(image: hand))
        #expect(try handsFromBuffer.detect(image: hand).landmarks.count == 1)

        let classifierModel = Fixtures.model("efficientnet_lite0.tflite")
        let classifierFromPath = try ImageClassifier(modelPath: classifierModel)
        let classifierFromBuffer = try ImageClassifier(
            options: ImageClassifierOptions(
                baseOptions: BaseOptions(modelAssetBuffer: try Fixtures.bytes(atPath: classifierModel))))
        let object = try Self.objectPhoto()
        let expected = try classifierFromPath.classify(image: object)
        #expect(try classifierFromBuffer.classify(image: object) == expected)
        // The labels come from the buffer's own metadata, not from a file beside a path.
        #expect(expected.classifications.first?.categories.first?.categoryName?.isEmpty == false)

        #expect(throws: VisionTaskError.self) {
            try FaceDetector(options: FaceDetectorOptions(baseOptions: BaseOptions(modelAssetBuffer: [1, 2, 3])))
        }
    }

    // MARK: threads

    /// The largest difference between two results encoded as JSON: nil when their structure (keys, counts, strings,
    /// booleans) differs, else the largest difference of any number.
    static func largestDifference<T: Encodable>(_ a: T, _ b: T) throws -> Double? {
        let encoder = JSONEncoder()
        let left = try JSONSerialization.jsonObject(with: encoder.encode(a), options: [.fragmentsAllowed])
        let right = try JSONSerialization.jsonObject(with: encoder.encode(b), options: [.fragmentsAllowed])
        return difference(left, right)
    }

    static func difference(_ a: Any, _ b: Any) -> Double? {
        switch (a, b) {
        case (let x as [String: Any], let y as [String: Any]):
            guard Set(x.keys) == Set(y.keys) else { return nil }
            var worst = 0.0
            for key in x.keys {
                guard let d = difference(x[key] as Any, y[key] as Any) else { return nil }
                worst = max(worst, d)
            }
            return worst
        case (let x as [Any], let y as [Any]):
            guard x.count == y.count else { return nil }
            var worst = 0.0
            for (p, q) in zip(x, y) {
                guard let d = difference(p, q) else { return nil }
                worst = max(worst, d)
            }
            return worst
        case (let x as String, let y as String): return x == y ? 0 : nil
        case (let x as NSNumber, let y as NSNumber):
            // Booleans come as NSNumber too (0 or 1): a flipped one differs by 1, far beyond any tolerance.
            return abs(x.doubleValue - y.doubleValue)
        case (is NSNull, is NSNull): return 0
        default: return nil
        }
    }

    /// Threads split rows of the same kernels, so results agree with one thread up to float reassociation: measured,
    /// bit for bit for every task but the hand landmarker (1.4e-7 on 2 and 3 threads); bound 7× that.
    static let threadTolerance = 1e-6

    static func expectSameAsOneThread<T: Encodable>(_ one: T, _ many: T, _ label: String) throws {
        let difference = try largestDifference(one, many)
        #expect(difference != nil, "\(label): the results differ in structure")
        if let difference {
            #expect(difference <= threadTolerance, "\(label): largest difference \(difference)")
            if difference > 0 { print("\(label): largest difference to 1 thread \(difference)") }
        }
    }

    @Test(arguments: [2, 3])
    func everyTaskOnMoreThreadsMatchesOneThread(threads: Int) throws {
        let face = try Self.facePhoto()
        let hand = try Self.handPhoto()
        let object = try Self.objectPhoto()
        for model in ["face_detection_short_range.tflite", "face_detection_full_range_sparse.tflite"] {
            func detector(_ threadCount: Int) throws -> FaceDetector {
                try FaceDetector(
                    options: FaceDetectorOptions(
                        baseOptions: BaseOptions(modelAssetPath: Fixtures.model(model), threadCount: threadCount)))
            }
            let one = try detector(1).detect(image: face)
            #expect(one.detections.count == 1)
            try Self.expectSameAsOneThread(
                one, try detector(threads).detect(image: face), "\(model) \(threads) threads")
        }

        func landmarker(_ threadCount: Int) throws -> HandLandmarker {
            try HandLandmarker(
                options: HandLandmarkerOptions(
                    baseOptions: BaseOptions(
                        modelAssetPath: Fixtures.model("hand_landmarker.task"), threadCount: threadCount),
                    numHands: 2))
        }
        let hands = try landmarker(1).detect(image: hand)
        #expect(hands.landmarks.count == 1)
        try Self.expectSameAsOneThread(hands, try landmarker(threads).detect(image: hand), "hands \(threads) threads")

        for model in ["efficientnet_lite0.tflite", "efficientnet_lite0_int8.tflite"] {
            func classifier(_ threadCount: Int) throws -> ImageClassifier {
                try ImageClassifier(
                    options: ImageClassifierOptions(
                        baseOptions: BaseOptions(modelAssetPath: Fixtures.model(model), threadCount: threadCount),
                        maxResults: 10,
                        inputNormalization: model.contains("int8") ? InputNormalization(mean: 127, std: 128) : nil))
            }
            let one = try classifier(1).classify(image: object)
            #expect(one.classifications.first?.categories.count == 10)
            try Self.expectSameAsOneThread(
                one, try classifier(threads).classify(image: object), "\(model) \(threads) threads")
        }

        func analyzer(_ threadCount: Int) throws -> FaceAnalyzer {
            try FaceAnalyzer(
                options: FaceAnalyzerOptions(
                    modelDirectory: FaceTestImages.modelDirectory, threadCount: threadCount,
                    performanceMode: .accurate, landmarkMode: .all, contourMode: .all, classificationMode: .all))
        }
        let faces = try analyzer(1).results(in: face)
        #expect(faces.count == 1 && faces.first?.meshLandmarks.count == 468)
        try Self.expectSameAsOneThread(
            faces, try analyzer(threads).results(in: face), "face analyzer \(threads) threads")
    }

    // MARK: score calibration

    struct CalibrationGolden: Decodable {
        struct Category: Decodable {
            let index: Int
            let score: Float
            let categoryName: String

            enum CodingKeys: String, CodingKey {
                case index, score
                case categoryName = "category_name"
            }
        }
        struct Head: Decodable { let categories: [Category] }
        struct Run: Decodable {
            let model: String
            let transformation: String
            let classifications: [Head]
        }
        let image: String
        let rawScores: [Float]
        let runs: [Run]

        enum CodingKeys: String, CodingKey {
            case image, runs
            case rawScores = "raw_scores"
        }
    }

    /// MediaPipe's results with IDENTITY and INVERSE_LOGISTIC calibrations (`tools/make_calibration_goldens.py`):
    /// same categories in the same order, scores within 1e-6 (float32 arithmetic of a sigmoid on scores ≤ 1).
    @Test(arguments: ["identity", "inverse_logistic"])
    func scoreCalibrationMatchesMediaPipe(_ transformation: String) throws {
        let directory = Self.fixture("classifier/calibration")
        let golden = try JSONDecoder().decode(
            CalibrationGolden.self, from: Data(try Fixtures.bytes(atPath: directory + "/calibration.json")))
        try #require(golden.runs.count == 2 && golden.rawScores.count == 6)
        let run = try #require(golden.runs.first { $0.transformation == transformation })
        let expected = try #require(run.classifications.first?.categories)
        try #require(expected.count == 6)
        let classifier = try ImageClassifier(
            options: ImageClassifierOptions(baseOptions: BaseOptions(modelAssetPath: directory + "/" + run.model)))
        let image = try PixelImage(contentsOfFile: directory + "/" + golden.image)
        let result = try classifier.classify(image: image)
        try #require(result.classifications.count == 1)
        let categories = result.classifications[0].categories
        try #require(categories.count == expected.count, "\(categories.count) categories")
        var worst: Float = 0
        for (ours, theirs) in zip(categories, expected) {
            #expect(ours.categoryName == theirs.categoryName)
            worst = max(worst, abs(ours.score - theirs.score))
        }
        // Equal scores (the default 0.25) keep the model's class order: compare the index sets per score.
        #expect(Set(categories.map(\.index)) == Set(expected.map(\.index)))
        print("score calibration \(transformation): largest score error \(worst)")
        #expect(worst <= 1e-6, "\(transformation): largest score error \(worst)")
        // The calibration changed something: at least one score differs from the raw softmax.
        #expect(categories.contains { abs($0.score - golden.rawScores[$0.index]) > 0.01 })
    }
}
