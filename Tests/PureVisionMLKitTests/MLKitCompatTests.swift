import Dispatch
import Foundation
import PureVision
import PureVisionMLKit
import PureVisionTestSupport
import Testing

/// `PureVisionMLKit` (ML Kit and Firebase ML Vision face detection) gives exactly `FaceAnalyzer`'s faces, on the
/// upright image its orientation describes, with ML Kit's `has…` / value pairs.
@Suite struct MLKitCompatTests {
    static let modelDirectory = Fixtures.packageRoot().appendingPathComponent("Models").path
    static let photos = ["faces/grace_hopper.jpg", "faces/astronaut.png", "faces/composite_two_faces.png"]

    static func photo(_ name: String) -> String { Fixtures.testFile("PureVisionTests/Fixtures/" + name) }

    /// Every output on: landmarks, contours, classification, accurate detector.
    static func allOptions() -> PureVisionMLKit.FaceDetectorOptions {
        let options = PureVisionMLKit.FaceDetectorOptions()
        options.performanceMode = .accurate
        options.landmarkMode = .all
        options.contourMode = .all
        options.classificationMode = .all
        options.modelDirectory = modelDirectory
        return options
    }

    static func native(_ options: PureVisionMLKit.FaceDetectorOptions) throws -> FaceAnalyzer {
        try FaceAnalyzer(
            options: FaceAnalyzerOptions(
                modelDirectory: modelDirectory, performanceMode: options.performanceMode,
                landmarkMode: options.landmarkMode, contourMode: options.contourMode,
                classificationMode: options.classificationMode, minFaceSize: Float(options.minFaceSize),
                isTrackingEnabled: options.isTrackingEnabled))
    }

