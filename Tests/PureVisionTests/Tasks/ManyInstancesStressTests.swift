import Dispatch
import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Many task instances at once: at least 8 instances of different kinds run in parallel, each on 2 engine threads
/// (`threadCount: 2`), for 2 s (30 s with `PUREVISION_STRESS=long`, or `PUREVISION_STRESS_SECONDS=N`). Image-mode
/// instances are driven by two callers at once, one synchronous and one through the `async` API; video-mode
/// instances by one caller in timestamp order; live-stream instances by one producer that submits a frame once the
/// previous one's event has arrived (so no frame is dropped and tracking sees the same sequence every time). Every
/// driver works in sessions: open the task, run a fixed sequence of frames, close it, open it again — so tasks are
/// closed and reopened while the others run.
///
/// Checked: every call's result equals the result of the same call in the same session position run alone (before
/// the parallel phase, one instance at a time), compared by value (`Hashable` results); nothing throws; every
/// live-stream frame gets exactly one event, a result. No wall-clock assertion: the duration only bounds how many
/// sessions run. With any `PUREVISION_STRESS` value the per-instance counts are printed.
///
/// Run under the thread sanitizer with
/// `swift test -c release --sanitize=thread --build-path .build/tsan --filter ManyInstancesStress`.
///
/// A new task joins with one entry in `StressTask.all` (an adapter like the ones in the extension below).
@Suite struct ManyInstancesStressTests {
    static let seconds: Double = {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["PUREVISION_STRESS_SECONDS"], let value = Double(text), value > 0 { return value }
        return environment["PUREVISION_STRESS"] == "long" ? 30 : 2
    }()
    static let printsCounts = ProcessInfo.processInfo.environment["PUREVISION_STRESS"] != nil
    static let minimumInstances = 8

    /// The (task, mode) pairs run in parallel: each task's first mode, then each task's second mode, and so on
    /// (starting over when all are used), until there are `minimumInstances`, or one per task when there are more
    /// tasks than that. Each task lists its modes in an order that makes the first rounds mix all three.
    static func slots(_ tasks: [StressTask]) -> [(task: StressTask, mode: StressMode)] {
        let pairs = (0..<(tasks.map(\.modes.count).max() ?? 0)).flatMap { round in
            tasks.filter { round < $0.modes.count }.map { (task: $0, mode: $0.modes[round]) }
        }
        let count = max(minimumInstances, tasks.count)
        return (0..<count).map { pairs[$0 % pairs.count] }
    }

    @Test func instancesOfDifferentKindsInParallelMatchTheSameCallsRunAlone() throws {
        let slots = Self.slots(try StressTask.all())
        #expect(slots.count >= Self.minimumInstances)
        #expect(Set(slots.map(\.mode)) == Set(StressMode.allCases))

        // The same sessions, one instance at a time.
        let expected = try slots.map { slot in try Self.session(slot.task, slot.mode, callers: .alone) }

        let report = StressReport(slotCount: slots.count)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.seconds * 1e9)
        let group = DispatchGroup()
        for (index, slot) in slots.enumerated() {
            group.enter()
            let thread = Thread {
                repeat {
                    do {
                        let got = try Self.session(slot.task, slot.mode, callers: .together)
                        report.record(index, sessionMatches: got == expected[index], calls: got.count)
                    } catch {
                        report.fail(index, "\(error)")
                    }
                } while DispatchTime.now().uptimeNanoseconds < deadline
                group.leave()
            }
            thread.start()
        }
        group.wait()

