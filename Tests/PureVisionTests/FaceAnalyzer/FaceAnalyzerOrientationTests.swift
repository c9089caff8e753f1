import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Oriented frames in the ML Kit-shaped `FaceAnalyzer`: a portrait face stored turned, as a phone's camera buffer
/// is, with the back camera's orientation (`.right`) and the front camera's (`.leftMirrored`), which ML Kit accepts.
/// MediaPipe-shaped tasks keep refusing mirrored orientations with MediaPipe's error.
@Suite struct FaceAnalyzerOrientationTests {
    /// The upright photo and a stored buffer that `.right` shows upright (the photo turned 90° counter-clockwise).
    static func frames() throws -> (upright: PixelImage, stored: PixelImage) {
        var upright = try FaceTestImages.photo("astronaut_scale50.png")
        upright.orientation = .left
        let stored = upright.uprightImage()
        upright.orientation = .up
        return (upright, stored)
    }

    @Test func mirroredFrontCameraFramesAreAnalyzedLikeTheirUnmirroredTurn() throws {
        let analyzer = try FaceTestImages.analyzer(landmarks: true, contours: true, classify: true)
        let (upright, stored) = try Self.frames()
        var front = stored
        front.orientation = .leftMirrored
        var back = stored
        back.orientation = .right
        let fromFront = try analyzer.results(in: front)
        let fromBack = try analyzer.results(in: back)
        #expect(fromFront.count == 1)
        #expect(fromFront == fromBack)

        // Positions are in the stored pixels: the upright analysis's face frame, turned into the stored buffer
        // (upright (x, y) is stored (y, W − 1 − x) for `.right`, W the upright width: the warp addresses pixels by
        // their index, so the turn maps pixel centres), within 2% of the frame's size.
        let reference = try #require(try analyzer.results(in: upright).first)
        let face = try #require(fromFront.first)
        let uprightCenter = (
            x: reference.frame.originX + reference.frame.width / 2,
            y: reference.frame.originY + reference.frame.height / 2
        )
        let expectedCenter = (x: uprightCenter.y, y: Float(upright.width - 1) - uprightCenter.x)
        let center = (x: face.frame.originX + face.frame.width / 2, y: face.frame.originY + face.frame.height / 2)
        let tolerance = 0.02 * reference.frame.width
        #expect(
            abs(center.x - expectedCenter.x) <= tolerance && abs(center.y - expectedCenter.y) <= tolerance,
            "centre \(center), expected \(expectedCenter), upright \(uprightCenter) \(reference.frame) \(face.frame)")
        #expect(abs(face.frame.width - reference.frame.height) <= tolerance)
        #expect(abs(face.frame.height - reference.frame.width) <= tolerance)

        for (mirrored, turn) in [(ImageOrientation.upMirrored, ImageOrientation.up), (.rightMirrored, .left)] {
            var a = stored
            a.orientation = mirrored
            var b = stored
            b.orientation = turn
            #expect(try analyzer.results(in: a) == analyzer.results(in: b), "\(mirrored)")
        }
    }

    @Test func mediaPipeShapedTasksRefuseMirroredFrames() throws {
        let detector = try FaceDetector(
            options: FaceDetectorOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("face_detection_short_range.tflite"))))
        var (_, stored) = try Self.frames()
        stored.orientation = .leftMirrored
        #expect(throws: VisionTaskError.image(.mirroredOrientation(.leftMirrored))) {
            try detector.detect(image: stored)
        }
    }
}
