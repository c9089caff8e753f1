import PureVisionKernels

/// A pipeline that tracks its regions from frame to frame, as MediaPipe's landmarkers do: a detector finds the
/// regions, a landmark model reads each one, and in video and live-stream modes the next frame's regions come from
/// this frame's landmarks, the detector running only while fewer regions than asked for are tracked.
protocol TrackingPipeline: Sendable {
    /// What the pipeline returns for one frame.
    associatedtype Output: Sendable
    /// The thread pool each of the pipeline's models runs on, in load order.
    var pools: [ThreadPool] { get }
    /// How many times the detector has run.
    var detectorRuns: RunCounter { get }
    /// Processes one frame; `tracking` (false in image mode) carries the regions over to the next frame.
    func process(_ frame: VisionFrame, timestampInMilliseconds: Int, tracking: Bool) throws(VisionTaskError) -> Output
}

extension VisionTaskRunner {
    /// A machine in the running mode of `options` that runs `pipeline` on each frame, tracking outside image mode.
    /// - Throws: `VisionTaskError.resultHandler` for a handler that does not fit the running mode.
    convenience init<Options: VisionTaskOptions, Pipeline: TrackingPipeline>(
        options: Options, label: String, tracking pipeline: Pipeline
    ) throws(VisionTaskError) where Options.TaskResult == Result, Pipeline.Output == Result {
        let tracking = options.runningMode != .image
        try self.init(options: options, label: label) { frame, timestamp throws(VisionTaskError) in
            try pipeline.process(frame, timestampInMilliseconds: timestamp, tracking: tracking)
        }
    }
}

extension FaceLandmarkerPipeline: TrackingPipeline {}
extension HandLandmarkPipeline: TrackingPipeline {}
extension PoseLandmarkPipeline: TrackingPipeline {}