        for (index, slot) in slots.enumerated() {
            let figures = report.figures(index)
            if Self.printsCounts {
                print(
                    "\(slot.task.name) \(slot.mode): \(figures.sessions) sessions, \(figures.calls) calls, "
                        + "\(figures.mismatches) sessions differing, \(figures.failures.count) errors")
            }
            #expect(figures.sessions >= 1, "\(slot.task.name) \(slot.mode) ran no session")
            #expect(figures.mismatches == 0, "\(slot.task.name) \(slot.mode): results differ from the lone run")
            #expect(figures.failures.isEmpty, "\(slot.task.name) \(slot.mode): \(figures.failures.prefix(3))")
        }
    }

    /// How image-mode calls are made: one after the other (the lone reference run) or by two callers at once.
    enum Callers { case alone, together }

    /// Opens the task, runs its session's frames and closes it; returns the results' hashes in session order.
    static func session(_ task: StressTask, _ mode: StressMode, callers: Callers) throws -> [Int] {
        let events = EventSlots(count: task.frameCount(mode))
        let instance = try task.open(mode) { frame, fingerprint in events.deliver(frame, fingerprint) }
        defer { instance.close() }
        let frames = task.frameCount(mode)
        switch mode {
        case .image:
            // Even frames synchronously on this thread; odd frames through the async API (or synchronously on a
            // second thread when the task has none), at the same time.
            let results = ResultSlots(count: frames)
            let odd = DispatchSemaphore(value: 0)
            let runOdd: @Sendable () -> Void = {
                for frame in stride(from: 1, to: frames, by: 2) {
                    results.set(frame, Result(catching: { try instance.run(frame) }))
                }
            }
            let asyncRun = instance.runAsync
            if callers == .alone {
                runOdd()
                odd.signal()
            } else if let asyncRun {
                Task.detached {
                    for frame in stride(from: 1, to: frames, by: 2) {
                        do { results.set(frame, .success(try await asyncRun(frame))) } catch {
                            results.set(frame, .failure(error))
                        }
                    }
                    odd.signal()
                }
            } else {
                Thread {
                    runOdd()
                    odd.signal()
                }.start()
            }
            for frame in stride(from: 0, to: frames, by: 2) {
                results.set(frame, Result(catching: { try instance.run(frame) }))
            }
            odd.wait()
            return try results.values()
        case .video:
            return try (0..<frames).map { frame in try instance.run(frame) }
        case .liveStream:
            for frame in 0..<frames {
                try instance.submit(frame)
                events.wait(frame)
            }
            return try events.values()
        }
    }
}

/// The running modes the stress test drives.
enum StressMode: String, CaseIterable, Sendable, CustomStringConvertible {
    case image, video, liveStream
    var description: String { rawValue }
}

/// One open task, type-erased: `run` is the synchronous call of its mode (image or video frame `frame`, at
/// timestamp `frame`), `runAsync` the `async` image call, `submit` the live-stream call; each returns or delivers the
/// result's hash.
struct StressInstance: Sendable {
    var run: @Sendable (_ frame: Int) throws -> Int
    var runAsync: (@Sendable (_ frame: Int) async throws -> Int)?
    var submit: @Sendable (_ frame: Int) throws -> Void
    var close: @Sendable () -> Void

    /// An instance whose synchronous call is `image` in image mode and `video` in video mode.
    init(
        _ mode: StressMode, image: @escaping @Sendable (Int) throws -> Int,
        video: @escaping @Sendable (Int) throws -> Int, runAsync: (@Sendable (Int) async throws -> Int)?,
        submit: @escaping @Sendable (Int) throws -> Void, close: @escaping @Sendable () -> Void
    ) {
        run = mode == .video ? video : image
        self.runAsync = runAsync
        self.submit = submit
        self.close = close
    }
}

/// One kind of task for the stress test.
struct StressTask: Sendable {
    let name: String
    let modes: [StressMode]
    /// Frames per session in image mode; video and live-stream sessions run `sequenceLength`.
    let images: [PixelImage]
    let sequenceLength: Int
    /// Opens an instance in `mode`; live-stream events are delivered to `onEvent(frame, hash or nil when the frame
    /// was dropped or failed)`.
    let open:
        @Sendable (_ mode: StressMode, _ onEvent: @escaping @Sendable (Int, Int?) -> Void) throws
            -> StressInstance

    func frameCount(_ mode: StressMode) -> Int { mode == .image ? 2 * images.count : sequenceLength }
    func image(_ frame: Int) -> PixelImage { images[frame % images.count] }

    /// Every task on main. One line per task.
    static func all() throws -> [StressTask] {
        [
            try faceDetector(),
            try handLandmarker(),
            try imageClassifier(),
            try faceAnalyzer(),
            try imageSegmenter(),
            try selfieSegmenter(),
            try poseLandmarker(),
            try faceLandmarker(),
            try gestureRecognizer(),
            try objectDetector(),
            try imageEmbedder(),
        ]
    }
}

