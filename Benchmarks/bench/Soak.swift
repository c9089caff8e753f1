import Dispatch
import Foundation
import PureVisionImage
import PureVision

/// `bench --soak [FRAMES]`: pushes FRAMES frames (default 10,000) through each task and reports whether memory,
/// file descriptors and threads stay flat.
///
/// Per task: the task is created and warmed up (`SoakRun.warmupFrames` frames, so that one-time allocations such as
/// lazily grown buffers and the malloc arenas of the threads involved are in place), then resident memory is taken
/// (`VmRSS` of /proc/self/status), the peak is reset (`5` to /proc/self/clear_refs) and the frames run; RSS is
/// sampled every 500 frames, the peak is `VmHWM` at the end. Open file descriptors (/proc/self/fd) and threads
/// (/proc/self/task) are counted before the task is created, after the warm-up, after the frames (task still
/// open), and after it is closed and released. Growth = (end − start) / start.
struct SoakRun {
    let options: BenchOptions
    let frames: Int
    static let warmupFrames = 200
    static let fixtures = "Tests/PureVisionTests/Fixtures"

    struct Figures {
        var name: String
        var seconds: Double
        var rssStart: Int, rssPeak: Int, rssEnd: Int
        var fdsBefore: Int, fdsStart: Int, fdsEnd: Int, fdsReleased: Int
        var threadsBefore: Int, threadsStart: Int, threadsEnd: Int, threadsReleased: Int
        var growth: Double { Double(rssEnd - rssStart) / Double(rssStart) }
    }

    /// One task: `makeStep` creates it and returns the per-frame body and its close.
    typealias Task = (name: String, makeStep: () throws -> (step: (Int) throws -> Void, close: () -> Void))

    func run() throws {
        let tasks: [Task] = [
            ("face_detector", faceDetector),
            ("hand_landmarker_image", handsImage),
            ("hand_landmarker_video", handsVideo),
            ("image_classifier", classifier),
            ("face_detector_live_stream", faceDetectorLiveStream),
        ]
        print("PureVision soak — \(frames) frames per task after \(Self.warmupFrames) warm-up, 1 thread; RSS in MiB")
        print(
            "task".padding(toLength: 28, withPad: " ", startingAt: 0)
                + "     s  RSS start    peak     end  growth   fds (a/b/c/d)          threads (a/b/c/d)")
        // libdispatch opens its event descriptors (epoll, eventfd, timerfd) and starts its first worker threads once
        // per process, on first use: one untimed pass of each kind of task (image mode and live stream, 20 frames)
        // does that before any count, so it is not charged to the first task measured.
        for prime in [tasks[0], tasks[4]] {
            let (step, close) = try prime.makeStep()
            for i in 0..<20 { try step(i) }
            close()
        }
        usleep(200_000)
        var worst = 0.0
        for task in tasks where options.filter.map({ task.name.contains($0) }) ?? true {
            let figures = try soak(task)
            worst = max(worst, figures.growth)
            print(format(figures))
        }
        print(String(format: "largest growth %.3f %%", worst * 100))
    }

    private func soak(_ task: Task) throws -> Figures {
        var figures = Figures(
            name: task.name, seconds: 0, rssStart: 0, rssPeak: 0, rssEnd: 0, fdsBefore: Self.count("/proc/self/fd"),
            fdsStart: 0, fdsEnd: 0, fdsReleased: 0, threadsBefore: Self.count("/proc/self/task"), threadsStart: 0,
            threadsEnd: 0, threadsReleased: 0)
        do {
            let (step, close) = try task.makeStep()
            for i in 0..<Self.warmupFrames { try step(i) }
            figures.fdsStart = Self.count("/proc/self/fd")
            figures.threadsStart = Self.count("/proc/self/task")
            figures.rssStart = Self.status("VmRSS")
            Self.resetPeak()
            var peak = figures.rssStart
            let start = DispatchTime.now().uptimeNanoseconds
            for i in 0..<frames {
                try step(Self.warmupFrames + i)
                if i % 500 == 499 { peak = max(peak, Self.status("VmRSS")) }
            }
            figures.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            figures.rssEnd = Self.status("VmRSS")
            figures.rssPeak = max(peak, Self.status("VmHWM"), figures.rssEnd)
            figures.fdsEnd = Self.count("/proc/self/fd")
            figures.threadsEnd = Self.count("/proc/self/task")
            close()
        }
        // Let idle dispatch worker threads retire before counting what the closed task left behind.
        usleep(200_000)
        figures.fdsReleased = Self.count("/proc/self/fd")
        figures.threadsReleased = Self.count("/proc/self/task")
        return figures
    }

