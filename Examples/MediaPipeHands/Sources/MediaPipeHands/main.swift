// MediaPipe's iOS hand landmarker guide, in its three running modes, with one change: the import.
// Only the image loading differs from an iOS app (a file here, `MPImage(uiImage:)` there).
// Run from the repository root (Examples/run-all.sh does): the paths below are relative to it.
import Foundation
import PureVisionMediaPipe  // was: import MediaPipeTasksVision

// An app: Bundle.main.path(forResource: "hand_landmarker", ofType: "task")
let modelPath = "Models/hand_landmarker.task"
let photos = ["hand_src.jpg", "hand_dst.jpg", "palm_up.jpg"].map { "Tests/PureVisionTests/Fixtures/hands/" + $0 }
let frames = (0..<24).map { String(format: "Tests/PureVisionTests/Fixtures/hands/video/frame_%03d.png", $0) }

func describe(_ result: HandLandmarkerResult) -> String {
    zip(result.handedness, result.landmarks).map { handedness, landmarks in
        let tip = landmarks[8]  // index finger tip
        return String(
            format: "%@ %.2f, index tip (%.3f, %.3f)", handedness.first?.categoryName ?? "?",
            handedness.first?.score ?? 0, tip.x, tip.y)
    }.joined(separator: "; ")
}

// MARK: Image mode

func runImageMode() throws -> Int {
    let options = HandLandmarkerOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .image
    options.minHandDetectionConfidence = 0.5
    options.minHandPresenceConfidence = 0.5
    options.minTrackingConfidence = 0.5
    options.numHands = 2

    let handLandmarker = try HandLandmarker(options: options)
    var hands = 0
    for path in photos {
        let image = try MPImage(contentsOfFile: path)
        let result = try handLandmarker.detect(image: image)
        hands += result.landmarks.count
        print("image  \((path as NSString).lastPathComponent): \(result.landmarks.count) hand(s) \(describe(result))")
    }
    return hands
}

// MARK: Video mode

func runVideoMode() throws -> Int {
    let options = HandLandmarkerOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .video
    options.numHands = 1

    let handLandmarker = try HandLandmarker(options: options)
    var hands = 0
    for (index, path) in frames.enumerated() {
        let image = try MPImage(contentsOfFile: path)
        let result = try handLandmarker.detect(videoFrame: image, timestampInMilliseconds: index * 33)
        hands += result.landmarks.count
        if index % 8 == 0 { print("video  frame \(index) @ \(result.timestampInMilliseconds) ms: \(describe(result))") }
    }
    return hands
}

// MARK: Live stream

class HandLandmarkerResultProcessor: NSObject, HandLandmarkerLiveStreamDelegate {
    let lastTimestamp: Int
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private(set) var delivered = 0

    init(lastTimestamp: Int) { self.lastTimestamp = lastTimestamp }

    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: Error?
    ) {
        // Process the hand landmarker result or errors here (called on the landmarker's queue).
        lock.withLock { delivered += 1 }
        if let result { print("stream @ \(timestampInMilliseconds) ms: \(describe(result))") }
        if let error { print("stream @ \(timestampInMilliseconds) ms: error \(error)") }
        if timestampInMilliseconds == lastTimestamp { done.signal() }
    }
}

func runLiveStreamMode() throws -> Int {
    let processor = HandLandmarkerResultProcessor(lastTimestamp: (frames.count - 1) * 33)
    let options = HandLandmarkerOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .liveStream
    options.numHands = 1
    options.handLandmarkerLiveStreamDelegate = processor

    let handLandmarker = try HandLandmarker(options: options)
    // A camera would call this from its capture callback; frames arriving while the landmarker is busy are dropped
    // and not reported, as in MediaPipe.
    for (index, path) in frames.enumerated() {
        try handLandmarker.detectAsync(image: try MPImage(contentsOfFile: path), timestampInMilliseconds: index * 33)
        Thread.sleep(forTimeInterval: 0.033)
    }
    guard processor.done.wait(timeout: .now() + 120) == .success else {
        print("stream: the last frame's result never arrived")
        return 0
    }
    print("stream: \(processor.delivered) of \(frames.count) frames delivered (the others dropped while busy)")
    return processor.delivered
}

do {
    let found = (try runImageMode(), try runVideoMode(), try runLiveStreamMode())
    guard found.0 > 0, found.1 > 0, found.2 > 0 else {
        print("MediaPipeHands: FAILED, no hands found in one of the modes: \(found)")
        exit(1)
    }
    print("MediaPipeHands: OK")
} catch {
    print("MediaPipeHands: FAILED, \(error)")
    exit(1)
}