// MARK: - Adapters

extension StressTask {
    static let threads = 2

    static func photo(_ path: String) throws -> PixelImage {
        try PixelImage(contentsOfFile: Fixtures.testFile("PureVisionTests/Fixtures/" + path))
    }

    static func runningMode(_ mode: StressMode) -> RunningMode {
        switch mode {
        case .image: .image
        case .video: .video
        case .liveStream: .liveStream
        }
    }

    /// The live-stream result handler reporting each event's frame and result hash to `onEvent`; nil in the other
    /// modes.
    static func handler<R: Hashable & Sendable>(
        _ mode: StressMode, _ onEvent: @escaping @Sendable (Int, Int?) -> Void
    ) -> (@Sendable (LiveStreamEvent<R>) -> Void)? {
        guard mode == .liveStream else { return nil }
        return { event in onEvent(event.timestampInMilliseconds, eventHash(event)) }
    }

    /// The hash of a live-stream event's result, or nil for a dropped or failed frame.
    static func eventHash<R: Hashable & Sendable>(_ event: LiveStreamEvent<R>) -> Int? {
        if case .result(let result, _, _) = event { return result.hashValue }
        return nil
    }

    static func faceDetector() throws -> StressTask {
        let images = [try photo("faces/astronaut_scale50.png"), try photo("faces/composite_two_faces.png")]
        return StressTask(
            name: "FaceDetector", modes: [.image, .video, .liveStream], images: images, sequenceLength: 4
        ) {
            mode, onEvent in
            let task = try FaceDetector(
                options: FaceDetectorOptions(
                    baseOptions: BaseOptions(
                        modelAssetPath: Fixtures.model("face_detection_short_range.tflite"), threadCount: threads),
                    runningMode: runningMode(mode),
                    resultHandler: handler(mode, onEvent)))
            let image: @Sendable (Int) -> PixelImage = { frame in images[frame % images.count] }
            return StressInstance(
                mode, image: { frame in try task.detect(image: image(frame)).hashValue },
                video: { frame in try task.detect(videoFrame: image(frame), timestampInMilliseconds: frame).hashValue },
                runAsync: { frame in try await task.detect(image: image(frame)).hashValue },
                submit: { frame in try task.detectAsync(image: image(frame), timestampInMilliseconds: frame) },
                close: task.close)
        }
    }

    static func handLandmarker() throws -> StressTask {
        let images = try (0..<6).map { try photo(String(format: "hands/video/frame_%03d.png", $0 * 8)) }
        return StressTask(
            name: "HandLandmarker", modes: [.video, .liveStream, .image], images: [images[0], images[3]],
            sequenceLength: images.count
        ) { mode, onEvent in
            let task = try HandLandmarker(
                options: HandLandmarkerOptions(
                    baseOptions: BaseOptions(
                        modelAssetPath: Fixtures.model("hand_landmarker.task"), threadCount: threads),
                    runningMode: runningMode(mode),
                    resultHandler: handler(mode, onEvent)))
            let still = [images[0], images[3]]
            return StressInstance(
                mode, image: { frame in try task.detect(image: still[frame % still.count]).hashValue },
                video: { frame in
                    try task.detect(videoFrame: images[frame % images.count], timestampInMilliseconds: 33 * frame)
                        .hashValue
                },
                runAsync: { frame in try await task.detect(image: still[frame % still.count]).hashValue },
                submit: { frame in
                    try task.detectAsync(image: images[frame % images.count], timestampInMilliseconds: frame)
                },
                close: task.close)
        }
    }

    static func imageClassifier() throws -> StressTask {
        let images = [try photo("classifier/skimage_chelsea.png"), try photo("classifier/opencvdoc_space_shuttle.png")]
        return StressTask(
            name: "ImageClassifier", modes: [.image, .liveStream, .video], images: images,
            sequenceLength: 4
        ) { mode, onEvent in
            let task = try ImageClassifier(
                options: ImageClassifierOptions(
                    baseOptions: BaseOptions(
                        modelAssetPath: Fixtures.model("efficientnet_lite0.tflite"), threadCount: threads),
                    runningMode: runningMode(mode), maxResults: 5,
                    resultHandler: handler(mode, onEvent)))
            let image: @Sendable (Int) -> PixelImage = { frame in images[frame % images.count] }
            return StressInstance(
                mode, image: { frame in try task.classify(image: image(frame)).hashValue },
                video: { frame in try task.classify(videoFrame: image(frame), timestampInMilliseconds: frame).hashValue
                },
                runAsync: { frame in try await task.classify(image: image(frame)).hashValue },
                submit: { frame in try task.classifyAsync(image: image(frame), timestampInMilliseconds: frame) },
                close: task.close)
        }
    }

