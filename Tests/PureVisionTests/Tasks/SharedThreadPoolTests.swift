import PureVision
import PureVisionKernels
import PureVisionTestSupport
import Testing

/// A task with several models runs them all on one thread pool of the thread count it was given, so it starts
/// `threadCount − 1` worker threads in all: a pool per model would add the idle models' workers, which poll for
/// work beside the busy ones on the same cores.
@Suite struct SharedThreadPoolTests {
    static func expectOnePool(_ pools: [ThreadPool], threads: Int, _ task: String) {
        #expect(pools.count >= 2, "\(task): \(pools.count) models")
        #expect(pools.allSatisfy { $0 === pools.first }, "\(task): its models run on different pools")
        #expect(pools.first?.threadCount == threads, "\(task): \(pools.first?.threadCount ?? 0) threads")
    }

    @Test(arguments: [1, 3])
    func everyModelOfATaskSharesOnePool(threads: Int) throws {
        func base(_ file: String) -> BaseOptions {
            BaseOptions(modelAssetPath: Fixtures.model(file), threadCount: threads)
        }
        Self.expectOnePool(
            try HandLandmarker(options: HandLandmarkerOptions(baseOptions: base("hand_landmarker.task")))
                .modelThreadPools, threads: threads, "HandLandmarker")
        Self.expectOnePool(
            try PoseLandmarker(options: PoseLandmarkerOptions(baseOptions: base("pose_landmarker_full.task")))
                .modelThreadPools, threads: threads, "PoseLandmarker")
        let face = try FaceLandmarker(
            options: FaceLandmarkerOptions(baseOptions: base("face_landmarker.task"), outputFaceBlendshapes: true))
        #expect(face.modelThreadPools.count == 3, "detector, landmarks and blendshapes")
        Self.expectOnePool(face.modelThreadPools, threads: threads, "FaceLandmarker")
        let gestures = try GestureRecognizer(
            options: GestureRecognizerOptions(baseOptions: base("gesture_recognizer_custom.task")))
        #expect(gestures.modelThreadPools.count == 5, "2 hand models, the embedder and 2 classifiers")
        Self.expectOnePool(gestures.modelThreadPools, threads: threads, "GestureRecognizer")
        let analyzer = try FaceAnalyzer(
            options: FaceAnalyzerOptions(
                modelDirectory: Fixtures.packageRoot().appendingPathComponent("Models").path, threadCount: threads))
        Self.expectOnePool(analyzer.modelThreadPools, threads: threads, "FaceAnalyzer")
    }
}