    static func expectSame(_ faces: [PureVisionMLKit.Face], _ expected: [PureVision.Face], _ what: String) {
        #expect(faces.count == expected.count, "\(what)")
        for (face, native) in zip(faces, expected) {
            #expect(face.native == native, "\(what): wraps the native face")
            #expect(
                face.frame.origin.x == CGFloat(native.frame.originX) && face.frame.width == CGFloat(native.frame.width))
            #expect(
                face.frame.origin.y == CGFloat(native.frame.originY)
                    && face.frame.height == CGFloat(native.frame.height))
            #expect(face.hasHeadEulerAngleY == (native.headEulerAngleY != nil))
            #expect(face.headEulerAngleY == CGFloat(native.headEulerAngleY ?? 0))
            #expect(face.headEulerAngleX == CGFloat(native.headEulerAngleX ?? 0))
            #expect(face.headEulerAngleZ == CGFloat(native.headEulerAngleZ ?? 0))
            #expect(face.hasSmilingProbability == (native.smilingProbability != nil))
            #expect(face.smilingProbability == CGFloat(native.smilingProbability ?? 0))
            #expect(face.leftEyeOpenProbability == CGFloat(native.leftEyeOpenProbability ?? 0))
            #expect(face.rightEyeOpenProbability == CGFloat(native.rightEyeOpenProbability ?? 0))
            #expect(face.hasTrackingID == (native.trackingID != nil) && face.trackingID == (native.trackingID ?? 0))
            for type in FaceLandmarkType.allCases {
                let point = face.landmark(ofType: type)?.position
                let nativePoint = native.landmark(ofType: type)?.position
                #expect(point?.x == nativePoint.map { CGFloat($0.x) } && point?.y == nativePoint.map { CGFloat($0.y) })
            }
            for type in FaceContourType.allCases {
                let points = face.contour(ofType: type)?.points.map { [$0.x, $0.y] }
                let nativePoints = native.contour(ofType: type)?.points.map { [CGFloat($0.x), CGFloat($0.y)] }
                #expect(points == nativePoints, "\(what): contour \(type)")
            }
        }
    }

    @Test func resultsEqualFaceAnalyzer() throws {
        let options = Self.allOptions()
        let detector = PureVisionMLKit.FaceDetector.faceDetector(options: options)
        let native = try Self.native(options)
        var faces = 0
        for name in Self.photos {
            let path = Self.photo(name)
            let result = try detector.results(in: try VisionImage(contentsOfFile: path))
            Self.expectSame(result, try native.results(in: try PixelImage(contentsOfFile: path)), name)
            faces += result.count
            #expect(result.allSatisfy { $0.hasHeadEulerAngleX && $0.hasSmilingProbability && $0.landmarks.count > 0 })
            #expect(result.allSatisfy { $0.contours.count == 15 })
        }
        #expect(faces >= Self.photos.count, "the photos show faces: the test compares something")
    }

    @Test func defaultsReportNoExtras() throws {
        let options = PureVisionMLKit.FaceDetectorOptions()
        #expect(options.performanceMode == .fast && options.landmarkMode == .none && options.contourMode == .none)
        #expect(options.classificationMode == .none && options.minFaceSize == 0.1 && !options.isTrackingEnabled)
        options.modelDirectory = Self.modelDirectory
        let faces = try PureVisionMLKit.FaceDetector.faceDetector(options: options).results(
            in: try VisionImage(contentsOfFile: Self.photo("faces/grace_hopper.jpg")))
        #expect(faces.count == 1)
        #expect(faces.allSatisfy { !$0.hasSmilingProbability && $0.smilingProbability == 0 && $0.landmarks.isEmpty })
        #expect(faces.allSatisfy { $0.contours.isEmpty && !$0.hasTrackingID })
    }

    @Test func orientationIsAppliedBeforeAnalysis() throws {
        let options = Self.allOptions()
        let detector = PureVisionMLKit.FaceDetector.faceDetector(options: options)
        let native = try Self.native(options)
        let stored = try PixelImage(contentsOfFile: Self.photo("faces/grace_hopper.jpg"))
        for orientation in [ImageOrientation.right, .left, .down] {
            let image = VisionImage(pixelImage: stored)
            image.orientation = orientation
            var turned = stored
            turned.orientation = orientation
            Self.expectSame(
                try detector.results(in: image), try native.results(in: try turned.applyingOrientation()),
                "\(orientation)")
        }
    }

    /// The stored image transposed (row r becomes column r): what `.leftMirrored` (EXIF 5) displays.
    static func transposed(_ image: PixelImage) throws -> PixelImage {
        let c = image.format.channelCount
        var out = [UInt8](repeating: 0, count: image.width * image.height * c)
        image.withUnsafePixels { pixels in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    for k in 0..<c { out[(x * image.height + y) * c + k] = pixels[y * image.bytesPerRow + x * c + k] }
                }
            }
        }
        return try PixelImage(width: image.height, height: image.width, format: image.format, pixels: out)
    }

    @Test func mirroredOrientationsAreSupported() throws {
        let options = Self.allOptions()
        let detector = PureVisionMLKit.FaceDetector.faceDetector(options: options)
        let native = try Self.native(options)
        let stored = try PixelImage(contentsOfFile: Self.photo("faces/grace_hopper.jpg"))
        let image = VisionImage(pixelImage: stored)
        image.orientation = .leftMirrored
        Self.expectSame(
            try detector.results(in: image), try native.results(in: try Self.transposed(stored)), "leftMirrored")
        // Firebase's metadata names the same orientation EXIF-style.
        let firebaseImage = VisionImage(pixelImage: stored)
        let metadata = VisionImageMetadata()
        metadata.orientation = .leftTop
        firebaseImage.metadata = metadata
        #expect(firebaseImage.orientation == .leftMirrored)
        let firebaseFaces = try Vision.vision().faceDetector(options: options).results(in: firebaseImage)
        Self.expectSame(firebaseFaces, try native.results(in: try Self.transposed(stored)), "Firebase leftTop")
    }

    @Test func processCompletesOnTheMainQueue() async throws {
        let options = Self.allOptions()
        let detector: VisionFaceDetector = Vision.vision().faceDetector(options: options)
        let path = Self.photo("faces/astronaut.png")
        let image = try VisionImage(contentsOfFile: path)
        // The main queue, not the main thread: under `dispatchMain()` (as in this test runner on Linux) the main queue
        // runs on a pool thread.
        let mainQueueKey = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
        let outcome: (faces: [VisionFace]?, error: String?, onMain: Bool) = await withCheckedContinuation {
            continuation in
            detector.process(image) { faces, error in
                continuation.resume(
                    returning: (faces, error.map { "\($0)" }, DispatchQueue.getSpecific(key: mainQueueKey) == true))
            }
        }
        #expect(outcome.onMain, "ML Kit calls the completion on the main queue")
        #expect(outcome.error == nil)
        Self.expectSame(
            outcome.faces ?? [], try Self.native(options).results(in: try PixelImage(contentsOfFile: path)), "process")
        let awaited = try await detector.process(image)
        Self.expectSame(
            awaited, try Self.native(options).results(in: try PixelImage(contentsOfFile: path)), "process async")
    }

    @Test func missingModelsAreReportedByTheCalls() async throws {
        let options = PureVisionMLKit.FaceDetectorOptions()
        options.modelDirectory = Self.modelDirectory + "/does-not-exist"
        let detector = PureVisionMLKit.FaceDetector.faceDetector(options: options)
        let image = try VisionImage(contentsOfFile: Self.photo("faces/grace_hopper.jpg"))
        #expect(throws: VisionTaskError.self) { try detector.results(in: image) }
        let outcome: (faces: [PureVisionMLKit.Face]?, failed: Bool) = await withCheckedContinuation { continuation in
            detector.process(image) { faces, error in continuation.resume(returning: (faces, error != nil)) }
        }
        #expect(outcome.faces == nil && outcome.failed)
    }

    @Test func trackingIDsFollowAFaceAcrossCalls() throws {
        let options = PureVisionMLKit.FaceDetectorOptions()
        options.modelDirectory = Self.modelDirectory
        options.isTrackingEnabled = true
        let detector = PureVisionMLKit.FaceDetector.faceDetector(options: options)
        let image = try VisionImage(contentsOfFile: Self.photo("faces/grace_hopper.jpg"))
        let first = try detector.results(in: image)
        let second = try detector.results(in: image)
        #expect(first.count == 1 && second.count == 1)
        #expect(first.first?.hasTrackingID == true && first.first?.trackingID == second.first?.trackingID)
    }
}