    static func faceAnalyzer() throws -> StressTask {
        let images = [try photo("faces/astronaut_scale50.png"), try photo("faces/composite_two_faces.png")]
        let directory = Fixtures.packageRoot().appendingPathComponent("Models").path
        return StressTask(
            name: "FaceAnalyzer", modes: [.liveStream, .image, .video], images: images, sequenceLength: 4
        ) {
            mode, onEvent in
            let task = try FaceAnalyzer(
                options: FaceAnalyzerOptions(
                    modelDirectory: directory, threadCount: threads, landmarkMode: .all, contourMode: .all,
                    classificationMode: .all, isTrackingEnabled: mode != .image, runningMode: runningMode(mode),
                    resultHandler: handler(mode, onEvent)))
            let image: @Sendable (Int) -> PixelImage = { frame in images[frame % images.count] }
            return StressInstance(
                mode, image: { frame in try task.results(in: image(frame)).hashValue },
                video: { frame in try task.results(inVideoFrame: image(frame), timestampInMilliseconds: frame).hashValue
                },
                runAsync: nil,
                submit: { frame in try task.processAsync(image: image(frame), timestampInMilliseconds: frame) },
                close: task.close)
        }
    }

    static func imageSegmenter() throws -> StressTask {
        let images = [try photo("segmenter/fr_obama.png"), try photo("classifier/skimage_chelsea.png")]
        return StressTask(
            name: "ImageSegmenter", modes: [.image, .video, .liveStream], images: images,
            sequenceLength: 3
        ) { mode, onEvent in
            let task = try ImageSegmenter(
                options: ImageSegmenterOptions(
                    baseOptions: BaseOptions(modelAssetPath: Fixtures.model("deeplab_v3.tflite"), threadCount: threads),
                    runningMode: runningMode(mode), outputCategoryMask: true,
                    resultHandler: handler(mode, onEvent)))
            let image: @Sendable (Int) -> PixelImage = { frame in images[frame % images.count] }
            return StressInstance(
                mode, image: { frame in try task.segment(image: image(frame)).hashValue },
                video: { frame in try task.segment(videoFrame: image(frame), timestampInMilliseconds: frame).hashValue
                },
                runAsync: { frame in try await task.segment(image: image(frame)).hashValue },
                submit: { frame in try task.segmentAsync(image: image(frame), timestampInMilliseconds: frame) },
                close: task.close)
        }
    }

    /// ML Kit's shape: single-image and stream modes only, no `async` or live-stream API.
    static func selfieSegmenter() throws -> StressTask {
        let images = [try photo("segmenter/fr_obama.png"), try photo("faces/astronaut_scale50.png")]
        return StressTask(name: "SelfieSegmenter", modes: [.video, .image], images: images, sequenceLength: 4) {
            mode, _ in
            let task = try SelfieSegmenter(
                options: SelfieSegmenterOptions(
                    baseOptions: BaseOptions(
                        modelAssetPath: Fixtures.model("selfie_segmenter.tflite"), threadCount: threads),
                    segmenterMode: mode == .video ? .stream : .singleImage))
            let image: @Sendable (Int) -> PixelImage = { frame in images[frame % images.count] }
            return StressInstance(
                mode, image: { frame in try task.process(image(frame)).hashValue },
                video: { frame in try task.process(image(frame), timestampInMilliseconds: frame).hashValue },
                runAsync: nil,
                submit: { _ in throw VisionTaskError.invalidOption(name: "runningMode", reason: "no live stream") },
                close: {})
        }
    }

