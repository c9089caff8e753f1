import Dispatch
import Foundation
import PureVision

/// What every ML Kit detector here shares: its native task, created on first use, the serialised runs of that task,
/// and ML Kit's two ways of calling it (`results(in:)` on the calling thread, `process(_:completion:)` on the
/// detector's own queue with the completion on the main queue).
///
/// As in ML Kit, creating a detector cannot fail: a problem creating the task (e.g. a missing model) is reported by
/// each call. `Task` may hold per-detector state (a stream's clock, a tracker): it is only touched under `lock`.
final class DetectorCore<Task, Output>: @unchecked Sendable {
    // @unchecked: `task` is created, and every run happens, under `lock`; the closures are only called under it.
    private let lock = NSLock()
    private var task: Result<Task, VisionTaskError>?
    private let makeTask: () throws(VisionTaskError) -> Task
    private let run: (Task, PixelImage) throws(VisionTaskError) -> Output
    private let queue: DispatchQueue

    /// A core whose task `makeTask` creates on first use and `run` runs on each upright image.
    init(
        label: String, makeTask: @escaping () throws(VisionTaskError) -> Task,
        run: @escaping (Task, PixelImage) throws(VisionTaskError) -> Output
    ) {
        self.makeTask = makeTask
        self.run = run
        queue = DispatchQueue(label: "PureVisionMLKit." + label)
    }

    /// ML Kit's `results(in:)`: the output for `image`, synchronously.
    func results(in image: VisionImage) throws(VisionTaskError) -> Output {
        try output(for: try image.uprightPixels())
    }

    /// ML Kit's `process(_:completion:)`: runs on the detector's serial queue and calls `completion` once, on the main
    /// queue, with the output or the error.
    func process(_ image: VisionImage, completion: @escaping (Output?, (any Error)?) -> Void) {
        let pending = MainQueueDelivery(completion: completion, outcome: nil)
        enqueue(image) { outcome in
            let delivery = pending.carrying(outcome)
            DispatchQueue.main.async { delivery.deliver() }
        }
    }

    /// The `async` form of `process(_:completion:)` that Swift gives ML Kit's API: the output for `image`, computed on
    /// the detector's serial queue.
    func process(_ image: VisionImage) async throws(VisionTaskError) -> Output where Output: Sendable {
        let outcome = await withCheckedContinuation { continuation in
            enqueue(image) { continuation.resume(returning: $0) }
        }
        return try outcome.get()
    }

    /// Reads `image` now, so that later changes to it (or its orientation) do not affect the call, and hands the
    /// outcome for it to `finish` on the detector's serial queue.
    private func enqueue(
        _ image: VisionImage, finish: @escaping @Sendable (Result<Output, VisionTaskError>) -> Void
    ) {
        let pixels = Result { () throws(VisionTaskError) in try image.uprightPixels() }
        queue.async {
            finish(pixels.flatMap { image in Result { () throws(VisionTaskError) in try self.output(for: image) } })
        }
    }

    private func output(for image: PixelImage) throws(VisionTaskError) -> Output {
        lock.lock()
        defer { lock.unlock() }
        return try run(try loadedTask(), image)
    }

    /// The task, created at the first call; a failure to create it is kept and reported by every call.
    private func loadedTask() throws(VisionTaskError) -> Task {
        if let task { return try task.get() }
        let created = Result { () throws(VisionTaskError) in try makeTask() }
        task = created
        return try created.get()
    }
}

/// A completion and the outcome it is called with, carried to the main queue.
private struct MainQueueDelivery<Output>: @unchecked Sendable {
    // @unchecked: ML Kit's completion type is not `@Sendable` and its results are classes; both are handed over
    // once, from the detector's queue to the main queue, and only touched there.
    let completion: (Output?, (any Error)?) -> Void
    /// What to call `completion` with; nil until the work is done.
    let outcome: Result<Output, VisionTaskError>?

    /// The same completion with the outcome to deliver.
    func carrying(_ outcome: Result<Output, VisionTaskError>) -> MainQueueDelivery {
        MainQueueDelivery(completion: completion, outcome: outcome)
    }

    /// Calls the completion with the outcome (nothing before there is one).
    func deliver() {
        switch outcome {
        case .success(let output): completion(output, nil)
        case .failure(let error): completion(nil, error)
        case nil: break
        }
    }
}
