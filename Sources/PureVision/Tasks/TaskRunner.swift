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
package final class TaskRunner<Request: FrameRequest, Result: Sendable>: @unchecked Sendable {
    package typealias Process = @Sendable (Request, _ timestampInMilliseconds: Int) throws(VisionTaskError) -> Result
    package typealias Handler = @Sendable (LiveStreamEvent<Result>) -> Void

    package let mode: RunningMode
    private let process: Process
    private let handler: Handler?
    private let callbackQueue: DispatchQueue
    private let callbackQueueKey = DispatchSpecificKey<Bool>()
    private let worker: DispatchQueue

    private let state = NSCondition()
    /// Serialises processing (video frames must run in order, one at a time).
    private let processing = NSLock()
    private var lastTimestamp: Int?
    private var isClosed = false
    private var isBusy = false
    private var waiting: (request: Request, timestamp: Int)?
    /// Accepted live-stream timestamps whose events are not delivered yet, oldest first.
    private var undelivered: [Int] = []
    private var ready: [Int: LiveStreamEvent<Result>] = [:]
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
        worker = DispatchQueue(label: "PureVision.\(label).worker")
        callbackQueue.setSpecific(key: callbackQueueKey, value: true)
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
        // The frame outlives this call: never keep a pointer into the caller's memory.
        let owned = request
        if isBusy {
            if let replaced = waiting { record(.dropped(timestampInMilliseconds: replaced.timestamp)) }
            waiting = (owned, timestamp)
        } else {
            isBusy = true
            worker.async { self.drain(startingWith: owned, timestamp: timestamp) }
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
    /// when it closes), and — unless called from the result queue itself — waits until every event has been
    /// delivered. Idempotent.
    package func close() {
        state.lock()
        isClosed = true
        while isBusy { state.wait() }
        let streams = Array(continuations.values)
        continuations.removeAll()
        state.unlock()
        if DispatchQueue.getSpecific(key: callbackQueueKey) == nil {
            callbackQueue.sync {}
        }
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

    private func drain(startingWith request: Request, timestamp: Int) {
        var job = (request: request, timestamp: timestamp)
        while true {
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
            if let next = waiting {
                waiting = nil
                job = next
                state.unlock()
            } else {
                isBusy = false
                state.broadcast()
                state.unlock()
                return
            }
        }
    }

    /// Stores an event and delivers, in order, every event whose predecessors are all known. Called with `state`
    /// locked, so deliveries are enqueued in timestamp order.
    private func record(_ event: LiveStreamEvent<Result>) {
        ready[event.timestampInMilliseconds] = event
        while let head = undelivered.first, let next = ready.removeValue(forKey: head) {
            undelivered.removeFirst()
            let handler = self.handler
            let streams = Array(continuations.values)
            callbackQueue.async {
                handler?(next)
                for continuation in streams { continuation.yield(next) }
            }
        }
    }
}
