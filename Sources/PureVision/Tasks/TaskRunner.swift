import Dispatch
import Foundation
import PureVisionImage

/// One frame handed to a task: its image plus whatever per-call options the task takes.
package protocol FrameRequest: Sendable {
    var image: PixelImage { get }
}

/// The running-mode contract every vision task shares (MediaPipe's `BaseVisionTaskApi` + `TaskRunner`):
///
/// - each call must match the task's running mode;
/// - video and live-stream timestamps must strictly increase;
/// - live stream never blocks the caller: at most one frame is processed and one waits; a newer frame replaces the
///   waiting one, which is reported as `.dropped` (MediaPipe drops it silently);
/// - live-stream events are delivered one at a time on the runner's delivery thread, in timestamp order, one per
///   accepted frame.
///
/// Processing is serialised: one frame at a time, whatever the calling threads.
///
/// A live-stream runner has two threads of its own, started when it is created: a processing thread and a delivery
/// thread, named `PureVision.<label>.worker` and `PureVision.<label>.results` (on Linux, whose thread names hold 15
/// bytes, `<label>.worker` and `<label>.results` with the label shortened). Each is parked on a condition variable
/// while idle and woken when `submit` starts a frame, or when a processed or dropped frame makes events ready. Image
/// and video modes start no thread: their calls run on the caller's thread (the `async` forms on a global dispatch
/// queue).
///
/// Own threads rather than dispatch, so that a long stream's thread count, and with it its memory, is fixed from the
/// first frame. Serial dispatch queues run on libdispatch's shared worker pool, which starts or retires a worker
/// depending on timing: a 100,000-frame soak went from 4 to 5 threads in its first tenth, and the new worker's stack
/// and malloc arena (about 360 KiB) were +1 % of the process's memory. Waking a parked thread also allocates nothing,
/// whereas a `DispatchQueue.async` per frame allocates a continuation, which the worker frees into its own per-thread
/// cache (a long stream's heap rose by about 80 bytes a frame until every worker's cache was full).
///
/// The threads hold the runner's state, not the runner. A runner released without `close()` still processes and
/// delivers the frames it accepted; then both threads end and the state is freed. After `close()` the threads end as
/// soon as every event has been delivered.
package final class TaskRunner<Request: FrameRequest, Result: Sendable>: Sendable {
    package typealias Process = @Sendable (Request, _ timestampInMilliseconds: Int) throws(VisionTaskError) -> Result
    package typealias Handler = @Sendable (LiveStreamEvent<Result>) -> Void

    package let mode: RunningMode
    private let core: Core

    /// Creates a runner; in live-stream mode, also starts its processing and delivery threads. Live-stream mode
    /// requires `handler`; the other modes must not have one.
    package init(mode: RunningMode, label: String, handler: Handler?, process: @escaping Process)
        throws(VisionTaskError)
    {
        switch (mode, handler) {
        case (.liveStream, nil):
            throw .resultHandler("The live-stream mode needs a result handler (resultListener).")
        case (.image, .some), (.video, .some):
            throw .resultHandler("A result handler is only allowed in live-stream mode, not in \(mode) mode.")
        default: break
        }
        self.mode = mode
        core = Core(process: process, handler: handler)
        if mode == .liveStream { core.startThreads(label: label) }
    }

    deinit {
        core.release()
    }

    /// Image mode: processes one image now.
    package func runImage(_ request: Request) throws(VisionTaskError) -> Result {
        try expect(.image)
        return try core.runImage(request)
    }

    /// Video mode: processes one frame now; its timestamp must exceed the previous one.
    package func runVideo(_ request: Request, timestampInMilliseconds timestamp: Int) throws(VisionTaskError) -> Result
    {
        try expect(.video)
        return try core.runVideo(request, timestamp)
    }

    /// Live-stream mode: queues the frame and returns at once.
    package func submit(_ request: Request, timestampInMilliseconds timestamp: Int) throws(VisionTaskError) {
        try expect(.liveStream)
        try core.submit(request, timestamp)
    }

    /// Runs `process` off the caller's thread, for the `async` API (image mode).
    package func runImageAsync(_ request: Request) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, Error>) in
            DispatchQueue.global().async {
                do {
                    continuation.resume(returning: try self.runImage(request))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Runs a video frame off the caller's thread, for the `async` API.
    package func runVideoAsync(_ request: Request, timestampInMilliseconds timestamp: Int) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, Error>) in
            DispatchQueue.global().async {
                do {
                    continuation.resume(returning: try self.runVideo(request, timestampInMilliseconds: timestamp))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// A stream of every live-stream event from now on, in timestamp order; it finishes when the task closes.
    package func events() -> AsyncStream<LiveStreamEvent<Result>> { core.events() }

    /// Stops accepting frames, finishes the frame being processed and the one waiting (as MediaPipe's graph does
    /// when it closes) or the synchronous call under way, and — unless called from the result handler itself — waits
    /// until every event has been delivered. The live-stream threads end once they have nothing left to do.
    /// Idempotent.
    package func close() { core.close() }

    private func expect(_ expected: RunningMode) throws(VisionTaskError) {
        guard mode == expected else { throw .wrongRunningMode(expected: expected, actual: mode) }
    }

    // MARK: - Internals

    /// The runner's state and work. The live-stream threads hold it (each until it ends), the runner's `deinit`
    /// tells them that no frame will come any more.
    private final class Core: @unchecked Sendable {
        private let process: Process
        private let handler: Handler?

        private let state = NSCondition()
        /// Serialises processing (video frames must run in order, one at a time).
        private let processing = NSLock()
        /// Live stream: wakes the processing thread when a frame is started, or when no frame will come any more.
        private let frameStarted = Wakeup()
        /// Live stream: wakes the delivery thread when events are ready in `outbox`, or when no frame will come any
        /// more.
        private let eventsReady = Wakeup()

        private var lastTimestamp: Int?
        /// No frame is accepted any more: `close()` was called or the runner was released.
        private var isClosed = false
        /// A live-stream frame is started or being processed; the processing thread clears it when it runs out.
        private var isBusy = false
        /// The frame accepted while none was processed, for the processing thread (never replaced).
        private var started: (request: Request, timestamp: Int)?
        /// The frame accepted while one is processed; a newer frame replaces it (and it is reported dropped).
        private var waiting: (request: Request, timestamp: Int)?
        /// Accepted live-stream timestamps whose events are not delivered yet, oldest first.
        private var undelivered: [Int] = []
        private var ready: [Int: LiveStreamEvent<Result>] = [:]
        /// Events in timestamp order, waiting for the delivery thread; `delivering` is its batch (swapped, so no
        /// copy).
        private var outbox: [LiveStreamEvent<Result>] = []
        private var delivering: [LiveStreamEvent<Result>] = []
        private var isDelivering = false
        /// The delivery thread, once it runs: `close()` called from the result handler must not wait for it.
        private var deliveryThread: pthread_t?
        private var continuations: [UUID: AsyncStream<LiveStreamEvent<Result>>.Continuation] = [:]

        init(process: @escaping Process, handler: Handler?) {
            self.process = process
            self.handler = handler
        }

        /// Starts the processing and delivery threads; each holds `self` until it ends.
        func startThreads(label: String) {
            startThread(label: label, role: "worker") { self.processFrames() }
            startThread(label: label, role: "results") { self.deliverEvents() }
        }

        func runImage(_ request: Request) throws(VisionTaskError) -> Result {
            try checkOpen()
            processing.lock()
            defer { processing.unlock() }
            return try process(request, 0)
        }

        func runVideo(_ request: Request, _ timestamp: Int) throws(VisionTaskError) -> Result {
            // Timestamps are checked and frames processed under one lock, so frames run in timestamp order.
            processing.lock()
            defer { processing.unlock() }
            try accept(timestamp)
            return try process(request, timestamp)
        }

        func submit(_ request: Request, _ timestamp: Int) throws(VisionTaskError) {
            state.lock()
            defer { state.unlock() }
            try acceptLocked(timestamp)
            undelivered.append(timestamp)
            if isBusy {
                if let replaced = waiting { record(.dropped(timestampInMilliseconds: replaced.timestamp)) }
                waiting = (request, timestamp)
            } else {
                isBusy = true
                started = (request, timestamp)
                frameStarted.signal()
            }
        }

        func events() -> AsyncStream<LiveStreamEvent<Result>> {
            let (stream, continuation) = AsyncStream<LiveStreamEvent<Result>>.makeStream(bufferingPolicy: .unbounded)
            let id = UUID()
            state.lock()
            if isClosed {
                state.unlock()
                continuation.finish()
                return stream
            }
            continuations[id] = continuation
            state.unlock()
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.state.lock()
                self.continuations[id] = nil
                self.state.unlock()
            }
            return stream
        }

        func close() {
            state.lock()
            let onDeliveryThread = deliveryThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            stopAccepting()
            while isBusy || (!onDeliveryThread && (isDelivering || !outbox.isEmpty)) { state.wait() }
            let streams = Array(continuations.values)
            continuations.removeAll()
            state.unlock()
            // A synchronous call already under way on another thread ends before close returns.
            processing.lock()
            processing.unlock()
            for continuation in streams { continuation.finish() }
        }

        /// The runner is gone: no frame will come any more. Does not wait; the threads finish on their own.
        func release() {
            state.lock()
            stopAccepting()
            state.unlock()
        }

        /// Marks the runner closed and wakes both threads, so that each ends once it has nothing left to do. Called
        /// with `state` locked.
        private func stopAccepting() {
            isClosed = true
            frameStarted.signal()
            eventsReady.signal()
        }

        private func checkOpen() throws(VisionTaskError) {
            state.lock()
            defer { state.unlock() }
            if isClosed { throw .closed }
        }

        private func accept(_ timestamp: Int) throws(VisionTaskError) {
            state.lock()
            defer { state.unlock() }
            try acceptLocked(timestamp)
        }

        /// Takes `timestamp` as the latest one if the task is open and it is later than the last; `state` is locked.
        private func acceptLocked(_ timestamp: Int) throws(VisionTaskError) {
            guard !isClosed else { throw .closed }
            if let last = lastTimestamp, timestamp <= last {
                throw .nonMonotonicTimestamp(previous: last, given: timestamp)
            }
            lastTimestamp = timestamp
        }

        /// The processing thread: processes the started frame, then each frame left waiting meanwhile, until none
        /// waits; parks until the next frame is started. Ends once the runner is closed and no frame is left.
        private func processFrames() {
            while true {
                frameStarted.wait()
                state.lock()
                var next = started
                started = nil
                while let job = next {
                    state.unlock()
                    let event: LiveStreamEvent<Result>
                    processing.lock()
                    do {
                        let result = try process(job.request, job.timestamp)
                        event = .result(result, image: job.request.image, timestampInMilliseconds: job.timestamp)
                    } catch {
                        event = .failed(error, timestampInMilliseconds: job.timestamp)
                    }
                    processing.unlock()
                    state.lock()
                    record(event)
                    next = waiting
                    waiting = nil
                }
                // No frame is started or waiting now, and once closed none can come: this thread's work is over,
                // and the delivery thread, which ends only after this one, is told so.
                isBusy = false
                let ends = isClosed
                if ends { eventsReady.signal() }
                state.broadcast()
                state.unlock()
                if ends { return }
            }
        }

        /// Stores an event and hands every event whose predecessors are all known, in timestamp order, to the
        /// delivery thread. Called with `state` locked.
        private func record(_ event: LiveStreamEvent<Result>) {
            ready[event.timestampInMilliseconds] = event
            var released = false
            while let head = undelivered.first, let next = ready.removeValue(forKey: head) {
                undelivered.removeFirst()
                outbox.append(next)
                released = true
            }
            if released && !isDelivering {
                isDelivering = true
                eventsReady.signal()
            }
        }

        /// The delivery thread: calls the handler and feeds the streams with every event in `outbox`, in order;
        /// parks until more are ready. Ends once the runner is closed and the processing thread has ended.
        private func deliverEvents() {
            state.lock()
            deliveryThread = pthread_self()
            state.unlock()
            while true {
                eventsReady.wait()
                state.lock()
                while !outbox.isEmpty {
                    swap(&outbox, &delivering)
                    let streams = Array(continuations.values)
                    state.unlock()
                    for event in delivering {
                        handler?(event)
                        for continuation in streams { continuation.yield(event) }
                    }
                    delivering.removeAll(keepingCapacity: true)
                    state.lock()
                }
                isDelivering = false
                // Closed and not busy: no event can be recorded any more, and `outbox` is empty.
                let ends = isClosed && !isBusy
                if ends { deliveryThread = nil }
                state.broadcast()
                state.unlock()
                if ends { return }
            }
        }
    }
}

/// Wakes one parked thread: `signal` sets a flag and wakes the thread, `wait` returns once the flag is set and
/// clears it, so a signal sent while the thread is busy is not lost. Allocates nothing.
private final class Wakeup: @unchecked Sendable {
    private let condition = NSCondition()
    private var isSignalled = false

    func signal() {
        condition.lock()
        isSignalled = true
        condition.signal()
        condition.unlock()
    }

    func wait() {
        condition.lock()
        while !isSignalled { condition.wait() }
        isSignalled = false
        condition.unlock()
    }
}

/// Starts a thread named `PureVision.<label>.<role>` that runs `body`.
private func startThread(label: String, role: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread {
        #if os(Linux)
            // Foundation does not name the kernel thread on Linux. The kernel keeps 15 bytes: "<label>.<role>" with
            // the label shortened, so that the role stays visible (`top -H`, /proc/self/task/*/comm).
            nameCurrentThread(String(label.prefix(max(1, 14 - role.count))) + "." + role)
        #endif
        body()
    }
    thread.name = "PureVision.\(label).\(role)"
    #if canImport(Darwin)
        // Unverified (this package is built and tested on Linux): live-stream frames are interactive work.
        thread.qualityOfService = .userInitiated
    #endif
    thread.start()
}

#if os(Linux)
    /// Sets the calling thread's kernel name (its first 15 bytes) through /proc; best effort.
    private func nameCurrentThread(_ name: String) {
        let file = open("/proc/thread-self/comm", O_WRONLY)
        guard file >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        close(file)
    }
#endif
