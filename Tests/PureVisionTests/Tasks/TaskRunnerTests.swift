import Foundation
import PureVision
import PureVisionImage
import Testing

/// The running-mode contract, on a stand-in task whose "inference" echoes the frame's timestamp.
@Suite struct TaskRunnerTests {
    struct Frame: FrameRequest {
        let image: PixelImage
        let delayMicroseconds: UInt32
    }

    static let image: PixelImage = {
        // A constant 2×2 image; the runner never looks at pixels.
        (try? PixelImage(width: 2, height: 2, format: .gray8, pixels: [0, 1, 2, 3]))!
    }()

    static func echo(_ frame: Frame, _ timestamp: Int) throws(VisionTaskError) -> Int {
        if frame.delayMicroseconds > 0 { usleep(frame.delayMicroseconds) }
        return timestamp
    }

    /// Collects live-stream events from the runner's serial queue.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [LiveStreamEvent<Int>] = []
        func append(_ event: LiveStreamEvent<Int>) {
            lock.lock()
            storage.append(event)
            lock.unlock()
        }
        var events: [LiveStreamEvent<Int>] {
            lock.lock()
            defer { lock.unlock() }
            return storage
        }
    }

    @Test func callsMustMatchTheRunningMode() throws {
        let runner = try TaskRunner<Frame, Int>(mode: .image, label: "test", handler: nil, process: Self.echo)
        let frame = Frame(image: Self.image, delayMicroseconds: 0)
        #expect(try runner.runImage(frame) == 0)
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .video, actual: .image)) {
            try runner.runVideo(frame, timestampInMilliseconds: 1)
        }
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .liveStream, actual: .image)) {
            try runner.submit(frame, timestampInMilliseconds: 1)
        }
    }

    @Test func resultHandlerOnlyInLiveStream() {
        #expect(throws: VisionTaskError.self) {
            _ = try TaskRunner<Frame, Int>(mode: .liveStream, label: "t", handler: nil, process: Self.echo)
        }
        #expect(throws: VisionTaskError.self) {
            _ = try TaskRunner<Frame, Int>(mode: .video, label: "t", handler: { _ in }, process: Self.echo)
        }
    }

    @Test func videoTimestampsMustStrictlyIncrease() throws {
        let runner = try TaskRunner<Frame, Int>(mode: .video, label: "test", handler: nil, process: Self.echo)
        let frame = Frame(image: Self.image, delayMicroseconds: 0)
        #expect(try runner.runVideo(frame, timestampInMilliseconds: 10) == 10)
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 10, given: 10)) {
            try runner.runVideo(frame, timestampInMilliseconds: 10)
        }
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 10, given: 5)) {
            try runner.runVideo(frame, timestampInMilliseconds: 5)
        }
        #expect(try runner.runVideo(frame, timestampInMilliseconds: 11) == 11)
    }

    /// 100 frames as fast as possible into a task that takes 1 ms per frame: each accepted frame gets exactly one
    /// event, results and drops arrive in timestamp order, and the newest frame is never dropped.
    @Test func liveStreamBurstAnswersOrDropsEveryFrameInOrder() async throws {
        let recorder = Recorder()
        let runner = try TaskRunner<Frame, Int>(
            mode: .liveStream, label: "test", handler: { recorder.append($0) }, process: Self.echo)
        let stream = runner.events()
        for t in 0..<100 {
            try runner.submit(Frame(image: Self.image, delayMicroseconds: 1000), timestampInMilliseconds: t)
        }
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 99, given: 99)) {
            try runner.submit(Frame(image: Self.image, delayMicroseconds: 0), timestampInMilliseconds: 99)
        }
        runner.close()
        let events = recorder.events
        #expect(events.map(\.timestampInMilliseconds) == Array(0..<100))
        var answered = 0
        for event in events {
            switch event {
            case .result(let value, _, let t):
                #expect(value == t)
                answered += 1
            case .dropped: break
            case .failed(let error, let t): Issue.record("frame \(t) failed: \(error)")
            }
        }
        #expect(answered >= 2, "the first and the last frame are always processed")
        if case .result = events.last {} else { Issue.record("the newest frame was dropped") }
        var streamed: [Int] = []
        for await event in stream { streamed.append(event.timestampInMilliseconds) }
        #expect(streamed == Array(0..<100))
        #expect(throws: VisionTaskError.closed) {
            try runner.submit(Frame(image: Self.image, delayMicroseconds: 0), timestampInMilliseconds: 100)
        }
    }

    /// Several producer threads feeding one live-stream task: no frame is lost, no event is duplicated, and the
    /// delivered order is the accepted order.
    @Test func concurrentProducersLoseNothing() throws {
        let recorder = Recorder()
        let runner = try TaskRunner<Frame, Int>(
            mode: .liveStream, label: "test", handler: { recorder.append($0) }, process: Self.echo)
        let clock = NSLock()
        nonisolated(unsafe) var next = 0
        nonisolated(unsafe) var accepted: [Int] = []
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<250 {
                // Each producer takes a fresh timestamp and submits it under the same lock, so timestamps reach the
                // runner in increasing order.
                clock.lock()
                let t = next
                next += 1
                if (try? runner.submit(Frame(image: Self.image, delayMicroseconds: 50), timestampInMilliseconds: t))
                    != nil
                {
                    accepted.append(t)
                }
                clock.unlock()
            }
        }
        runner.close()
        #expect(accepted.count == 1000)
        #expect(recorder.events.map(\.timestampInMilliseconds) == accepted)
    }

    @Test func asyncImageForm() async throws {
        let runner = try TaskRunner<Frame, Int>(mode: .image, label: "test", handler: nil, process: Self.echo)
        let value = try await runner.runImageAsync(Frame(image: Self.image, delayMicroseconds: 100))
        #expect(value == 0)
    }
}
