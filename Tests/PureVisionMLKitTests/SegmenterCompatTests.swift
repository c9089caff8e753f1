import Foundation
import PureVision
import PureVisionMLKit
import PureVisionTestSupport
import Testing

/// `PureVisionMLKit.Segmenter` gives the native `SelfieSegmenter`'s mask, read from its `CVPixelBuffer` by ML Kit's
/// guide code.
@Suite struct SegmenterCompatTests {
    static let photos = [
        "segmenter/fr_obama.png", "segmenter/skimage_astronaut.png", "segmenter/opencv_basketball1.png",
    ]

    static func options(_ mode: SegmenterMode, rawSize: Bool) -> PureVisionMLKit.SelfieSegmenterOptions {
        let options = PureVisionMLKit.SelfieSegmenterOptions()
        options.segmenterMode = mode
        options.shouldEnableRawSizeMask = rawSize
        options.modelDirectory = MLKitFixtures.modelDirectory
        return options
    }

    static func native(rawSize: Bool) throws -> SelfieSegmenter {
        try SelfieSegmenter(
            options: PureVision.SelfieSegmenterOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("selfie_segmentation.tflite")),
                shouldEnableRawSizeMask: rawSize))
    }

    /// The mask's confidences as ML Kit's guide reads them: lock, walk the rows `bytesPerRow` apart, unlock.
    static func confidences(of mask: SegmentationMask) -> (width: Int, height: Int, values: [Float]) {
        let maskWidth = CVPixelBufferGetWidth(mask.buffer)
        let maskHeight = CVPixelBufferGetHeight(mask.buffer)
        CVPixelBufferLockBaseAddress(mask.buffer, CVPixelBufferLockFlags.readOnly)
        defer { CVPixelBufferUnlockBaseAddress(mask.buffer, CVPixelBufferLockFlags.readOnly) }
        let maskBytesPerRow = CVPixelBufferGetBytesPerRow(mask.buffer)
        guard let base = CVPixelBufferGetBaseAddress(mask.buffer) else { return (maskWidth, maskHeight, []) }
        var maskAddress = base.bindMemory(to: Float32.self, capacity: maskBytesPerRow * maskHeight)
        var values: [Float] = []
        for _ in 0..<maskHeight {
            for col in 0..<maskWidth { values.append(maskAddress[col]) }
            maskAddress += maskBytesPerRow / MemoryLayout<Float32>.size
        }
        return (maskWidth, maskHeight, values)
    }

    static func expectSame(_ mask: SegmentationMask, _ native: SelfieSegmentationMask, _ what: String) {
        let read = confidences(of: mask)
        #expect(read.width == native.width && read.height == native.height, "\(what)")
        #expect(read.values == native.confidences, "\(what)")
    }

    @Test func defaultsAreMLKits() {
        let options = PureVisionMLKit.SelfieSegmenterOptions()
        #expect(options.segmenterMode == .stream && !options.shouldEnableRawSizeMask)
    }

    @Test(arguments: [false, true])
    func masksEqualTheNativeSegmenters(rawSize: Bool) throws {
        let native = try Self.native(rawSize: rawSize)
        for mode in [SegmenterMode.singleImage, .stream] {
            let segmenter = Segmenter.segmenter(options: Self.options(mode, rawSize: rawSize))
            for name in Self.photos {
                let pixels = try MLKitFixtures.pixels(name)
                let mask = try segmenter.results(in: try VisionImage(contentsOfFile: MLKitFixtures.photo(name)))
                let expected = try native.process(pixels)
                Self.expectSame(mask, expected, "\(name) \(mode)")
                #expect(CVPixelBufferGetPixelFormatType(mask.buffer) == kCVPixelFormatType_OneComponent32Float)
                #expect(
                    rawSize
                        ? (expected.width, expected.height) == (256, 256)
                        : (expected.width, expected.height) == (pixels.width, pixels.height), "\(name)")
                #expect(
                    expected.confidences.contains { $0 > 0.5 }, "\(name) shows a person: the test compares something")
            }
        }
    }

    @Test func processEqualsResults() async throws {
        let segmenter = Segmenter.segmenter(options: Self.options(.singleImage, rawSize: false))
        let name = Self.photos[0]
        let image = try VisionImage(contentsOfFile: MLKitFixtures.photo(name))
        let outcome: Processed<SegmentationMask> = await processed { segmenter.process(image, completion: $0) }
        #expect(outcome.onMainQueue && outcome.error == nil)
        let synchronous = try segmenter.results(in: image)
        #expect(outcome.output.map { Self.confidences(of: $0).values } == Self.confidences(of: synchronous).values)
        let expected = try Self.native(rawSize: false).process(try MLKitFixtures.pixels(name))
        Self.expectSame(try #require(outcome.output), expected, "process")
        Self.expectSame(try await segmenter.process(image), expected, "process async")
    }
}
