import PureVision
import PureVisionImage
import Testing

@Suite struct ImageProcessingOptionsTests {
    struct InvalidCase: Sendable, CustomTestStringConvertible {
        var options: ImageProcessingOptions
        var roiAllowed = true
        var error: PreprocessingError
        var message: String
        var testDescription: String { message + " \(options)" }
    }

    static let unordered = RectF(left: 0.6, top: 0.1, right: 0.6, bottom: 0.5)
    static let flipped = RectF(left: 0.1, top: 0.7, right: 0.6, bottom: 0.5)
    static let outside = RectF(left: -0.1, top: 0.1, right: 0.6, bottom: 0.5)
    static let tooFar = RectF(left: 0.1, top: 0.1, right: 0.6, bottom: 1.5)
    static let notANumber = RectF(left: .nan, top: 0.1, right: 0.6, bottom: 0.5)
    static let valid = RectF(left: 0.1, top: 0.2, right: 0.6, bottom: 0.9)

    @Test(arguments: [
        InvalidCase(
            options: ImageProcessingOptions(rotationDegrees: 45), error: .rotationNotMultipleOf90(degrees: 45),
            message: "Expected rotation to be a multiple of 90°."),
        InvalidCase(
            options: ImageProcessingOptions(rotationDegrees: -100), error: .rotationNotMultipleOf90(degrees: -100),
            message: "Expected rotation to be a multiple of 90°."),
        InvalidCase(
            options: ImageProcessingOptions(regionOfInterest: unordered), error: .regionOfInterestNotOrdered(unordered),
            message: "Expected RectF with left < right and top < bottom."),
        InvalidCase(
            options: ImageProcessingOptions(regionOfInterest: flipped), error: .regionOfInterestNotOrdered(flipped),
            message: "Expected RectF with left < right and top < bottom."),
        InvalidCase(
            options: ImageProcessingOptions(regionOfInterest: outside), error: .regionOfInterestOutOfRange(outside),
            message: "Expected RectF values to be in [0,1]."),
        InvalidCase(
            options: ImageProcessingOptions(regionOfInterest: tooFar), error: .regionOfInterestOutOfRange(tooFar),
            message: "Expected RectF values to be in [0,1]."),
        InvalidCase(
            options: ImageProcessingOptions(regionOfInterest: notANumber),
            error: .regionOfInterestOutOfRange(notANumber), message: "Expected RectF values to be in [0,1]."),
        InvalidCase(
            options: ImageProcessingOptions(regionOfInterest: valid), roiAllowed: false,
            error: .regionOfInterestNotSupported, message: "This task doesn't support region-of-interest."),
    ])
    func invalidOptionsThrowMediaPipesErrors(_ c: InvalidCase) {
        // Compared by message: a NaN edge makes the payloads unequal to themselves.
        let validation = #expect(throws: PreprocessingError.self) { try c.options.validate(roiAllowed: c.roiAllowed) }
        #expect(validation?.description == c.message)
        let conversion = #expect(throws: PreprocessingError.self) {
            try c.options.normalizedRect(imageWidth: 10, imageHeight: 10, roiAllowed: c.roiAllowed)
        }
        #expect(conversion?.description == c.message)
        #expect(c.error.description == c.message)
    }

    @Test func defaultsCoverTheWholeImage() throws {
        let rect = try ImageProcessingOptions().normalizedRect(imageWidth: 640, imageHeight: 480)
        #expect(rect == NormalizedRect.fullImage)
        #expect(rect.rotation == 0)
    }

    @Test func regionOfInterestGivesCentreAndSize() throws {
        let rect = try ImageProcessingOptions(regionOfInterest: Self.valid)
            .normalizedRect(imageWidth: 64, imageHeight: 32)
        #expect(rect.xCenter == Float((Double(Float(0.1)) + Double(Float(0.6))) / 2))
        #expect(rect.yCenter == Float((Double(Float(0.2)) + Double(Float(0.9))) / 2))
        #expect(rect.width == Float(Double(Float(0.6)) - Double(Float(0.1))))
        #expect(rect.height == Float(Double(Float(0.9)) - Double(Float(0.2))))
        #expect(rect.rotation == 0)
    }

    @Test(arguments: [90, -90, 270, -270, 450])
    func quarterTurnsSwapAndRescaleTheSize(_ degrees: Int) throws {
        let roi = RectF(left: 0, top: 0, right: 0.5, bottom: 0.25)
        let rect = try ImageProcessingOptions(regionOfInterest: roi, rotationDegrees: degrees)
            .normalizedRect(imageWidth: 400, imageHeight: 200)
        // w' = h·H/W = 0.25·200/400, h' = w·W/H = 0.5·400/200.
        #expect(rect.width == 0.125)
        #expect(rect.height == 1)
        #expect(rect.rotation == Float(Double(-degrees) * Double.pi / 180))
    }

    @Test(arguments: [0, 180, -180, 360])
    func halfTurnsKeepTheSize(_ degrees: Int) throws {
        let rect = try ImageProcessingOptions(rotationDegrees: degrees)
            .normalizedRect(imageWidth: 400, imageHeight: 200)
        #expect(rect.width == 1 && rect.height == 1)
        #expect(rect.rotation == Float(Double(-degrees) * Double.pi / 180))
    }

    @Test(arguments: [
        (ImageOrientation.up, 0), (.right, -270), (.down, -180), (.left, -90),
    ])
    func orientationsUseMediaPipeIOSDegrees(_ orientation: ImageOrientation, _ degrees: Int) throws {
        #expect(try orientation.rotationDegrees() == degrees)
        let rect = try ImageProcessingOptions()
            .normalizedRect(imageWidth: 300, imageHeight: 100, orientation: orientation)
        #expect(rect.rotation == Float(Double(degrees) * Double.pi / -180))
        let swapped = degrees % 180 != 0
        #expect(rect.width == (swapped ? Float(1.0 / 3) : 1))
        #expect(rect.height == (swapped ? 3 : 1))
    }

    @Test func orientationAddsToRotationDegrees() throws {
        // .left (−90) plus 90° clockwise is no turn at all.
        let rect = try ImageProcessingOptions(rotationDegrees: 90)
            .normalizedRect(imageWidth: 300, imageHeight: 100, orientation: .left)
        #expect(rect == NormalizedRect.fullImage)
    }

    @Test(arguments: [ImageOrientation.upMirrored, .downMirrored, .leftMirrored, .rightMirrored])
    func mirroredOrientationsAreRejected(_ orientation: ImageOrientation) {
        #expect(throws: PreprocessingError.mirroredOrientation(orientation)) { try orientation.rotationDegrees() }
        #expect(throws: PreprocessingError.mirroredOrientation(orientation)) {
            try ImageProcessingOptions().normalizedRect(imageWidth: 8, imageHeight: 8, orientation: orientation)
        }
    }
}
