// MediaPipe's iOS image classifier guide, in its three running modes, with one change: the import.
// Only the image loading differs from an iOS app (a file here, `MPImage(uiImage:)` there).
// Run from the repository root (Examples/run-all.sh does): the paths below are relative to it.
import Foundation
import PureVisionMediaPipe  // was: import MediaPipeTasksVision

let modelPath = "Models/efficientnet_lite0.tflite"  // an app: Bundle.main.path(forResource:ofType:)
let photos = ["skimage_chelsea.png", "skimage_coffee.png", "opencvdoc_orange.png", "gcompris_polar_bear.png"]
    .map { "Tests/PureVisionTests/Fixtures/classifier/" + $0 }

func describe(_ result: ImageClassifierResult) -> String {
    let categories = result.classificationResult.classifications.first?.categories ?? []
    return categories.map { String(format: "%@ %.2f", $0.categoryName ?? "\($0.index)", $0.score) }
        .joined(separator: ", ")
}

// MARK: Image mode

func runImageMode() throws -> Int {
    let options = ImageClassifierOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .image
    options.maxResults = 3

    let imageClassifier = try ImageClassifier(options: options)
    var classified = 0
    for path in photos {
        let image = try MPImage(contentsOfFile: path)
        let result = try imageClassifier.classify(image: image)
        print("image  \((path as NSString).lastPathComponent): \(describe(result))")
        // Only the centre of the image: a region of interest in normalized coordinates.
        let centre = try imageClassifier.classify(
            image: image, regionOfInterest: CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
        print("       centre: \(describe(centre))")
        if !(result.classificationResult.classifications.first?.categories.isEmpty ?? true) { classified += 1 }
    }
    return classified
}

// MARK: Video mode

func runVideoMode() throws -> Int {
    let options = ImageClassifierOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .video
    options.maxResults = 1
    options.scoreThreshold = 0.1

    let imageClassifier = try ImageClassifier(options: options)
    var classified = 0
    for (index, path) in photos.enumerated() {
        let image = try MPImage(contentsOfFile: path)
        let result = try imageClassifier.classify(videoFrame: image, timestampInMilliseconds: index * 40)
        print("video  @ \(result.timestampInMilliseconds) ms: \(describe(result))")
        classified += 1
    }
    return classified
}

// MARK: Live stream

class ImageClassifierResultProcessor: NSObject, ImageClassifierLiveStreamDelegate {
    let lastTimestamp: Int
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private(set) var delivered = 0

    init(lastTimestamp: Int) { self.lastTimestamp = lastTimestamp }

    func imageClassifier(
        _ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int, error: Error?
    ) {
        // Process the image classifier result or errors here (called on the classifier's queue).
        lock.withLock { delivered += 1 }
        if let result { print("stream @ \(timestampInMilliseconds) ms: \(describe(result))") }
        if let error { print("stream @ \(timestampInMilliseconds) ms: error \(error)") }
        if timestampInMilliseconds == lastTimestamp { done.signal() }
    }
}

func runLiveStreamMode() throws -> Int {
    let processor = ImageClassifierResultProcessor(lastTimestamp: (photos.count - 1) * 40)
    let options = ImageClassifierOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .liveStream
    options.maxResults = 1
    options.imageClassifierLiveStreamDelegate = processor

    let imageClassifier = try ImageClassifier(options: options)
    for (index, path) in photos.enumerated() {
        try imageClassifier.classifyAsync(image: try MPImage(contentsOfFile: path), timestampInMilliseconds: index * 40)
        Thread.sleep(forTimeInterval: 0.04)
    }
    guard processor.done.wait(timeout: .now() + 120) == .success else {
        print("stream: the last frame's result never arrived")
        return 0
    }
    print("stream: \(processor.delivered) of \(photos.count) frames delivered (the others dropped while busy)")
    return processor.delivered
}

do {
    let found = (try runImageMode(), try runVideoMode(), try runLiveStreamMode())
    guard found.0 == photos.count, found.1 == photos.count, found.2 > 0 else {
        print("MediaPipeClassifier: FAILED, missing results: \(found)")
        exit(1)
    }
    print("MediaPipeClassifier: OK")
} catch {
    print("MediaPipeClassifier: FAILED, \(error)")
    exit(1)
}
