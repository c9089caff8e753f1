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
/// - live-stream events are delivered on one serial queue, in timestamp order, one per accepted frame.
///
/// Processing is serialised: one frame at a time, whatever the calling threads.
///
/// Live stream wakes its two serial queues (processing, delivery) through dispatch user-data sources, not one
/// `async` block per frame: a `DispatchQueue.async` from the camera thread allocates a continuation that the queue's
/// worker thread then frees into its own per-thread cache (up to 1,024 of 64 bytes per thread), so a long stream's
/// heap rose by about 80 bytes a frame until every dispatch thread's cache was full. Merging data into a source
/// allocates nothing.
package final class TaskRunner<Request: FrameRequest, Result: Sendable>: @unchecked Sendable {
    package typealias Process = @Sendable (Request, _ timestampInMilliseconds: Int) throws(VisionTaskError) -> Result
    package typealias Handler = @Sendable (LiveStreamEvent<Result>) -> Void

    package let mode: RunningMode
    private let process: Process
    private let handler: Handler?
    private let callbackQueue: DispatchQueue
    private let callbackQueueKey = DispatchSpecificKey<Bool>()
    /// Live stream: signalled when a frame is queued while none is processed; runs `drain` on its own serial queue.
    private let workSignal: DispatchSourceUserDataOr
    /// Live stream: signalled when events are ready in `outbox`; runs `deliver` on `callbackQueue`.
    private let deliverySignal: DispatchSourceUserDataOr

    private let state = NSCondition()
    /// Serialises processing (video frames must run in order, one at a time).
    private let processing = NSLock()
    private var lastTimestamp: Int?
    private var isClosed = false
    private var isBusy = false
    /// The frame accepted while none was processed, handed to `drain` (never replaced).
    private var started: (request: Request, timestamp: Int)?
    /// The frame accepted while one is processed; a newer frame replaces it (and it is reported dropped).
    private var waiting: (request: Request, timestamp: Int)?
    /// Accepted live-stream timestamps whose events are not delivered yet, oldest first.
    private var undelivered: [Int] = []
    private var ready: [Int: LiveStreamEvent<Result>] = [:]
    /// Events in timestamp order, waiting for `deliver`; `delivering` is its batch (swapped, so no copy).
    private var outbox: [LiveStreamEvent<Result>] = []
    private var delivering: [LiveStreamEvent<Result>] = []
    private var isDelivering = false
    /// The runner itself while live-stream work is in flight, so that a task released without `close()` still
    /// finishes and reports its queued frames (the sources' handlers hold the runner weakly).
    private var keepAliveWhileBusy: TaskRunner?
    private var keepAliveWhileDelivering: TaskRunner?
    private var continuations: [UUID: AsyncStream<LiveStreamEvent<Result>>.Continuation] = [:]

    /// Creates a runner. Live-stream mode requires `handler`; the other modes must not have one.
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
        self.process = process
        self.handler = handler
        callbackQueue = DispatchQueue(label: "PureVision.\(label).results")
        callbackQueue.setSpecific(key: callbackQueueKey, value: true)
        workSignal = DispatchSource.makeUserDataOrSource(queue: DispatchQueue(label: "PureVision.\(label).worker"))
        deliverySignal = DispatchSource.makeUserDataOrSource(queue: callbackQueue)
        workSignal.setEventHandler { [weak self] in self?.drain() }
        deliverySignal.setEventHandler { [weak self] in self?.deliver() }
        workSignal.activate()
        deliverySignal.activate()
    }

    deinit {
        workSignal.cancel()
        deliverySignal.cancel()
    }

    /// Image mode: processes one image now.
    package func runImage(_ request: Request) throws(VisionTaskError) -> Result {
        try expect(.image)
        try checkOpen()
        return try serialized { () throws(VisionTaskError) -> Result in try process(request, 0) }
    }

    /// Video mode: processes one frame now; its timestamp must exceed the previous one.
    package func runVideo(_ request: Request, timestampInMilliseconds timestamp: Int) throws(VisionTaskError) -> Result
    {
        try expect(.video)
        // Timestamps are checked and frames processed under one lock, so frames run in timestamp order.
        processing.lock()
        defer { processing.unlock() }
        try accept(timestamp)
        return try process(request, timestamp)
    }

    /// Live-stream mode: queues the frame and returns at once.
    package func submit(_ request: Request, timestampInMilliseconds timestamp: Int) throws(VisionTaskError) {
        try expect(.liveStream)
        state.lock()
        defer { state.unlock() }
        guard !isClosed else { throw .closed }
        if let last = lastTimestamp, timestamp <= last {
            throw .nonMonotonicTimestamp(previous: last, given: timestamp)
        }
        lastTimestamp = timestamp
        undelivered.append(timestamp)
        if isBusy {
            if let replaced = waiting { record(.dropped(timestampInMilliseconds: replaced.timestamp)) }
            waiting = (request, timestamp)
        } else {
            isBusy = true
            started = (request, timestamp)
            keepAliveWhileBusy = self
            workSignal.or(data: 1)
        }
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
    package func events() -> AsyncStream<LiveStreamEvent<Result>> {
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

    /// Stops accepting frames, finishes the frame being processed and the one waiting (as MediaPipe's graph does
    /// when it closes) or the synchronous call under way, and — unless called from the result queue itself — waits
    /// until every event has been delivered. Idempotent.
    package func close() {
        let onResultQueue = DispatchQueue.getSpecific(key: callbackQueueKey) != nil
        state.lock()
        isClosed = true
        while isBusy || (!onResultQueue && (isDelivering || !outbox.isEmpty)) { state.wait() }
        let streams = Array(continuations.values)
        continuations.removeAll()
        state.unlock()
        // A synchronous call already under way on another thread ends before close returns.
        processing.lock()
        processing.unlock()
        for continuation in streams { continuation.finish() }
    }

    // MARK: - Internals

    private func expect(_ expected: RunningMode) throws(VisionTaskError) {
        guard mode == expected else { throw .wrongRunningMode(expected: expected, actual: mode) }
    }

    private func checkOpen() throws(VisionTaskError) {
        state.lock()
        defer { state.unlock() }
        if isClosed { throw .closed }
    }

    private func accept(_ timestamp: Int) throws(VisionTaskError) {
        state.lock()
        defer { state.unlock() }
        guard !isClosed else { throw .closed }
        if let last = lastTimestamp, timestamp <= last {
            throw .nonMonotonicTimestamp(previous: last, given: timestamp)
        }
        lastTimestamp = timestamp
    }

    private func serialized<R>(_ body: () throws(VisionTaskError) -> R) throws(VisionTaskError) -> R {
        processing.lock()
        defer { processing.unlock() }
        return try body()
    }

    /// Processes the started frame, then each frame left waiting meanwhile, until none waits (on the worker queue).
    private func drain() {
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
        isBusy = false
        let keptAlive = keepAliveWhileBusy
        keepAliveWhileBusy = nil
        state.broadcast()
        state.unlock()
        withExtendedLifetime(keptAlive) {}
    }

    /// Stores an event and hands every event whose predecessors are all known, in timestamp order, to the result
    /// queue. Called with `state` locked.
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
            keepAliveWhileDelivering = self
            deliverySignal.or(data: 1)
        }
    }

    /// Calls the handler and feeds the streams with every event in `outbox`, in order (on the result queue).
    private func deliver() {
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
        let keptAlive = keepAliveWhileDelivering
        keepAliveWhileDelivering = nil
        state.broadcast()
        state.unlock()
        withExtendedLifetime(keptAlive) {}
    }
}
