import Dispatch
import Foundation
import PureVision
import PureVisionMLKit
import PureVisionTestSupport
import Testing

/// The models, photos and helpers the ML Kit layer's tests share.
enum MLKitFixtures {
    static let modelDirectory = Fixtures.packageRoot().appendingPathComponent("Models").path

    /// A photo of the native tests' fixtures, read in place.
    static func photo(_ relativePath: String) -> String {
        Fixtures.testFile("PureVisionTests/Fixtures/" + relativePath)
    }

    /// The upright pixels of a photo, as the native task is given them.
    static func pixels(_ relativePath: String) throws -> PixelImage {
        try PixelImage(contentsOfFile: photo(relativePath))
    }

    /// A new temporary directory holding only a file named `modelFile` that is not a model; the caller removes it.
    static func garbageModelDirectory(named modelFile: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PureVisionMLKitTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("not a model".utf8).write(to: directory.appendingPathComponent(modelFile))
        return directory.path
    }

    /// A one-pixel image: too small to show anything, but valid input.
    static func onePixelImage() throws -> VisionImage {
        VisionImage(pixelImage: try PixelImage(width: 1, height: 1, format: .rgb8, pixels: [128, 128, 128]))
    }
}

/// What `process(_:completion:)` delivered, and whether it arrived on the main queue.
struct Processed<Output: Sendable>: Sendable {
    let output: Output?
    let error: String?
    let onMainQueue: Bool
}

/// Calls a detector's `process(_:completion:)` (as `start`) and waits for its completion.
func processed<Output: Sendable>(_ start: (@escaping (Output?, (any Error)?) -> Void) -> Void) async -> Processed<
    Output
> {
    // The main queue, not the main thread: under `dispatchMain()` (this test runner on Linux) the main queue runs on
    // a pool thread.
    let mainQueueKey = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    return await withCheckedContinuation { continuation in
        start { output, error in
            continuation.resume(
                returning: Processed(
                    output: output, error: error.map { "\($0)" },
                    onMainQueue: DispatchQueue.getSpecific(key: mainQueueKey) == true))
        }
    }
}