    /// Segmentation masks on, so the masks are part of every result compared.
    static func poseLandmarker() throws -> StressTask {
        let images = try ["pose/obama.png", "pose/obama_scale50.png", "pose/obama_rot25.png", "pose/basketball.png"]
            .map(photo)
        return StressTask(
            name: "PoseLandmarker", modes: [.liveStream, .video, .image], images: [images[0], images[3]],
            sequenceLength: images.count
        ) { mode, onEvent in
            let task = try PoseLandmarker(
                options: PoseLandmarkerOptions(
                    baseOptions: BaseOptions(
                        modelAssetPath: Fixtures.model("pose_landmarker_full.task"), threadCount: threads),
                    runningMode: runningMode(mode), outputSegmentationMasks: true,
                    resultHandler: handler(mode, onEvent)))
            let still = [images[0], images[3]]
            return StressInstance(
                mode, image: { frame in try task.detect(image: still[frame % still.count]).hashValue },
                video: { frame in
                    try task.detect(videoFrame: images[frame % images.count], timestampInMilliseconds: 33 * frame)
                        .hashValue
                },
                runAsync: { frame in try await task.detect(image: still[frame % still.count]).hashValue },
                submit: { frame in
                    try task.detectAsync(image: images[frame % images.count], timestampInMilliseconds: frame)
                },
                close: task.close)
        }
    }

    /// Blendshapes and transformation matrices on.
    static func faceLandmarker() throws -> StressTask {
        let images = try (0..<4).map { try photo(String(format: "face_landmarker/video/frame_%03d.png", $0 * 2)) }
        return StressTask(
            name: "FaceLandmarker", modes: [.image, .liveStream, .video], images: [images[0], images[2]],
            sequenceLength: images.count
        ) { mode, onEvent in
            let task = try FaceLandmarker(
                options: FaceLandmarkerOptions(
                    baseOptions: BaseOptions(
                        modelAssetPath: Fixtures.model("face_landmarker.task"), threadCount: threads),
                    runningMode: runningMode(mode), numFaces: 2, outputFaceBlendshapes: true,
                    outputFacialTransformationMatrixes: true, resultHandler: handler(mode, onEvent)))
            let still = [images[0], images[2]]
            return StressInstance(
                mode, image: { frame in try task.detect(image: still[frame % still.count]).hashValue },
                video: { frame in
                    try task.detect(videoFrame: images[frame % images.count], timestampInMilliseconds: 33 * frame)
                        .hashValue
                },
                runAsync: { frame in try await task.detect(image: still[frame % still.count]).hashValue },
                submit: { frame in
                    try task.detectAsync(image: images[frame % images.count], timestampInMilliseconds: frame)
                },
                close: task.close)
        }
    }

    static func gestureRecognizer() throws -> StressTask {
        let images = try (0..<6).map { try photo(String(format: "hands/video/frame_%03d.png", $0 * 8 + 4)) }
        return StressTask(
            name: "GestureRecognizer", modes: [.video, .image, .liveStream], images: [images[1], images[4]],
            sequenceLength: images.count
        ) { mode, onEvent in
            let task = try GestureRecognizer(
                options: GestureRecognizerOptions(
                    baseOptions: BaseOptions(
                        modelAssetPath: Fixtures.model("gesture_recognizer.task"), threadCount: threads),
                    runningMode: runningMode(mode), numHands: 2, resultHandler: handler(mode, onEvent)))
            let still = [images[1], images[4]]
            return StressInstance(
                mode, image: { frame in try task.recognize(image: still[frame % still.count]).hashValue },
                video: { frame in
                    try task.recognize(videoFrame: images[frame % images.count], timestampInMilliseconds: 33 * frame)
                        .hashValue
                },
                runAsync: { frame in try await task.recognize(image: still[frame % still.count]).hashValue },
                submit: { frame in
                    try task.recognizeAsync(image: images[frame % images.count], timestampInMilliseconds: frame)
                },
                close: task.close)
        }
    }

