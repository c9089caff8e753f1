import Foundation
import PureVision
import PureVisionMediaPipe
import PureVisionTestSupport
import Testing

/// `PureVisionMediaPipe.ImageEmbedder` gives exactly PureVision's embeddings as MediaPipe's `Embedding`s (`NSNumber`
/// vectors), with a `CGRect` region of interest, in all three running modes; its cosine similarity is PureVision's.
@Suite struct ImageEmbedderCompatTests {
    static func expectSame(
        _ compat: PureVisionMediaPipe.ImageEmbedderResult, _ native: PureVision.ImageEmbedderResult, timestamp: Int,
        _ what: String
    ) {
        #expect(
            compat.timestampInMilliseconds == timestamp
                && compat.embeddingResult.timestampInMilliseconds == timestamp, "\(what)")
        let embeddings = compat.embeddingResult.embeddings
        #expect(embeddings.count == native.embeddings.count && !embeddings.isEmpty, "\(what)")
        for (embedding, expected) in zip(embeddings, native.embeddings) {
            #expect(embedding.headIndex == expected.headIndex && embedding.headName == expected.headName, "\(what)")
            #expect(embedding.floatEmbedding?.map(\.floatValue) == expected.floatEmbedding, "\(what): floats")
            #expect(embedding.quantizedEmbedding?.map(\.int8Value) == expected.quantizedEmbedding, "\(what): bytes")
        }
    }

    static func options(
        _ mode: PureVision.RunningMode, l2Normalize: Bool = false, quantize: Bool = false
    ) -> PureVisionMediaPipe.ImageEmbedderOptions {
        let options = PureVisionMediaPipe.ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.embedderModel
        options.runningMode = mode
        options.l2Normalize = l2Normalize
        options.quantize = quantize
        return options
    }

    static func nativeOptions(
        _ mode: PureVision.RunningMode, l2Normalize: Bool = false, quantize: Bool = false
    ) -> PureVision.ImageEmbedderOptions {
        .init(
            baseOptions: .init(modelAssetPath: CompatFixtures.embedderModel), runningMode: mode,
            l2Normalize: l2Normalize, quantize: quantize)
    }

    static let roi = CGRect(x: 0.25, y: 0.125, width: 0.5, height: 0.625)
    static let nativeROI = ImageProcessingOptions(
        regionOfInterest: RectF(left: 0.25, top: 0.125, right: 0.75, bottom: 0.75))

    @Test func defaultsAreMediaPipes() {
        let options = PureVisionMediaPipe.ImageEmbedderOptions()
        #expect(options.runningMode == .image && !options.l2Normalize && !options.quantize)
        #expect(options.imageEmbedderLiveStreamDelegate == nil && options.baseOptions.modelAssetPath == "")
    }

    @Test func imageModeAndRegionOfInterestEqualNative() throws {
        let embedder = try PureVisionMediaPipe.ImageEmbedder(modelPath: CompatFixtures.embedderModel)
        let native = try PureVision.ImageEmbedder(modelPath: CompatFixtures.embedderModel)
        for name in CompatFixtures.detectorPhotos {
            let path = CompatFixtures.photo(name)
            let image = try MPImage(contentsOfFile: path)
            let pixels = try PixelImage(contentsOfFile: path)
            let whole = try embedder.embed(image: image)
            Self.expectSame(whole, try native.embed(image: pixels), timestamp: 0, name)
            #expect(whole.embeddingResult.embeddings.allSatisfy { $0.quantizedEmbedding == nil }, "\(name)")
            Self.expectSame(
                try embedder.embed(image: image, regionOfInterest: Self.roi),
                try native.embed(image: pixels, imageProcessingOptions: Self.nativeROI), timestamp: 0, "\(name) ROI")
        }
    }

    @Test func quantizedAndNormalizedEqualNative() throws {
        let embedder = try PureVisionMediaPipe.ImageEmbedder(
            options: Self.options(.image, l2Normalize: true, quantize: true))
        let native = try PureVision.ImageEmbedder(
            options: Self.nativeOptions(.image, l2Normalize: true, quantize: true))
        for name in CompatFixtures.detectorPhotos {
            let path = CompatFixtures.photo(name)
            let result = try embedder.embed(image: try MPImage(contentsOfFile: path))
            Self.expectSame(result, try native.embed(image: try PixelImage(contentsOfFile: path)), timestamp: 0, name)
            #expect(
                result.embeddingResult.embeddings.allSatisfy {
                    $0.floatEmbedding == nil && $0.quantizedEmbedding != nil
                },
                "\(name)")
        }
    }

    @Test func cosineSimilarityIsPureVisions() throws {
        let floatEmbedder = try PureVisionMediaPipe.ImageEmbedder(modelPath: CompatFixtures.embedderModel)
        let quantizedEmbedder = try PureVisionMediaPipe.ImageEmbedder(options: Self.options(.image, quantize: true))
        let nativeEmbedder = try PureVision.ImageEmbedder(modelPath: CompatFixtures.embedderModel)
        let paths = CompatFixtures.detectorPhotos.prefix(2).map(CompatFixtures.photo)
        let first = try floatEmbedder.embed(image: try MPImage(contentsOfFile: paths[0]))
        let second = try floatEmbedder.embed(image: try MPImage(contentsOfFile: paths[1]))
        let (a, b) = (first.embeddingResult.embeddings[0], second.embeddingResult.embeddings[0])
        let similarity = try PureVisionMediaPipe.ImageEmbedder.cosineSimilarity(embedding1: a, embedding2: b)
        let expected = try PureVision.ImageEmbedder.cosineSimilarity(
            try nativeEmbedder.embed(image: try PixelImage(contentsOfFile: paths[0])).embeddings[0],
            try nativeEmbedder.embed(image: try PixelImage(contentsOfFile: paths[1])).embeddings[0])
        #expect(similarity.doubleValue == expected && similarity.doubleValue < 0.99)
        let itself = try PureVisionMediaPipe.ImageEmbedder.cosineSimilarity(embedding1: a, embedding2: a)
        #expect(abs(itself.doubleValue - 1) < 1e-6)
        let quantized = try quantizedEmbedder.embed(image: try MPImage(contentsOfFile: paths[0]))
        #expect(throws: CosineSimilarityError.mixedKinds, "a float and a quantized embedding") {
            try PureVisionMediaPipe.ImageEmbedder.cosineSimilarity(
                embedding1: a, embedding2: quantized.embeddingResult.embeddings[0])
        }
        let short = PureVisionMediaPipe.Embedding(
            floatEmbedding: [1, 2].map { NSNumber(value: Float($0)) }, quantizedEmbedding: nil, headIndex: 0,
            headName: nil)
        #expect(throws: CosineSimilarityError.self, "different sizes") {
            try PureVisionMediaPipe.ImageEmbedder.cosineSimilarity(embedding1: a, embedding2: short)
        }
    }

    @Test func videoModeEqualsNative() throws {
        let embedder = try PureVisionMediaPipe.ImageEmbedder(options: Self.options(.video))
        let native = try PureVision.ImageEmbedder(options: Self.nativeOptions(.video))
        for (index, name) in CompatFixtures.detectorPhotos.enumerated() {
            let path = CompatFixtures.photo(name)
            let image = try MPImage(contentsOfFile: path)
            let pixels = try PixelImage(contentsOfFile: path)
            Self.expectSame(
                try embedder.embed(videoFrame: image, timestampInMilliseconds: 2 * index),
                try native.embed(videoFrame: pixels, timestampInMilliseconds: 2 * index), timestamp: 2 * index, name)
            Self.expectSame(
                try embedder.embed(
                    videoFrame: image, timestampInMilliseconds: 2 * index + 1, regionOfInterest: Self.roi),
                try native.embed(
                    videoFrame: pixels, timestampInMilliseconds: 2 * index + 1, imageProcessingOptions: Self.nativeROI),
                timestamp: 2 * index + 1, "\(name) ROI")
        }
        #expect(throws: VisionTaskError.self, "image mode call on a video embedder") {
            try embedder.embed(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(CompatFixtures.detectorPhotos[0])))
        }
    }

    /// Collects what the delegate receives.
    final class Recorder: ImageEmbedderLiveStreamDelegate, @unchecked Sendable {
        let lock = NSLock()
        var received: [(result: PureVisionMediaPipe.ImageEmbedderResult?, timestamp: Int, error: (any Error)?)] = []
        var count: Int { lock.withLock { received.count } }

        func imageEmbedder(
            _ imageEmbedder: PureVisionMediaPipe.ImageEmbedder,
            didFinishEmbedding result: PureVisionMediaPipe.ImageEmbedderResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            lock.withLock { received.append((result, timestampInMilliseconds, error)) }
        }
    }

    @Test func liveStreamDelegateGetsTheResults() throws {
        let recorder = Recorder()
        let options = Self.options(.liveStream)
        options.imageEmbedderLiveStreamDelegate = recorder
        let embedder = try PureVisionMediaPipe.ImageEmbedder(options: options)
        let native = try PureVision.ImageEmbedder(modelPath: CompatFixtures.embedderModel)
        let paths = CompatFixtures.detectorPhotos.map(CompatFixtures.photo)
        // Each photo whole, then its region of interest, one frame at a time so that none is dropped.
        for (index, path) in paths.enumerated() {
            try embedder.embedAsync(image: try MPImage(contentsOfFile: path), timestampInMilliseconds: 2 * index)
            #expect(waitUntil { recorder.count == 2 * index + 1 }, "result \(2 * index) delivered")
            try embedder.embedAsync(
                image: try MPImage(contentsOfFile: path), timestampInMilliseconds: 2 * index + 1,
                regionOfInterest: Self.roi)
            #expect(waitUntil { recorder.count == 2 * index + 2 }, "result \(2 * index + 1) delivered")
        }
        embedder.close()
        let received = recorder.lock.withLock { recorder.received }
        #expect(received.map(\.timestamp) == Array(0..<(2 * paths.count)))
        for (index, received) in received.enumerated() {
            let pixels = try PixelImage(contentsOfFile: paths[index / 2])
            let expected =
                index.isMultiple(of: 2)
                ? try native.embed(image: pixels)
                : try native.embed(image: pixels, imageProcessingOptions: Self.nativeROI)
            #expect(received.error == nil)
            if let result = received.result {
                Self.expectSame(result, expected, timestamp: index, "frame \(index)")
            } else {
                Issue.record("frame \(index): no result")
            }
        }
    }

    @Test func delegateIsHeldWeaklyAndRequiredOnlyInLiveStream() throws {
        let options = Self.options(.image)
        var recorder: Recorder? = Recorder()
        options.imageEmbedderLiveStreamDelegate = recorder
        #expect(throws: VisionTaskError.self, "a delegate in image mode") {
            try PureVisionMediaPipe.ImageEmbedder(options: options)
        }
        recorder = nil
        #expect(options.imageEmbedderLiveStreamDelegate == nil, "the options hold the delegate weakly")
        options.runningMode = .liveStream
        #expect(throws: VisionTaskError.self, "no delegate in live-stream mode") {
            try PureVisionMediaPipe.ImageEmbedder(options: options)
        }
    }
}
