import Foundation
import PureVision
import PureVisionImage
import Synchronization
import Testing

/// The live-stream runner's own threads: one processing and one delivery thread per live-stream runner, none in the
/// other modes; both end after `close()` and after the runner is released without it (and then the runner's state is
/// freed: nothing keeps it alive); the result handler may call `close()`; events arrive one at a time, in order, one
/// per accepted frame, all on the delivery thread; `submit` never waits for processing or delivery.
///
/// Threads are counted by name (/proc/self/task/*/comm, Linux only), each test with a label of its own: the other
/// suites run in parallel with this one and start and end threads of their own, so the process's total would not
/// say which threads are the runner's.
@Suite struct TaskRunnerThreadTests {
    typealias Frame = TaskRunnerTests.Frame

    /// Live-stream events in delivery order, read while the runner still delivers: its count is taken under its lock
    /// (an array copied out of the lock and counted while the handler appends is a race to the thread sanitizer).
    typealias Recorder = LiveStreamStressTests.EventLog<Int>

    static func frame(delayMicroseconds: UInt32 = 0) -> Frame {
        Frame(image: TaskRunnerTests.image, delayMicroseconds: delayMicroseconds)
    }

    /// Polls `condition` every 5 ms for up to `seconds`; whether it came true.
    static func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(5000)
        }
        return true
    }

    #if os(Linux)
        /// The process's threads whose kernel name starts with `label` + ".".
        static func threads(label: String) -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.filter { task in
                let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
                return name.hasPrefix(label + ".")
            }.count
        }

        /// The calling thread's kernel name.
        static func currentThreadName() -> String {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            return name.trimmingCharacters(in: .newlines)
        }
    #endif

    /// A flag that outlives the object it watches.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .releasing) }
        var isSet: Bool { value.load(ordering: .acquiring) }
    }

    /// Sets its flag when deallocated: captured by a runner's `process`, it tells when the runner's state is freed.
    final class Canary: Sendable {
        let flag: Flag
        init(_ flag: Flag) { self.flag = flag }
        deinit { flag.set() }
    }

    #if os(Linux)
        @Test func imageAndVideoModesStartNoThread() throws {
            let image = try TaskRunner<Frame, Int>(
                mode: .image, label: "TRimage", handler: nil, process: TaskRunnerTests.echo)
            let video = try TaskRunner<Frame, Int>(
                mode: .video, label: "TRvideo", handler: nil, process: TaskRunnerTests.echo)
            #expect(try image.runImage(Self.frame()) == 0)
            #expect(try video.runVideo(Self.frame(), timestampInMilliseconds: 5) == 5)
            usleep(50_000)
            #expect(Self.threads(label: "TRimage") == 0)
            #expect(Self.threads(label: "TRvideo") == 0)
            image.close()
            video.close()
        }

        @Test func liveStreamThreadsEndAfterClose() throws {
            #expect(Self.threads(label: "TRclose") == 0)
            let recorder = Recorder()
            let runner = try TaskRunner<Frame, Int>(
                mode: .liveStream, label: "TRclose", handler: { recorder.append($0) }, process: TaskRunnerTests.echo)
            #expect(Self.waitUntil { Self.threads(label: "TRclose") == 2 }, "the runner's two threads did not start")
            for t in 0..<20 { try runner.submit(Self.frame(delayMicroseconds: 500), timestampInMilliseconds: t) }
            // Still exactly two while frames run.
            #expect(Self.threads(label: "TRclose") == 2)
            runner.close()
            #expect(recorder.all.map(\.timestampInMilliseconds) == Array(0..<20))
            #expect(Self.waitUntil { Self.threads(label: "TRclose") == 0 }, "a thread outlived close()")
            withExtendedLifetime(runner) {}
        }
    #endif

    /// A runner released with frames in flight and without `close()`: every accepted frame still gets its event, in
    /// order; then both threads end and the runner's state (here: its `process` closure) is freed.
    @Test func releasedWithoutCloseDeliversItsFramesThenEnds() throws {
        #if os(Linux)
            #expect(Self.threads(label: "TRfree") == 0)
        #endif
        let freed = Flag()
        let recorder = Recorder()
        do {
            let canary = Canary(freed)
            let runner = try TaskRunner<Frame, Int>(
                mode: .liveStream, label: "TRfree", handler: { recorder.append($0) },
                process: { frame, t throws(VisionTaskError) in
                    withExtendedLifetime(canary) {}
                    return try TaskRunnerTests.echo(frame, t)
                })
            for t in 0..<10 { try runner.submit(Self.frame(delayMicroseconds: 20_000), timestampInMilliseconds: t) }
        }
        // The runner is gone; the first frame is still being processed, the last one waits.
        #expect(recorder.count < 10)
        #expect(Self.waitUntil { recorder.count == 10 }, "the released runner lost frames")
        let events = recorder.all
        #expect(events.map(\.timestampInMilliseconds) == Array(0..<10))
        if case .result = events.last {} else { Issue.record("the newest frame was dropped") }
        #if os(Linux)
            #expect(Self.waitUntil { Self.threads(label: "TRfree") == 0 }, "a thread outlived the released runner")
        #endif
        #expect(Self.waitUntil { freed.isSet }, "the released runner's state was never freed")
    }

    /// The handler closes the runner from the delivery thread while a later frame is processed: `close()` returns
    /// there (it waits for that frame, not for the delivery under way), every accepted frame still gets its event,
    /// and the threads end.
    @Test func closeFromTheResultHandlerDoesNotDeadlock() throws {
        final class Shared: @unchecked Sendable {
            private let lock = NSLock()
            private weak var runner: TaskRunner<Frame, Int>?
            private var closedInHandler = false
            let closeReturned = DispatchSemaphore(value: 0)
            func set(_ runner: TaskRunner<Frame, Int>) {
                lock.lock()
                self.runner = runner
                lock.unlock()
            }
            /// Closes the runner the first time it is called.
            func closeOnce() {
                lock.lock()
                let runner = closedInHandler ? nil : self.runner
                closedInHandler = true
                lock.unlock()
                guard let runner else { return }
                runner.close()
                closeReturned.signal()
            }
        }
        let shared = Shared()
        let recorder = Recorder()
        let runner = try TaskRunner<Frame, Int>(
            mode: .liveStream, label: "TRinner",
            handler: { event in
                recorder.append(event)
                shared.closeOnce()
            }, process: TaskRunnerTests.echo)
        shared.set(runner)
        // Frame 0 is processed at once; 1 is replaced by 2 while 0 runs, and 2 runs while the handler of 0 closes.
        for t in 0..<3 { try runner.submit(Self.frame(delayMicroseconds: 30_000), timestampInMilliseconds: t) }
        guard shared.closeReturned.wait(timeout: .now() + 20) == .success else {
            // Closing again would wait for the stuck delivery thread too.
            Issue.record("close() in the handler deadlocked")
            return
        }
        #expect(Self.waitUntil { recorder.count == 3 })
        #expect(recorder.all.map(\.timestampInMilliseconds) == [0, 1, 2])
        #expect(throws: VisionTaskError.closed) { try runner.submit(Self.frame(), timestampInMilliseconds: 3) }
        runner.close()
        #if os(Linux)
            #expect(Self.waitUntil { Self.threads(label: "TRinner") == 0 }, "a thread outlived close()")
        #endif
    }

    /// A slow handler behind fast frames from two producers: events arrive one at a time (never two handler calls at
    /// once), in timestamp order, one per accepted frame, all on one thread that is no producer's.
    @Test func eventsOneAtATimeInOrderOnTheDeliveryThread() throws {
        final class Observer: @unchecked Sendable {
            private let lock = NSLock()
            private var storage: (timestamps: [Int], overlaps: Int, threads: [pthread_t], names: Set<String>) = (
                [], 0, [], []
            )
            private var inHandler = false
            func enter(_ timestamp: Int, threadName: String) {
                lock.lock()
                if inHandler { storage.overlaps += 1 }
                inHandler = true
                storage.timestamps.append(timestamp)
                if !storage.threads.contains(where: { pthread_equal($0, pthread_self()) != 0 }) {
                    storage.threads.append(pthread_self())
                }
                storage.names.insert(threadName)
                lock.unlock()
            }
            func leave() {
                lock.lock()
                inHandler = false
                lock.unlock()
            }
            var seen: (timestamps: [Int], overlaps: Int, threads: [pthread_t], names: Set<String>) {
                lock.lock()
                defer { lock.unlock() }
                return storage
            }
        }
        let observer = Observer()
        let runner = try TaskRunner<Frame, Int>(
            mode: .liveStream, label: "TRorder",
            handler: { event in
                #if os(Linux)
                    let name = Self.currentThreadName()
                #else
                    let name = ""
                #endif
                observer.enter(event.timestampInMilliseconds, threadName: name)
                usleep(300)
                observer.leave()
            },
            process: { _, t throws(VisionTaskError) in
                // Uneven processing times: 0 to 150 µs.
                usleep(UInt32(t % 4) * 50)
                return t
            })
        let lock = NSLock()
        nonisolated(unsafe) var next = 0
        nonisolated(unsafe) var accepted: [Int] = []
        nonisolated(unsafe) var producers: [pthread_t] = []
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            lock.lock()
            producers.append(pthread_self())
            lock.unlock()
            for _ in 0..<300 {
                lock.lock()
                let t = next
                next += 1
                if (try? runner.submit(Self.frame(), timestampInMilliseconds: t)) != nil { accepted.append(t) }
                lock.unlock()
            }
        }
        runner.close()
        let seen = observer.seen
        #expect(accepted.count == 600)
        #expect(seen.timestamps == accepted, "not one event per accepted frame in timestamp order")
        #expect(seen.overlaps == 0, "two handler calls ran at once")
        #expect(seen.threads.count == 1, "events were delivered on \(seen.threads.count) threads")
        if let delivery = seen.threads.first {
            #expect(!producers.contains { pthread_equal($0, delivery) != 0 }, "an event was delivered on a producer")
        }
        #if os(Linux)
            #expect(seen.names == ["TRorder.results"])
        #endif
    }

    /// Processing blocked, then the handler blocked: `submit` still returns at once each time; the frames it
    /// replaces are reported dropped once the handler is free.
    @Test func submitNeverWaitsForProcessingOrDelivery() throws {
        let processGate = DispatchSemaphore(value: 0)
        let handlerGate = DispatchSemaphore(value: 0)
        let handlerBlocked = DispatchSemaphore(value: 0)
        let recorder = Recorder()
        let runner = try TaskRunner<Frame, Int>(
            mode: .liveStream, label: "TRblock",
            handler: { event in
                if event.timestampInMilliseconds == 0 {
                    handlerBlocked.signal()
                    handlerGate.wait()
                }
                recorder.append(event)
            },
            process: { _, t throws(VisionTaskError) in
                if t == 0 { processGate.wait() }
                return t
            })
        /// Submits `timestamps` on a thread of its own; whether that returned within 20 s.
        func submitsReturn(_ timestamps: Range<Int>) -> Bool {
            let done = DispatchSemaphore(value: 0)
            Thread {
                for t in timestamps { try? runner.submit(Self.frame(), timestampInMilliseconds: t) }
                done.signal()
            }.start()
            return done.wait(timeout: .now() + 20) == .success
        }
        // Frame 0 blocks processing: 1...48 are replaced in turn, 49 waits.
        #expect(submitsReturn(0..<50), "submit waited for processing")
        processGate.signal()
        // Frame 0's event blocks the handler: 50..<100 are processed or dropped behind it.
        #expect(handlerBlocked.wait(timeout: .now() + 20) == .success)
        #expect(submitsReturn(50..<100), "submit waited for the handler")
        handlerGate.signal()
        runner.close()
        let events = recorder.all
        #expect(events.map(\.timestampInMilliseconds) == Array(0..<100))
        let answered = events.filter { if case .result = $0 { true } else { false } }.map(\.timestampInMilliseconds)
        #expect(answered.first == 0 && answered.dropFirst().first == 49 && answered.last == 99)
    }
}
