import Foundation
import PureVision
import PureVisionMediaPipe
import PureVisionTestSupport
import Testing

/// `PureVisionMediaPipe.ImageClassifier` gives exactly PureVision's results with MediaPipe iOS's defaults (score
/// threshold 0), a `CGRect` region of interest, and its live-stream delegate.
@Suite struct ImageClassifierCompatTests {
    static func nativeOptions(_ mode: PureVision.RunningMode = .image, maxResults: Int = 3)
        -> PureVision.ImageClassifierOptions
    {
        .init(
            baseOptions: .init(modelAssetPath: CompatFixtures.classifierModel), runningMode: mode,
            maxResults: maxResults, scoreThreshold: 0)
    }

    static func options(_ mode: PureVision.RunningMode = .image) -> PureVisionMediaPipe.ImageClassifierOptions {
        let options = PureVisionMediaPipe.ImageClassifierOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.classifierModel
        options.runningMode = mode
        options.maxResults = 3
        return options
    }

    static func expectSame(
        _ compat: PureVisionMediaPipe.ImageClassifierResult, _ native: PureVision.ImageClassifierResult,
        timestamp: Int, _ what: String
    ) {
        #expect(
            compat.timestampInMilliseconds == timestamp
                && compat.classificationResult.timestampInMilliseconds == timestamp)
        #expect(compat.classificationResult.classifications == native.classifications, "\(what)")
        #expect(compat.classificationResult.classifications.first?.categories.count == 3, "\(what): maxResults")
    }

    @Test func imageModeAndRegionOfInterestEqualNative() throws {
        let classifier = try PureVisionMediaPipe.ImageClassifier(options: Self.options())
        let native = try PureVision.ImageClassifier(options: Self.nativeOptions())
        for name in CompatFixtures.classifierPhotos {
            let path = CompatFixtures.photo(name)
            let image = try MPImage(contentsOfFile: path)
            let pixels = try PixelImage(contentsOfFile: path)
            Self.expectSame(
                try classifier.classify(image: image), try native.classify(image: pixels), timestamp: 0, name)
            let roi = CGRect(x: 0.25, y: 0.125, width: 0.5, height: 0.625)
            let nativeROI = ImageProcessingOptions(
                regionOfInterest: RectF(left: 0.25, top: 0.125, right: 0.75, bottom: 0.75))
            Self.expectSame(
                try classifier.classify(image: image, regionOfInterest: roi),
                try native.classify(image: pixels, imageProcessingOptions: nativeROI), timestamp: 0, "\(name) ROI")
        }
    }

    @Test func defaultsAreMediaPipeIOSs() {
        let options = PureVisionMediaPipe.ImageClassifierOptions()
        #expect(options.runningMode == .image && options.maxResults == -1 && options.scoreThreshold == 0)
        #expect(
            options.displayNamesLocale == "en" && options.categoryAllowlist.isEmpty && options.categoryDenylist.isEmpty)
        #expect(options.baseOptions.modelAssetPath == "" && options.baseOptions.delegate == .CPU)
    }

    @Test func videoModeEqualsNative() throws {
        let classifier = try PureVisionMediaPipe.ImageClassifier(options: Self.options(.video))
        let native = try PureVision.ImageClassifier(options: Self.nativeOptions(.video))
        for (index, name) in CompatFixtures.classifierPhotos.enumerated() {
            let path = CompatFixtures.photo(name)
            Self.expectSame(
                try classifier.classify(
                    videoFrame: try MPImage(contentsOfFile: path), timestampInMilliseconds: index * 40),
                try native.classify(
                    videoFrame: try PixelImage(contentsOfFile: path), timestampInMilliseconds: index * 40),
                timestamp: index * 40, name)
        }
    }

    final class Recorder: ImageClassifierLiveStreamDelegate, @unchecked Sendable {
        let lock = NSLock()
        var received: [(result: PureVisionMediaPipe.ImageClassifierResult?, timestamp: Int)] = []
        var count: Int { lock.withLock { received.count } }

        func imageClassifier(
            _ imageClassifier: PureVisionMediaPipe.ImageClassifier,
            didFinishClassification result: PureVisionMediaPipe.ImageClassifierResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            lock.withLock { received.append((result, timestampInMilliseconds)) }
        }
    }

    @Test func liveStreamDelegateGetsTheResults() throws {
        let recorder = Recorder()
        let options = Self.options(.liveStream)
        options.imageClassifierLiveStreamDelegate = recorder
        let classifier = try PureVisionMediaPipe.ImageClassifier(options: options)
        let native = try PureVision.ImageClassifier(options: Self.nativeOptions())
        for (index, name) in CompatFixtures.classifierPhotos.enumerated() {
            try classifier.classifyAsync(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(name)), timestampInMilliseconds: 100 + index)
            #expect(waitUntil { recorder.count == index + 1 }, "result \(index) delivered")
        }
        classifier.close()
        let received = recorder.lock.withLock { recorder.received }
        #expect(received.map(\.timestamp) == [100, 101, 102])
        for (index, name) in CompatFixtures.classifierPhotos.enumerated() where index < received.count {
            guard let result = received[index].result else {
                Issue.record("\(name): no result")
                continue
            }
            Self.expectSame(
                result, try native.classify(image: try PixelImage(contentsOfFile: CompatFixtures.photo(name))),
                timestamp: 100 + index, name)
        }
    }
}