    private func format(_ f: Figures) -> String {
        let mib = { (kib: Int) in String(format: "%7.1f", Double(kib) / 1024) }
        return f.name.padding(toLength: 28, withPad: " ", startingAt: 0)
            + String(format: "%6.1f", f.seconds) + "  " + mib(f.rssStart) + " " + mib(f.rssPeak) + " " + mib(f.rssEnd)
            + String(format: " %+6.2f%%", f.growth * 100)
            + "   \(f.fdsBefore)/\(f.fdsStart)/\(f.fdsEnd)/\(f.fdsReleased)".padding(
                toLength: 24, withPad: " ", startingAt: 0)
            + "  \(f.threadsBefore)/\(f.threadsStart)/\(f.threadsEnd)/\(f.threadsReleased)"
    }

    // MARK: - Tasks

    private func model(_ name: String) -> String { (options.modelsDirectory as NSString).appendingPathComponent(name) }

    private func faceDetector() throws -> (step: (Int) throws -> Void, close: () -> Void) {
        let detector = try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: model("face_detection_short_range.tflite"))))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/faces/grace_hopper.jpg")
        return ({ _ in _ = try detector.detect(image: image) }, detector.close)
    }

    private func handsImage() throws -> (step: (Int) throws -> Void, close: () -> Void) {
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: model("hand_landmarker.task"))))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/hands/hand_dst.jpg")
        return ({ _ in _ = try landmarker.detect(image: image) }, landmarker.close)
    }

    /// Video mode over the committed 48-frame sequence, looped, 33 ms apart.
    private func handsVideo() throws -> (step: (Int) throws -> Void, close: () -> Void) {
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: model("hand_landmarker.task")), runningMode: .video))
        let frames = try (0..<48).map { i in
            try PixelImage(contentsOfFile: Self.fixtures + String(format: "/hands/video/frame_%03d.png", i))
        }
        return (
            { i in _ = try landmarker.detect(videoFrame: frames[i % frames.count], timestampInMilliseconds: 33 * i) },
            landmarker.close
        )
    }

    private func classifier() throws -> (step: (Int) throws -> Void, close: () -> Void) {
        let classifier = try ImageClassifier(
            options: ImageClassifierOptions(
                baseOptions: BaseOptions(modelAssetPath: model("efficientnet_lite0.tflite"))))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/classifier/skimage_chelsea.png")
        return ({ _ in _ = try classifier.classify(image: image) }, classifier.close)
    }

    /// Live stream, one frame in flight at a time: each frame is submitted once the previous one's event has
    /// arrived, so every frame is processed (none dropped) and the result queue is exercised 1:1.
    private func faceDetectorLiveStream() throws -> (step: (Int) throws -> Void, close: () -> Void) {
        let delivered = DispatchSemaphore(value: 0)
        let detector = try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: model("face_detection_short_range.tflite")),
                runningMode: .liveStream, resultHandler: { _ in delivered.signal() }))
        let image = try PixelImage(contentsOfFile: Self.fixtures + "/faces/grace_hopper.jpg")
        return (
            { i in
                try detector.detectAsync(image: image, timestampInMilliseconds: i)
                delivered.wait()
            }, detector.close
        )
    }

    // MARK: - /proc

    /// A `kB` field of /proc/self/status, in KiB (0 when unavailable).
    static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
                ?? 0
        }
        return 0
    }

    /// The number of entries in a /proc directory (open descriptors, threads).
    static func count(_ directory: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: directory).count) ?? -1
    }

    /// Resets VmHWM to the current RSS (Linux ≥ 4.0).
    static func resetPeak() {
        if let file = fopen("/proc/self/clear_refs", "w") {
            fputs("5", file)
            fclose(file)
        }
    }
}
