import Foundation
import PureVision
import PureVisionTestSupport
import Testing

/// Every task given the models of every other task: each refusal is a typed `VisionTaskError`, and a task that
/// reads a `.task` bundle names the entry it looked for and did not find.
///
/// The table is every `.task` bundle in `Models/` against every task. Generic single-model tasks (classifier,
/// embedder, segmenter) may legitimately run another task's plain `.tflite` model, as MediaPipe does, so plain models
/// are checked against the bundle-reading tasks only.
@Suite struct CrossTaskBundleTests {
    /// A task that reads a bundle: how to open it, the entries it requires, and the bundles of its own kind.
    struct BundleTask: Sendable, CustomTestStringConvertible {
        let name: String
        let requiredEntries: [String]
        let ownBundles: Set<String>
        let open: @Sendable (String) throws -> Void
        var testDescription: String { name }
    }

    static let bundleTasks: [BundleTask] = [
        BundleTask(
            name: "HandLandmarker", requiredEntries: ["hand_detector.tflite", "hand_landmarks_detector.tflite"],
            ownBundles: ["hand_landmarker.task"]
        ) { path in
            _ = try HandLandmarker(options: HandLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: path)))
        },
        BundleTask(
            name: "FaceLandmarker",
            requiredEntries: ["face_detector.tflite", "face_landmarks_detector.tflite", "face_blendshapes.tflite"],
            ownBundles: ["face_landmarker.task"]
        ) { path in
            _ = try FaceLandmarker(options: FaceLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: path)))
        },
        BundleTask(
            name: "GestureRecognizer", requiredEntries: ["hand_landmarker.task", "hand_gesture_recognizer.task"],
            ownBundles: ["gesture_recognizer.task", "gesture_recognizer_custom.task"]
        ) { path in
            _ = try GestureRecognizer(
                options: GestureRecognizerOptions(baseOptions: BaseOptions(modelAssetPath: path)))
        },
        BundleTask(
            name: "PoseLandmarker", requiredEntries: ["pose_detector.tflite", "pose_landmarks_detector.tflite"],
            ownBundles: ["pose_landmarker_full.task"]
        ) { path in
            _ = try PoseLandmarker(options: PoseLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: path)))
        },
    ]

    /// The single-model tasks, each opened on a path.
    static let modelTasks: [(name: String, open: @Sendable (String) throws -> Void)] = [
        (
            "FaceDetector",
            { _ = try FaceDetector(options: FaceDetectorOptions(baseOptions: BaseOptions(modelAssetPath: $0))) }
        ),
        (
            "ImageClassifier",
            { _ = try ImageClassifier(options: ImageClassifierOptions(baseOptions: BaseOptions(modelAssetPath: $0))) }
        ),
        (
            "ImageSegmenter",
            { _ = try ImageSegmenter(options: ImageSegmenterOptions(baseOptions: BaseOptions(modelAssetPath: $0))) }
        ),
        (
            "ObjectDetector",
            { _ = try ObjectDetector(options: ObjectDetectorOptions(baseOptions: BaseOptions(modelAssetPath: $0))) }
        ),
        (
            "ImageEmbedder",
            { _ = try ImageEmbedder(options: ImageEmbedderOptions(baseOptions: BaseOptions(modelAssetPath: $0))) }
        ),
    ]

    static func modelFiles(withExtension suffix: String) throws -> [String] {
        let directory = Fixtures.packageRoot().appendingPathComponent("Models")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(suffix) }
            .sorted()
    }

    /// The refusal of `open(file)`, which must be a `VisionTaskError`.
    static func refusal(_ open: (String) throws -> Void, _ file: String) -> VisionTaskError? {
        do {
            try open(Fixtures.model(file))
            return nil
        } catch let error as VisionTaskError {
            return error
        } catch {
            Issue.record("\(file): untyped error \(error)")
            return nil
        }
    }

    @Test(arguments: bundleTasks) func bundleTaskNamesTheEntryMissingFromEveryOtherModel(_ task: BundleTask) throws {
        let others = (try Self.modelFiles(withExtension: ".task") + Self.modelFiles(withExtension: ".tflite"))
            .filter { !task.ownBundles.contains($0) }
        #expect(others.count >= 15)
        for file in others {
            guard let error = Self.refusal(task.open, file) else {
                Issue.record("\(task.name) accepted \(file)")
                continue
            }
            guard file.hasSuffix(".task") else { continue }
            let message = "\(error)"
            #expect(
                task.requiredEntries.contains { message.contains($0) },
                "\(task.name) given \(file): \(message)")
        }
    }

    @Test func singleModelTasksRefuseEveryBundle() throws {
        let bundles = try Self.modelFiles(withExtension: ".task")
        #expect(bundles.count >= 5)
        for task in Self.modelTasks {
            for bundle in bundles where Self.refusal(task.open, bundle) == nil {
                Issue.record("\(task.name) accepted \(bundle)")
            }
        }
    }
}
