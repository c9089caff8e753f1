import PureVision
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct DetectionProjectionTests {
    @Test func identityKeepsDetections() throws {
        let identity: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let detection = NormalizedDetection(
            score: 0.5, xMin: 0.25, yMin: 0.5, width: 0.25, height: 0.125,
            keypoints: [Keypoint(x: 0.3, y: 0.6)])
        #expect(try DetectionProjection.project([detection], matrix: identity) == [detection])
    }

    @Test func rotationBy90DegreesSwapsAxes() throws {
        // x' = −y + 1, y' = x: a quarter turn of the unit square onto itself.
        let matrix: [Float] = [0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let detection = NormalizedDetection(
            score: 1, xMin: 0.25, yMin: 0.5, width: 0.5, height: 0.25,
            keypoints: [Keypoint(x: 0.25, y: 0.5)])
        let projected = try #require(try DetectionProjection.project([detection], matrix: matrix).first)
        #expect(projected.keypoints == [Keypoint(x: 0.5, y: 0.25)])
        #expect(projected.xMin == 0.25 && projected.yMin == 0.25)
        #expect(projected.width == 0.25 && projected.height == 0.5)
    }

    @Test func rotationBy45DegreesTakesBounds() throws {
        let c = Float(0.5).squareRoot()
        let matrix: [Float] = [c, -c, 0, 0, c, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let detection = NormalizedDetection(score: 1, xMin: 0, yMin: 0, width: 1, height: 1)
        let projected = try #require(try DetectionProjection.project([detection], matrix: matrix).first)
        // Corners (0,0), (c,c), (0,2c), (−c,c): bounds x ∈ [−c, c], y ∈ [0, 2c].
        #expect(projected.xMin == 1 * -c + 0 && projected.width == c - (-c))
        #expect(projected.yMin == 0 && projected.height == (c + c) - 0)
    }

    @Test func rejectsWrongMatrixSize() {
        #expect(throws: DetectionError.invalidMatrix(count: 9)) {
            try DetectionProjection.project([], matrix: [Float](repeating: 0, count: 9))
        }
    }
}

@Suite struct DetectionsToRectsTests {
    @Test(arguments: [
        (Float(0), Float(0)), (Float.pi, Float.pi), (Float(4), Float(4 - 2 * Double.pi)),
        (-Float.pi, -Float.pi), (Float(7), Float(7) - 2 * Float.pi),
        (Float(90), Float(90 - 28 * Double.pi)),
    ])
    func normalizeRadians(_ angle: Float, _ expected: Float) {
        let result = DetectionsToRects.normalizeRadians(angle)
        #expect(abs(result - expected) <= 4e-6)
        let a = Double(angle)
        #expect(result == Float(a - 2 * Double.pi * ((a + Double.pi) / (2 * Double.pi)).rounded(.down)))
    }

    @Test func palmRotationUsesNinetyRadians() throws {
        // Wrist below the middle-finger MCP in a 200×100 image: the vector points straight up (atan2 = π/2).
        let detection = NormalizedDetection(
            score: 1, xMin: 0.2, yMin: 0.2, width: 0.4, height: 0.6,
            keypoints: [
                Keypoint(x: 0.5, y: 0.8), Keypoint(x: 0, y: 0),
                Keypoint(x: 0.5, y: 0.3),
            ])
        let rect = try DetectionsToRects.rect(
            of: detection, rotationVector: .palmDetection,
            imageWidth: 200, imageHeight: 100)
        #expect(rect.xCenter == 0.2 + 0.4 / 2 && rect.yCenter == 0.2 + 0.6 / 2)
        #expect(rect.width == 0.4 && rect.height == 0.6)
        let expected = DetectionsToRects.normalizeRadians(90 - atan2f(-(30 - 80), 100 - 100))
        #expect(rect.rotation == expected)
        #expect(abs(rect.rotation - Float(90 - Double.pi / 2 - 28 * Double.pi)) < 1e-5)
        let upright = try DetectionsToRects.rotation(
            of: detection, rotationVector: .degrees(startKeypointIndex: 0, endKeypointIndex: 2, targetAngle: 90),
            imageWidth: 200, imageHeight: 100)
        #expect(abs(upright) < 1e-6)
    }

    @Test func missingKeypointThrows() {
        let detection = NormalizedDetection(
            score: 1, xMin: 0, yMin: 0, width: 1, height: 1, keypoints: [Keypoint(x: 0, y: 0)])
        #expect(throws: DetectionError.keypointIndexOutOfRange(index: 2, keypointCount: 1)) {
            try DetectionsToRects.rects(
                of: [detection], rotationVector: .palmDetection, imageWidth: 10, imageHeight: 10)
        }
        #expect(throws: Never.self) {
            try DetectionsToRects.rects(of: [detection], rotationVector: nil, imageWidth: 10, imageHeight: 10)
        }
    }
}

@Suite struct RectTransformationTests {
    @Test func unrotatedShiftAndSquareLong() {
        let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.5)
        let result = RectTransformation.transform(
            rect, imageWidth: 400, imageHeight: 200, scaleX: 2, scaleY: 3,
            shiftX: 0.5, shiftY: -0.5, squareLong: true)
        #expect(result.xCenter == 0.5 + 0.2 * 0.5 && result.yCenter == 0.5 + 0.5 * -0.5)
        // Long side max(0.2·400, 0.5·200) = 100 px → w = 100/400, h = 100/200, then scaled.
        #expect(result.width == 0.25 * 2 && result.height == 0.5 * 3)
        #expect(result.rotation == 0)
    }

    @Test func rotatedShiftFollowsTheRectsAxes() {
        let rotation = Float.pi / 2
        let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.4, rotation: rotation)
        let result = RectTransformation.transform(
            rect, imageWidth: 100, imageHeight: 50, scaleX: 2.6, scaleY: 2.6,
            shiftY: -0.5, squareLong: true)
        let w: Float = 100
        let h: Float = 50
        let xShift = (w * 0.2 * 0 * cosf(rotation) - h * 0.4 * -0.5 * sinf(rotation)) / w
        let yShift = (w * 0.2 * 0 * sinf(rotation) + h * 0.4 * -0.5 * cosf(rotation)) / h
        #expect(result.xCenter == 0.5 + xShift && result.yCenter == 0.5 + yShift)
        #expect(abs(result.xCenter - 0.6) < 1e-6, "shifting 'up' in the rect moves right in the image")
        #expect(result.width == 20 / w * 2.6 && result.height == 20 / h * 2.6)
        #expect(result.rotation == rotation)
    }

    @Test func squareShort() {
        let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.5)
        let result = RectTransformation.transform(rect, imageWidth: 400, imageHeight: 200, squareShort: true)
        #expect(result.width == 0.2 && result.height == 0.4)
    }
}
