import Foundation
import PureVision
import PureVisionMLKit
import PureVisionTestSupport
import Testing

/// Bad input to the ML Kit layer's detectors is reported as ML Kit reports it, never a crash: creating a detector
/// always succeeds, and `results(in:)` throws / `process(_:completion:)` completes on the main queue with the error.
@Suite struct MLKitBadInputTests {
    /// One of the layer's detectors, by its two calls, made with the model directory `directory`.
    struct Detector: Sendable, CustomTestStringConvertible {
        let name: String
        let modelFile: String
        let make: @Sendable (_ directory: String) -> Calls
        var testDescription: String { name }
    }

    /// A detector's calls, with the output reduced to its count.
    struct Calls: Sendable {
        let results: @Sendable (VisionImage) throws -> Int
        let process: @Sendable (VisionImage) async -> Processed<Int>
        let awaited: @Sendable (VisionImage) async throws -> Int
    }

    static func calls<Output: Sendable>(
        results: @escaping @Sendable (VisionImage) throws -> Output,
        process: @escaping @Sendable (VisionImage, @escaping (Output?, (any Error)?) -> Void) -> Void,
        awaited: @escaping @Sendable (VisionImage) async throws -> Output, count: @escaping @Sendable (Output) -> Int
    ) -> Calls {
        Calls(
            results: { try count(results($0)) },
            process: { image in
                let outcome: Processed<Output> = await processed { process(image, $0) }
                return Processed(
                    output: outcome.output.map(count), error: outcome.error, onMainQueue: outcome.onMainQueue)
            },
            awaited: { try await count(awaited($0)) })
    }

    static let detectors: [Detector] = [
        Detector(name: "PoseDetector", modelFile: "pose_landmarker_full.task") { directory in
            let options = PoseDetectorOptions()
            options.detectorMode = .singleImage
            options.modelDirectory = directory
            let detector = PoseDetector.poseDetector(options: options)
            return calls(
                results: detector.results(in:), process: detector.process(_:completion:),
                awaited: detector.process(_:), count: \.count)
        },
        Detector(name: "Segmenter", modelFile: "selfie_segmentation.tflite") { directory in
            let options = PureVisionMLKit.SelfieSegmenterOptions()
            options.modelDirectory = directory
            let segmenter = Segmenter.segmenter(options: options)
            return calls(
                results: segmenter.results(in:), process: segmenter.process(_:completion:),
                awaited: segmenter.process(_:),
                count: { CVPixelBufferGetWidth($0.buffer) * CVPixelBufferGetHeight($0.buffer) })
        },
        Detector(name: "ImageLabeler", modelFile: "efficientnet_lite0.tflite") { directory in
            let options = ImageLabelerOptions()
            options.modelDirectory = directory
            let labeler = ImageLabeler.imageLabeler(options: options)
            return calls(
                results: labeler.results(in:), process: labeler.process(_:completion:), awaited: labeler.process(_:),
                count: \.count)
        },
        Detector(name: "ObjectDetector", modelFile: "efficientdet_lite0.tflite") { directory in
            let options = PureVisionMLKit.ObjectDetectorOptions()
            options.modelDirectory = directory
            let detector = PureVisionMLKit.ObjectDetector.objectDetector(options: options)
            return calls(
                results: detector.results(in:), process: detector.process(_:completion:),
                awaited: detector.process(_:), count: \.count)
        },
    ]

    static func photo() throws -> VisionImage {
        try VisionImage(contentsOfFile: MLKitFixtures.photo("pose/obama_scale50.png"))
    }

    @Test(arguments: detectors)
    func missingModelIsAnError(_ detector: Detector) async throws {
        let calls = detector.make(MLKitFixtures.modelDirectory + "/does-not-exist")
        let image = try Self.photo()
        #expect(throws: VisionTaskError.self) { try calls.results(image) }
        do {
            _ = try calls.results(image)
        } catch {
            #expect(error.localizedDescription.contains(detector.modelFile), "the message names the file")
        }
        let outcome = await calls.process(image)
        #expect(outcome.output == nil && outcome.error != nil && outcome.onMainQueue)
        await #expect(throws: VisionTaskError.self) { try await calls.awaited(image) }
    }

    @Test(arguments: detectors)
    func garbageModelIsAnError(_ detector: Detector) async throws {
        let directory = try MLKitFixtures.garbageModelDirectory(named: detector.modelFile)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let calls = detector.make(directory)
        let image = try Self.photo()
        #expect(throws: VisionTaskError.self) { try calls.results(image) }
        #expect(throws: VisionTaskError.self, "the failure is kept: a second call reports it too") {
            try calls.results(image)
        }
        let outcome = await calls.process(image)
        #expect(outcome.output == nil && outcome.error != nil && outcome.onMainQueue)
    }

    @Test(arguments: detectors)
    func tinyImageIsAnsweredNotCrashedOn(_ detector: Detector) async throws {
        let calls = detector.make(MLKitFixtures.modelDirectory)
        let image = try MLKitFixtures.onePixelImage()
        let count = try calls.results(image)
        if detector.name == "Segmenter" { #expect(count == 1, "the mask has the image's one pixel") }
        let outcome = await calls.process(image)
        #expect(outcome.output == count && outcome.error == nil && outcome.onMainQueue)
        #expect(try await calls.awaited(image) == count)
    }

    @Test func unreadableImageFileIsAnError() throws {
        let empty = FileManager.default.temporaryDirectory
            .appendingPathComponent("PureVisionMLKit-empty-\(UUID().uuidString).png")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: ImageError.self) { try VisionImage(contentsOfFile: empty.path) }
        #expect(throws: ImageError.self) { try VisionImage(contentsOfFile: empty.path + ".missing") }
    }
}
