import Foundation
import PureVision
import PureVisionMediaPipe
import PureVisionTestSupport
import Testing

/// `PureVisionMediaPipe.ImageSegmenter` gives exactly PureVision's masks as MediaPipe's `Mask`s, and its
/// live-stream delegate.
@Suite struct ImageSegmenterCompatTests {
    static let model = Fixtures.model("deeplab_v3.tflite")
    static let photos = ["segmenter/fr_obama.png", "classifier/skimage_chelsea.png"]

    static func expectSame(
        _ compat: PureVisionMediaPipe.ImageSegmenterResult, _ native: PureVision.ImageSegmenterResult, timestamp: Int,
        _ what: String
    ) {
        #expect(compat.timestampInMilliseconds == timestamp, "\(what)")
        #expect(compat.qualityScores?.map(\.floatValue) == native.qualityScores, "\(what)")
        #expect(compat.confidenceMasks?.count == native.confidenceMasks?.count, "\(what)")
        for (mask, expected) in zip(compat.confidenceMasks ?? [], native.confidenceMasks ?? []) {
            #expect(mask.dataType == .float32 && mask.width == expected.width && mask.height == expected.height)
            let values = Array(UnsafeBufferPointer(start: mask.float32Data, count: mask.width * mask.height))
            #expect(values == expected.values, "\(what): confidence mask")
        }
        #expect((compat.categoryMask == nil) == (native.categoryMask == nil), "\(what)")
        if let mask = compat.categoryMask, let expected = native.categoryMask {
            #expect(mask.dataType == .uInt8 && mask.width == expected.width && mask.height == expected.height)
            let values = Array(UnsafeBufferPointer(start: mask.uint8Data, count: mask.width * mask.height))
            #expect(values == expected.values, "\(what): category mask")
            let asFloats = Array(UnsafeBufferPointer(start: mask.float32Data, count: mask.width * mask.height))
            #expect(asFloats == expected.values.map { Float($0) / 255 }, "\(what): MediaPipe's byte-to-float view")
        }
    }

    @Test func imageModeEqualsNative() throws {
        let options = PureVisionMediaPipe.ImageSegmenterOptions()
        #expect(options.shouldOutputConfidenceMasks && !options.shouldOutputCategoryMask)
        options.baseOptions.modelAssetPath = Self.model
        options.shouldOutputCategoryMask = true
        let segmenter = try PureVisionMediaPipe.ImageSegmenter(options: options)
        let native = try PureVision.ImageSegmenter(
            options: .init(baseOptions: .init(modelAssetPath: Self.model), outputCategoryMask: true))
        #expect(segmenter.labels == native.labels && segmenter.labels.count == 21)
        for name in Self.photos {
            let path = Fixtures.testFile("PureVisionTests/Fixtures/" + name)
            Self.expectSame(
                try segmenter.segment(image: try MPImage(contentsOfFile: path)),
                try native.segment(image: try PixelImage(contentsOfFile: path)), timestamp: 0, name)
        }
    }

    final class Recorder: ImageSegmenterLiveStreamDelegate, @unchecked Sendable {
        let lock = NSLock()
        var received: [(result: PureVisionMediaPipe.ImageSegmenterResult?, timestamp: Int)] = []
        var count: Int { lock.withLock { received.count } }

        func imageSegmenter(
            _ imageSegmenter: PureVisionMediaPipe.ImageSegmenter,
            didFinishSegmentation result: PureVisionMediaPipe.ImageSegmenterResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            lock.withLock { received.append((result, timestampInMilliseconds)) }
        }
    }

    @Test func liveStreamDelegateGetsTheResults() throws {
        let recorder = Recorder()
        let options = PureVisionMediaPipe.ImageSegmenterOptions()
        options.baseOptions.modelAssetPath = Self.model
        options.runningMode = .liveStream
        options.imageSegmenterLiveStreamDelegate = recorder
        let segmenter = try PureVisionMediaPipe.ImageSegmenter(options: options)
        let native = try PureVision.ImageSegmenter(modelPath: Self.model)
        for (index, name) in Self.photos.enumerated() {
            let path = Fixtures.testFile("PureVisionTests/Fixtures/" + name)
            try segmenter.segmentAsync(image: try MPImage(contentsOfFile: path), timestampInMilliseconds: 10 * index)
            #expect(waitUntil { recorder.count == index + 1 }, "result \(index) delivered")
        }
        segmenter.close()
        let received = recorder.lock.withLock { recorder.received }
        #expect(received.map(\.timestamp) == [0, 10])
        for (index, name) in Self.photos.enumerated() where index < received.count {
            guard let result = received[index].result else {
                Issue.record("\(name): no result")
                continue
            }
            let path = Fixtures.testFile("PureVisionTests/Fixtures/" + name)
            Self.expectSame(
                result, try native.segment(image: try PixelImage(contentsOfFile: path)), timestamp: 10 * index, name)
        }
    }
}
