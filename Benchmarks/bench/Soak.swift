import CPureVisionHeapStats
import Dispatch
import Foundation
import PureVision
import PureVisionImage

/// `bench --soak [FRAMES]`: pushes FRAMES frames (default 10,000) through every task in every running mode it has
/// (image, video, live stream; `SoakTask.all`, one line per task) and reports whether memory, file descriptors and
/// threads stay flat. `--filter NAME` keeps the rows whose name contains NAME (e.g. `live_stream`, `hand`).
///
/// Per row: once the process's thread count has settled (idle dispatch workers of earlier rows retired), the task
/// is created and warmed up (`SoakRun.warmupFrames` frames, so that one-time allocations such as
/// lazily grown buffers and the malloc arenas of the threads involved are in place), then resident memory is taken
/// (`VmRSS` of /proc/self/status), the peak is reset (`5` to /proc/self/clear_refs) and the frames run; RSS is
/// sampled every 500 frames, the peak is `VmHWM` at the end. Open file descriptors (/proc/self/fd) and threads
/// (/proc/self/task) are counted before the task is created, after the warm-up, after the frames (task still
/// open), and after it is closed and released. Growth = (end − start) / start. The C heap's bytes in use (glibc's
/// `mallinfo2`, every arena) are taken at the same points: RSS also moves with the allocator's own caching and
/// trimming, while the heap figure says exactly how many bytes the frames left allocated, so "heap B/frame" = (heap at
/// the end − heap at the start) / frames is the leak rate, and 0 means a longer run cannot grow either.
///
/// Video mode cycles through the committed 48-frame hand sequence (33 ms apart), or the task's own frames where it
/// names some (`SoakTask.videoPaths`), so trackers see motion; live stream keeps one frame in flight (each frame is
/// submitted once the previous one's event arrived), so every frame is processed and the result queue is exercised
/// 1:1.
struct SoakRun {
    let options: BenchOptions
    let frames: Int
    static let warmupFrames = 200

    struct Figures {
        var name: String
        var seconds: Double
        var rssStart: Int, rssPeak: Int, rssEnd: Int
        var fdsBefore: Int, fdsStart: Int, fdsEnd: Int, fdsReleased: Int
        var threadsBefore: Int, threadsStart: Int, threadsEnd: Int, threadsReleased: Int
        /// RSS (KiB) after each tenth of the frames, to tell a plateau from steady growth.
        var rssTenths: [Int] = []
        /// Heap bytes in use after the warm-up, after each tenth of the frames, at the end (-1: not available).
        var heapStart = -1, heapEnd = -1
        var heapTenths: [Int] = []
        var growth: Double { Double(rssEnd - rssStart) / Double(rssStart) }
        var frames = 0
        /// Heap bytes the frames left allocated, per frame.
        var heapPerFrame: Double { frames > 0 && heapStart >= 0 ? Double(heapEnd - heapStart) / Double(frames) : 0 }
    }

    /// One row: `makeStep` creates the task and returns the per-frame body and its close.
    typealias Task = (name: String, makeStep: () throws -> (step: (Int) throws -> Void, close: () -> Void))

    func run() throws {
        let context = SoakTask.Context(modelsDirectory: options.modelsDirectory)
        var tasks: [Task] = []
        for task in SoakTask.all {
            for mode in task.modes {
                tasks.append((task.name + "_" + mode.rowSuffix, { try Self.step(task, mode, context) }))
            }
        }
        try options.requireMatch(in: tasks.map(\.name))
        print("PureVision soak — \(frames) frames per row after \(Self.warmupFrames) warm-up, 1 thread; RSS in MiB")
        print(
            "task".padding(toLength: 34, withPad: " ", startingAt: 0)
                + "     s  RSS start    peak     end  growth   fds (a/b/c/d)          threads (a/b/c/d)  heap B/frame")
        // libdispatch opens its event descriptors (epoll, eventfd, timerfd) and starts its first worker threads once
        // per process, on first use: one untimed pass of each kind of row (image mode and live stream, 20 frames)
        // does that before any count, so it is not charged to the first row measured.
        for prime in [tasks.first { $0.name.hasSuffix("_image") }, tasks.first { $0.name.hasSuffix("_live_stream") }] {
            guard let prime else { continue }
            let (step, close) = try prime.makeStep()
            for i in 0..<20 { try step(i) }
            close()
        }
        var worst = 0.0
        for task in tasks where options.keeps(task.name) {
            Self.waitForIdleThreadsToRetire()
            let figures = try soak(task)
            worst = max(worst, figures.growth)
            print(format(figures))
            print("    RSS KiB after each tenth: " + figures.rssTenths.map(String.init).joined(separator: " "))
            print(
                "    heap bytes in use at start, after each tenth: \(figures.heapStart) "
                    + figures.heapTenths.map(String.init).joined(separator: " "))
        }
        print(String(format: "largest growth %.3f %%", worst * 100))
    }