    static func objectDetector() throws -> StressTask {
        let images = [try photo("detector/opencv_basketball1.png"), try photo("detector/skimage_chelsea.png")]
        return StressTask(
            name: "ObjectDetector", modes: [.image, .video, .liveStream], images: images, sequenceLength: 4
        ) { mode, onEvent in
            let task = try ObjectDetector(
                options: ObjectDetectorOptions(
                    baseOptions: BaseOptions(
                        modelAssetPath: Fixtures.model("efficientdet_lite0.tflite"), threadCount: threads),
                    runningMode: runningMode(mode), maxResults: 5, resultHandler: handler(mode, onEvent)))
            let image: @Sendable (Int) -> PixelImage = { frame in images[frame % images.count] }
            return StressInstance(
                mode, image: { frame in try task.detect(image: image(frame)).hashValue },
                video: { frame in try task.detect(videoFrame: image(frame), timestampInMilliseconds: frame).hashValue },
                runAsync: { frame in try await task.detect(image: image(frame)).hashValue },
                submit: { frame in try task.detectAsync(image: image(frame), timestampInMilliseconds: frame) },
                close: task.close)
        }
    }

    /// Both outputs: L2-normalized and quantized.
    static func imageEmbedder() throws -> StressTask {
        let images = [try photo("classifier/skimage_chelsea.png"), try photo("classifier/opencvdoc_space_shuttle.png")]
        return StressTask(
            name: "ImageEmbedder", modes: [.liveStream, .image, .video], images: images, sequenceLength: 4
        ) { mode, onEvent in
            let task = try ImageEmbedder(
                options: ImageEmbedderOptions(
                    baseOptions: BaseOptions(
                        modelAssetPath: Fixtures.model("efficientnet_lite0_embedder.tflite"), threadCount: threads),
                    runningMode: runningMode(mode), l2Normalize: true, quantize: true,
                    resultHandler: handler(mode, onEvent)))
            let image: @Sendable (Int) -> PixelImage = { frame in images[frame % images.count] }
            return StressInstance(
                mode, image: { frame in try task.embed(image: image(frame)).hashValue },
                video: { frame in try task.embed(videoFrame: image(frame), timestampInMilliseconds: frame).hashValue },
                runAsync: { frame in try await task.embed(image: image(frame)).hashValue },
                submit: { frame in try task.embedAsync(image: image(frame), timestampInMilliseconds: frame) },
                close: task.close)
        }
    }
}

// MARK: - Bookkeeping

/// Results of one image-mode session, filled by two callers.
final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Int, any Error>?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: Result<Int, any Error>) {
        lock.withLock { slots[index] = value }
    }
    func values() throws -> [Int] {
        try lock.withLock { slots }.map { slot in
            guard let slot else { throw StressFailure.missing }
            return try slot.get()
        }
    }
}

/// Live-stream events of one session, by frame; `wait(frame)` blocks until that frame's event arrived.
final class EventSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Int?]
    private var eventCounts: [Int]
    private let arrived = DispatchSemaphore(value: 0)
    init(count: Int) {
        slots = Array(repeating: nil, count: count)
        eventCounts = Array(repeating: 0, count: count)
    }
    func deliver(_ frame: Int, _ hash: Int?) {
        lock.withLock {
            guard frame >= 0, frame < slots.count else { return }
            slots[frame] = hash
            eventCounts[frame] += 1
        }
        arrived.signal()
    }
    func wait(_ frame: Int) { arrived.wait() }
    func values() throws -> [Int] {
        let (slots, counts) = lock.withLock { (self.slots, eventCounts) }
        guard counts.allSatisfy({ $0 == 1 }) else { throw StressFailure.eventCounts(counts) }
        return try slots.map { slot in
            guard let slot else { throw StressFailure.droppedOrFailed }
            return slot
        }
    }
}

enum StressFailure: Error {
    case missing, droppedOrFailed
    case eventCounts([Int])
}

/// Per-instance counts of the parallel phase.
final class StressReport: @unchecked Sendable {
    struct Figures {
        var sessions = 0, calls = 0, mismatches = 0
        var failures: [String] = []
    }
    private let lock = NSLock()
    private var all: [Figures]
    init(slotCount: Int) { all = Array(repeating: Figures(), count: slotCount) }
    func record(_ index: Int, sessionMatches: Bool, calls: Int) {
        lock.withLock {
            all[index].sessions += 1
            all[index].calls += calls
            if !sessionMatches { all[index].mismatches += 1 }
        }
    }
    func fail(_ index: Int, _ message: String) {
        lock.withLock {
            all[index].sessions += 1
            all[index].failures.append(message)
        }
    }
    func figures(_ index: Int) -> Figures { lock.withLock { all[index] } }
}
