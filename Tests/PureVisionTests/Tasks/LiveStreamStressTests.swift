import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Synchronization
import Testing

/// Live stream under load: several producer threads feed one real task as fast as they can (one never pauses, the
/// others pause 0.5 ms per producer index between frames). Producers draw timestamps from one shared counter and
/// submit without any other coordination, so frames reach the task out of order now and then; those must be
/// refused with `.nonMonotonicTimestamp`. Checked: every frame is accepted or refused with that typed error, every
/// accepted frame gets exactly one event (answered or dropped) in timestamp order, the newest frame is answered, and
/// `close()` while frames are in flight loses no callback and delivers none after it returns.
///
/// The CI form takes a few seconds; `PUREVISION_STRESS=long` feeds 50 times as many frames (and any value of
/// `PUREVISION_STRESS` prints the counts per run). Run it under the thread
/// sanitizer with `swift test -c release --sanitize=thread --build-path .build/tsan --filter "LiveStreamStress|TaskRunner"`.
@Suite struct LiveStreamStressTests {
    static let scale = ProcessInfo.processInfo.environment["PUREVISION_STRESS"] == "long" ? 50 : 1

    /// Events in delivery order.
    final class EventLog<Result: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [LiveStreamEvent<Result>] = []
        func append(_ event: LiveStreamEvent<Result>) {
            lock.lock()
            storage.append(event)
            lock.unlock()
        }
        var all: [LiveStreamEvent<Result>] {
            lock.lock()
            defer { lock.unlock() }
            return storage
        }
        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return storage.count
        }
    }

    /// What each submitted frame got: accepted, or the error `submit` threw.
    final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var accepted: [Int] = []
        private(set) var refused: [(timestamp: Int, error: Error)] = []
        func accept(_ timestamp: Int) {
            lock.lock()
            accepted.append(timestamp)
            lock.unlock()
        }
        func refuse(_ timestamp: Int, _ error: Error) {
            lock.lock()
            refused.append((timestamp, error))
            lock.unlock()
        }
        var acceptedCount: Int {
            lock.lock()
            defer { lock.unlock() }
            return accepted.count
        }
    }

    /// The event counts seen when `close()` returned and 20 ms later.
    final class CloseCounts: @unchecked Sendable {
        private let lock = NSLock()
        private var values = (0, 0)
        func set(_ atClose: Int, _ later: Int) {
            lock.lock()
            values = (atClose, later)
            lock.unlock()
        }
        func get() -> (Int, Int) {
            lock.lock()
            defer { lock.unlock() }
            return values
        }
    }

    /// The shared timestamp source: each call returns a fresh, larger value.
    final class Ticket: Sendable {
        private let next = Atomic<Int>(0)
        func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
    }

    /// Starts `producers` threads that each submit up to `framesEach` frames, stopping early once the task is
    /// closed, and waits for all of them.
    static func produce(
        producers: Int, framesEach: Int, outcomes: Outcomes,
        submit: @escaping @Sendable (Int) throws(VisionTaskError) -> Void
    ) {
        let ticket = Ticket()
        let group = DispatchGroup()
        for producer in 0..<producers {
            group.enter()
            let thread = Thread {
                for _ in 0..<framesEach {
                    let timestamp = ticket.take()
                    do {
                        try submit(timestamp)
                        outcomes.accept(timestamp)
                    } catch {
                        outcomes.refuse(timestamp, error)
                        if (error as? VisionTaskError) == .closed { break }
                    }
                    if producer > 0 { usleep(UInt32(500 * producer)) }
                }
                group.leave()
            }
            thread.start()
        }
        group.wait()
    }

    /// The checks shared by every run: refusals are typed and justified, events match the accepted frames one for
    /// one in increasing timestamp order, nothing failed, every result passes `isPlausible`, the newest frame was
    /// answered (unless the task was closed under the producers).
    static func check<Result: Sendable>(
        _ events: [LiveStreamEvent<Result>], _ outcomes: Outcomes, submitted: Int, closedEarly: Bool = false,
        isPlausible: (Result) -> Bool
    ) {
        #expect(outcomes.accepted.count + outcomes.refused.count == submitted)
        for (timestamp, error) in outcomes.refused {
            switch error as? VisionTaskError {
            case .nonMonotonicTimestamp(let previous, let given):
                #expect(given == timestamp && previous > given, "\(error)")
            case .closed:
                #expect(closedEarly, "refused as closed before close()")
            default:
                Issue.record("frame \(timestamp) refused with \(error)")
            }
        }
        let accepted = outcomes.accepted.sorted()
        #expect(Set(accepted).count == accepted.count, "a timestamp was accepted twice")
        let delivered = events.map(\.timestampInMilliseconds)
        #expect(delivered == accepted, "events are not the accepted frames in timestamp order")
        var answered = 0
        for event in events {
            switch event {
            case .result(let result, _, let timestamp):
                answered += 1
                if !isPlausible(result) { Issue.record("implausible result for frame \(timestamp): \(result)") }
            case .dropped: break
            case .failed(let error, let timestamp): Issue.record("frame \(timestamp) failed: \(error)")
            }
        }
        #expect(answered >= 1)
        if ProcessInfo.processInfo.environment["PUREVISION_STRESS"] != nil {
            let outOfOrder = outcomes.refused.filter { ($0.error as? VisionTaskError) != .closed }.count
            print(
                "\(Result.self): \(submitted) submitted, \(accepted.count) accepted (\(answered) answered, "
                    + "\(accepted.count - answered) dropped), \(outOfOrder) refused out of order, "
                    + "\(outcomes.refused.count - outOfOrder) refused as closed")
        }
        if !closedEarly, let last = events.last, case .dropped = last {
            Issue.record("the newest frame was dropped")
        }
    }

    static func faceDetector(handler: @escaping @Sendable (LiveStreamEvent<FaceDetectorResult>) -> Void) throws
        -> FaceDetector
    {
        try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("face_detection_short_range.tflite")),
                runningMode: .liveStream, resultHandler: handler))
    }

    static func facePhoto() throws -> PixelImage {
        try PixelImage(contentsOfFile: Fixtures.testFile("PureVisionTests/Fixtures/faces/astronaut_scale50.png"))
    }

    /// Four producers, 600 frames each (×50 in the long form), into the face detector (256×256 image).
    @Test func faceDetectorUnderFourProducers() async throws {
        let image = try Self.facePhoto()
        let log = EventLog<FaceDetectorResult>()
        let detector = try Self.faceDetector(handler: { log.append($0) })
        let stream = detector.liveStreamResults()
        let outcomes = Outcomes()
        let producers = 4
        let framesEach = 600 * Self.scale
        Self.produce(producers: producers, framesEach: framesEach, outcomes: outcomes) { t throws(VisionTaskError) in
            try detector.detectAsync(image: image, timestampInMilliseconds: t)
        }
        detector.close()
        let events = log.all
        Self.check(events, outcomes, submitted: producers * framesEach) { $0.detections.count == 1 }
        var streamed: [Int] = []
        for await event in stream { streamed.append(event.timestampInMilliseconds) }
        #expect(streamed == events.map(\.timestampInMilliseconds), "the AsyncStream saw other events")
    }

    /// `close()` while four producers are still submitting: every frame accepted before the close gets its event
    /// before `close()` returns, none arrives after, and later frames are refused with `.closed`.
    @Test func faceDetectorClosedWhileFramesAreInFlight() throws {
        let image = try Self.facePhoto()
        let log = EventLog<FaceDetectorResult>()
        let detector = try Self.faceDetector(handler: { log.append($0) })
        let outcomes = Outcomes()
        let producers = 4
        let framesEach = 1_000_000
        let counts = CloseCounts()
        let closerDone = DispatchSemaphore(value: 0)
        let closer = Thread {
            // Close once enough frames are in; the producers keep going until they are refused.
            while outcomes.acceptedCount < 300 * Self.scale { usleep(200) }
            detector.close()
            let atClose = log.count
            usleep(20_000)
            let later = log.count
            counts.set(atClose, later)
            closerDone.signal()
        }
        let closed = DispatchSemaphore(value: 0)
        let watched = Thread {
            Self.produce(producers: producers, framesEach: framesEach, outcomes: outcomes) {
                t throws(VisionTaskError) in
                try detector.detectAsync(image: image, timestampInMilliseconds: t)
            }
            closed.signal()
        }
        watched.start()
        closer.start()
        closed.wait()
        closerDone.wait()
        let (atClose, later) = counts.get()
        #expect(later == atClose, "an event was delivered after close() returned")
        let events = log.all
        #expect(atClose == events.count && atClose == outcomes.acceptedCount, "close() returned before every event")
        let submitted = outcomes.accepted.count + outcomes.refused.count
        #expect(outcomes.refused.filter { ($0.error as? VisionTaskError) == .closed }.count == producers)
        Self.check(events, outcomes, submitted: submitted, closedEarly: true) { $0.detections.count == 1 }
        #expect(throws: VisionTaskError.closed) {
            try detector.detectAsync(image: image, timestampInMilliseconds: .max)
        }
    }

    /// The hand landmarker (palm detection, then landmarks on tracked hands), three producers, 150 frames each
    /// (×50 in the long form).
    @Test func handLandmarkerUnderThreeProducers() throws {
        let image = try PixelImage(
            contentsOfFile: Fixtures.testFile("PureVisionTests/Fixtures/hands/hand_dst_scale50.png"))
        let log = EventLog<HandLandmarkerResult>()
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("hand_landmarker.task")),
                runningMode: .liveStream, resultHandler: { log.append($0) }))
        let outcomes = Outcomes()
        let producers = 3
        let framesEach = 150 * Self.scale
        Self.produce(producers: producers, framesEach: framesEach, outcomes: outcomes) { t throws(VisionTaskError) in
            try landmarker.detectAsync(image: image, timestampInMilliseconds: t)
        }
        landmarker.close()
        Self.check(log.all, outcomes, submitted: producers * framesEach) { $0.landmarks.count == 1 }
    }
}
