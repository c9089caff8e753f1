import Foundation
import PureVision
import PureVisionMediaPipe
import PureVisionTestSupport
import Testing

/// `PureVisionMediaPipe.ObjectDetector` gives PureVision's detections as MediaPipe's `Detection` (a `CGRect` box in
/// pixels; a labelled category's index −1, as MediaPipe reports it), in all three running modes, with MediaPipe's
/// defaults and option checks.
@Suite struct ObjectDetectorCompatTests {
    static func expectSame(
        _ compat: PureVisionMediaPipe.ObjectDetectorResult, _ native: PureVision.ObjectDetectorResult,
        timestamp: Int, _ what: String
    ) {
        #expect(compat.timestampInMilliseconds == timestamp, "\(what)")
        #expect(compat.detections.count == native.detections.count, "\(what)")
        for (detection, expected) in zip(compat.detections, native.detections) {
            let box = expected.boundingBox
            #expect(
                detection.boundingBox
                    == CGRect(x: box.originX, y: box.originY, width: box.width, height: box.height), "\(what)")
            #expect(detection.keypoints == nil, "\(what): EfficientDet has no keypoints")
            #expect(detection.categories.count == expected.categories.count, "\(what)")
            for (category, nativeCategory) in zip(detection.categories, expected.categories) {
                #expect(nativeCategory.categoryName != nil, "\(what): the model has labels")
                #expect(category.index == -1, "\(what): MediaPipe replaces the index by the label")
                #expect(
                    category.score == nativeCategory.score && category.categoryName == nativeCategory.categoryName
                        && category.displayName == nativeCategory.displayName, "\(what)")
            }
        }
    }

    static func options(_ mode: PureVision.RunningMode) -> PureVisionMediaPipe.ObjectDetectorOptions {
        let options = PureVisionMediaPipe.ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.objectDetectorModel
        options.runningMode = mode
        return options
    }

    static func nativeOptions(
        _ mode: PureVision.RunningMode, maxResults: Int = -1, scoreThreshold: Float = 0,
        categoryAllowlist: [String] = []
    ) -> PureVision.ObjectDetectorOptions {
        .init(
            baseOptions: .init(modelAssetPath: CompatFixtures.objectDetectorModel), runningMode: mode,
            maxResults: maxResults, scoreThreshold: scoreThreshold, categoryAllowlist: categoryAllowlist)
    }

    @Test func defaultsAreMediaPipes() {
        let options = PureVisionMediaPipe.ObjectDetectorOptions()
        #expect(options.runningMode == .image && options.maxResults == -1 && options.scoreThreshold == 0)
        #expect(
            options.displayNamesLocale == "en" && options.categoryAllowlist.isEmpty && options.categoryDenylist.isEmpty)
        #expect(options.objectDetectorLiveStreamDelegate == nil && options.baseOptions.modelAssetPath == "")
    }

    @Test func imageModeEqualsNative() throws {
        let detector = try PureVisionMediaPipe.ObjectDetector(modelPath: CompatFixtures.objectDetectorModel)
        let native = try PureVision.ObjectDetector(modelPath: CompatFixtures.objectDetectorModel)
        var found = 0
        for name in CompatFixtures.detectorPhotos {
            let path = CompatFixtures.photo(name)
            let result = try detector.detect(image: try MPImage(contentsOfFile: path))
            Self.expectSame(result, try native.detect(image: try PixelImage(contentsOfFile: path)), timestamp: 0, name)
            found += result.detections.count
        }
        #expect(found >= CompatFixtures.detectorPhotos.count, "the photos show objects: the test compares something")
    }

    @Test func optionsReachTheDetector() throws {
        let options = Self.options(.image)
        options.maxResults = 2
        options.scoreThreshold = 0.3
        options.categoryAllowlist = ["person", "cup"]
        let detector = try PureVisionMediaPipe.ObjectDetector(options: options)
        let native = try PureVision.ObjectDetector(
            options: Self.nativeOptions(
                .image, maxResults: 2, scoreThreshold: 0.3, categoryAllowlist: ["person", "cup"]))
        for name in CompatFixtures.detectorPhotos {
            let path = CompatFixtures.photo(name)
            let result = try detector.detect(image: try MPImage(contentsOfFile: path))
            Self.expectSame(result, try native.detect(image: try PixelImage(contentsOfFile: path)), timestamp: 0, name)
            #expect(result.detections.count <= 2, "\(name): maxResults")
            #expect(
                result.detections.flatMap(\.categories).allSatisfy {
                    $0.score >= 0.3 && ["person", "cup"].contains($0.categoryName ?? "")
                }, "\(name): threshold and allowlist")
        }
        options.maxResults = 0
        #expect(throws: VisionTaskError.self, "maxResults 0") {
            try PureVisionMediaPipe.ObjectDetector(options: options)
        }
        options.maxResults = -1
        options.categoryDenylist = ["dog"]
        #expect(throws: VisionTaskError.self, "an allowlist and a denylist") {
            try PureVisionMediaPipe.ObjectDetector(options: options)
        }
    }

    @Test func videoModeEqualsNative() throws {
        let detector = try PureVisionMediaPipe.ObjectDetector(options: Self.options(.video))
        let native = try PureVision.ObjectDetector(options: Self.nativeOptions(.video))
        for (index, name) in CompatFixtures.detectorPhotos.enumerated() {
            let path = CompatFixtures.photo(name)
            Self.expectSame(
                try detector.detect(videoFrame: try MPImage(contentsOfFile: path), timestampInMilliseconds: index * 40),
                try native.detect(
                    videoFrame: try PixelImage(contentsOfFile: path), timestampInMilliseconds: index * 40),
                timestamp: index * 40, name)
        }
        #expect(throws: VisionTaskError.self, "image mode call on a video detector") {
            try detector.detect(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(CompatFixtures.detectorPhotos[0])))
        }
    }

    /// Collects what the delegate receives.
    final class Recorder: ObjectDetectorLiveStreamDelegate, @unchecked Sendable {
        let lock = NSLock()
        var received: [(result: PureVisionMediaPipe.ObjectDetectorResult?, timestamp: Int, error: (any Error)?)] = []
        var count: Int { lock.withLock { received.count } }

        func objectDetector(
            _ objectDetector: PureVisionMediaPipe.ObjectDetector,
            didFinishDetection result: PureVisionMediaPipe.ObjectDetectorResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            lock.withLock { received.append((result, timestampInMilliseconds, error)) }
        }
    }

    @Test func liveStreamDelegateGetsTheResults() throws {
        let recorder = Recorder()
        let options = Self.options(.liveStream)
        options.objectDetectorLiveStreamDelegate = recorder
        let detector = try PureVisionMediaPipe.ObjectDetector(options: options)
        let native = try PureVision.ObjectDetector(modelPath: CompatFixtures.objectDetectorModel)
        for (index, name) in CompatFixtures.detectorPhotos.enumerated() {
            try detector.detectAsync(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(name)), timestampInMilliseconds: 5 + index)
            #expect(waitUntil { recorder.count == index + 1 }, "result \(index) delivered")
        }
        detector.close()
        let received = recorder.lock.withLock { recorder.received }
        #expect(received.map(\.timestamp) == [5, 6, 7])
        for (index, name) in CompatFixtures.detectorPhotos.enumerated() where index < received.count {
            #expect(received[index].error == nil)
            guard let result = received[index].result else {
                Issue.record("\(name): no result")
                continue
            }
            Self.expectSame(
                result, try native.detect(image: try PixelImage(contentsOfFile: CompatFixtures.photo(name))),
                timestamp: 5 + index, name)
        }
    }

    @Test func delegateIsHeldWeaklyAndRequiredOnlyInLiveStream() throws {
        let options = Self.options(.image)
        var recorder: Recorder? = Recorder()
        options.objectDetectorLiveStreamDelegate = recorder
        #expect(throws: VisionTaskError.self, "a delegate in image mode") {
            try PureVisionMediaPipe.ObjectDetector(options: options)
        }
        recorder = nil
        #expect(options.objectDetectorLiveStreamDelegate == nil, "the options hold the delegate weakly")
        options.runningMode = .liveStream
        #expect(throws: VisionTaskError.self, "no delegate in live-stream mode") {
            try PureVisionMediaPipe.ObjectDetector(options: options)
        }
    }
}
