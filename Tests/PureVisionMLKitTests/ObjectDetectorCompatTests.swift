import Foundation
import PureVision
import PureVisionMLKit
import PureVisionTestSupport
import Testing

/// `PureVisionMLKit.ObjectDetector` gives the native `ObjectDetector`'s detections (EfficientDet-Lite0, COCO labels)
/// scoring at least 0.3, at most five (one without `shouldEnableMultipleObjects`), and tracking IDs in stream mode.
@Suite struct ObjectDetectorCompatTests {
    static let photos = ["detector/opencv_basketball1.png", "detector/skimage_coffee.png", "detector/fr_obama.png"]

    static func options(
        _ mode: ObjectDetectorMode, multiple: Bool = true, classification: Bool = true
    ) -> PureVisionMLKit.ObjectDetectorOptions {
        let options = PureVisionMLKit.ObjectDetectorOptions()
        options.detectorMode = mode
        options.shouldEnableMultipleObjects = multiple
        options.shouldEnableClassification = classification
        options.modelDirectory = MLKitFixtures.modelDirectory
        return options
    }

    static func native(maxResults: Int) throws -> PureVision.ObjectDetector {
        try PureVision.ObjectDetector(
            options: PureVision.ObjectDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("efficientdet_lite0.tflite")),
                maxResults: maxResults, scoreThreshold: 0.3))
    }

    /// The native result with five objects, from a synchronous context (an async one would pick the async overload).
    static func nativeResult(_ image: PixelImage) throws -> ObjectDetectorResult {
        try native(maxResults: 5).detect(image: image)
    }

    static func expectSame(_ objects: [Object], _ native: ObjectDetectorResult, labelled: Bool, _ what: String) {
        #expect(objects.count == native.detections.count, "\(what)")
        for (object, detection) in zip(objects, native.detections) {
            let box = detection.boundingBox
            #expect(
                object.frame
                    == CGRect(
                        x: CGFloat(box.originX), y: CGFloat(box.originY), width: CGFloat(box.width),
                        height: CGFloat(box.height)), "\(what)")
            let expected = labelled ? detection.categories : []
            #expect(object.labels.map(\.text) == expected.map { $0.displayName ?? $0.categoryName ?? "" }, "\(what)")
            #expect(object.labels.map(\.confidence) == expected.map(\.score))
            #expect(object.labels.map(\.index) == expected.map(\.index))
        }
    }

    @Test func defaultsAreMLKits() {
        let options = PureVisionMLKit.ObjectDetectorOptions()
        #expect(options.detectorMode == .stream && !options.shouldEnableMultipleObjects)
        #expect(!options.shouldEnableClassification)
    }

    @Test func singleImageEqualsTheNativeDetector() throws {
        let multiple = try Self.native(maxResults: 5)
        let single = try Self.native(maxResults: 1)
        var found = 0
        for (isMultiple, classification) in [(true, true), (false, true), (true, false)] {
            let detector = PureVisionMLKit.ObjectDetector.objectDetector(
                options: Self.options(.singleImage, multiple: isMultiple, classification: classification))
            for name in Self.photos {
                let objects = try detector.results(in: try VisionImage(contentsOfFile: MLKitFixtures.photo(name)))
                let expected = try (isMultiple ? multiple : single).detect(image: try MLKitFixtures.pixels(name))
                Self.expectSame(objects, expected, labelled: classification, name)
                #expect(objects.allSatisfy { $0.trackingID == nil }, "single-image mode does not track")
                #expect(objects.allSatisfy { $0.labels.allSatisfy { $0.confidence >= 0.3 } })
                found += objects.count
            }
        }
        #expect(found > 2 * Self.photos.count, "the photos show objects: the test compares something")
    }

    @Test func streamKeepsTrackingIDs() throws {
        let detector = PureVisionMLKit.ObjectDetector.objectDetector(options: Self.options(.stream))
        let native = try Self.native(maxResults: 5)
        let first = try VisionImage(contentsOfFile: MLKitFixtures.photo(Self.photos[0]))
        let frame1 = try detector.results(in: first)
        let frame2 = try detector.results(in: first)
        Self.expectSame(frame2, try native.detect(image: try MLKitFixtures.pixels(Self.photos[0])), labelled: true, "")
        let ids1 = frame1.compactMap { $0.trackingID?.intValue }
        #expect(ids1.count == frame1.count && frame1.count >= 2, "every object has an ID")
        #expect(Set(ids1).count == ids1.count, "IDs are distinct within a frame")
        #expect(frame2.compactMap { $0.trackingID?.intValue } == ids1, "the same objects keep their IDs")
        // A different photo: no object overlaps an earlier one, so all IDs are new.
        let frame3 = try detector.results(in: try VisionImage(contentsOfFile: MLKitFixtures.photo(Self.photos[1])))
        let ids3 = frame3.compactMap { $0.trackingID?.intValue }
        #expect(!ids3.isEmpty && ids3.allSatisfy { $0 > (ids1.max() ?? 0) })
    }

    @Test func processEqualsResults() async throws {
        let detector = PureVisionMLKit.ObjectDetector.objectDetector(options: Self.options(.singleImage))
        let name = Self.photos[0]
        let image = try VisionImage(contentsOfFile: MLKitFixtures.photo(name))
        let outcome: Processed<[Object]> = await processed { detector.process(image, completion: $0) }
        #expect(outcome.onMainQueue && outcome.error == nil)
        Self.expectSame(
            outcome.output ?? [], try Self.nativeResult(try MLKitFixtures.pixels(name)), labelled: true, "process")
        #expect(outcome.output?.isEmpty == false)
        Self.expectSame(
            try await detector.process(image), try Self.nativeResult(try MLKitFixtures.pixels(name)), labelled: true,
            "process async")
    }
}