    /// The per-frame body of one task in one mode.
    static func step(
        _ task: SoakTask, _ mode: SoakTask.Mode, _ context: SoakTask.Context
    ) throws -> (step: (Int) throws -> Void, close: () -> Void) {
        switch mode {
        case .image:
            let instance = try task.open(.image, context, { _ in })
            let image = try context.image(task.imagePath)
            return ({ _ in try instance.run(image, 0) }, instance.close)
        case .video:
            let instance = try task.open(.video, context, { _ in })
            let frames = try context.videoFrames(task.videoPaths)
            return ({ i in try instance.run(frames[i % frames.count], 33 * i) }, instance.close)
        case .liveStream:
            let delivered = DispatchSemaphore(value: 0)
            let instance = try task.open(.liveStream, context, { _ in delivered.signal() })
            let image = try context.image(task.imagePath)
            return (
                { i in
                    try instance.submit(image, i)
                    delivered.wait()
                }, instance.close
            )
        }
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
            figures.heapStart = Int(purevision_heap_bytes_in_use())
            figures.frames = frames
            Self.resetPeak()
            var peak = figures.rssStart
            let start = DispatchTime.now().uptimeNanoseconds
            for i in 0..<frames {
                try step(Self.warmupFrames + i)
                if i % 500 == 499 { peak = max(peak, Self.status("VmRSS")) }
                if frames >= 10 && (i + 1) % (frames / 10) == 0 && figures.rssTenths.count < 10 {
                    figures.rssTenths.append(Self.status("VmRSS"))
                    figures.heapTenths.append(Int(purevision_heap_bytes_in_use()))
                }
            }
            figures.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            figures.rssEnd = Self.status("VmRSS")
            figures.heapEnd = Int(purevision_heap_bytes_in_use())
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
        return f.name.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(format: "%6.1f", f.seconds) + "  " + mib(f.rssStart) + " " + mib(f.rssPeak) + " " + mib(f.rssEnd)
            + String(format: " %+6.2f%%", f.growth * 100)
            + "   \(f.fdsBefore)/\(f.fdsStart)/\(f.fdsEnd)/\(f.fdsReleased)".padding(
                toLength: 24, withPad: " ", startingAt: 0)
            + "  \(f.threadsBefore)/\(f.threadsStart)/\(f.threadsEnd)/\(f.threadsReleased)".padding(
                toLength: 20, withPad: " ", startingAt: 0) + String(format: "%12.2f", f.heapPerFrame)
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

    /// Waits (up to 15 s) until the process's thread count has not changed for 6 s: libdispatch retires idle worker
    /// threads some seconds after their last work, and a retirement during a row (its stack and malloc cache given
    /// back, the arena reshuffled) moved that row's RSS by a few hundred KiB that the row's frames did not cause.
    static func waitForIdleThreadsToRetire() {
        var last = count("/proc/self/task")
        var stableSince = DispatchTime.now().uptimeNanoseconds
        let deadline = stableSince + 15_000_000_000
        while DispatchTime.now().uptimeNanoseconds < deadline {
            usleep(200_000)
            let now = count("/proc/self/task")
            if now != last {
                last = now
                stableSince = DispatchTime.now().uptimeNanoseconds
            } else if DispatchTime.now().uptimeNanoseconds - stableSince >= 6_000_000_000 {
                return
            }
        }
    }

    /// Resets VmHWM to the current RSS (Linux ≥ 4.0).
    static func resetPeak() {
        if let file = fopen("/proc/self/clear_refs", "w") {
            fputs("5", file)
            fclose(file)
        }
    }
}
