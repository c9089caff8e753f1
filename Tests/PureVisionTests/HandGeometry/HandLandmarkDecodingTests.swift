import PureVision
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private let noLetterbox: (left: Float, top: Float, right: Float, bottom: Float) = (0, 0, 0, 0)

private func screen(
    _ raw: [Float], letterbox: (left: Float, top: Float, right: Float, bottom: Float) = noLetterbox,
    rect: NormalizedRect = .fullImage
) -> [NormalizedLandmark] {
    raw.withUnsafeBufferPointer { buffer in
        HandLandmarkDecoding.screenLandmarks(
            raw: buffer, inputWidth: 224, inputHeight: 224, letterbox: letterbox, rect: rect)
    }
}

@Suite struct HandLandmarkDecodingTests {
    @Test func fullImageRectScalesByTheInputSize() {
        let landmarks = screen([0, 0, 0, 112, 56, 0, 224, 168, 0])
        #expect(landmarks.map(\.x) == [0, 0.5, 1])
        #expect(landmarks.map(\.y) == [0, 0.25, 0.75])
    }

    @Test func depthIsScaledLikeXThenDividedByPointFour() {
        let landmarks = screen([0, 0, 44.8, 0, 0, -89.6])
        #expect(landmarks.map(\.z) == [Float(44.8) / 224 / Float(0.4), Float(-89.6) / 224 / Float(0.4)])
        #expect(abs(landmarks[0].z - 0.5) <= 1e-7 && abs(landmarks[1].z + 1) <= 1e-7)
    }

    @Test func letterboxIsRemoved() {
        // Left and right pads of a quarter each: tensor x 0.25 → 0, 0.75 → 1; z doubles (1 − 0.5 = 0.5).
        let landmarks = screen([56, 112, 44.8, 168, 0, 0], letterbox: (0.25, 0, 0.25, 0))
        #expect(landmarks.map(\.x) == [0, 1])
        #expect(landmarks.map(\.y) == [0.5, 0])
        #expect(landmarks[0].z == Float(44.8) / 224 / Float(0.4) / 0.5)
    }

    @Test func verticalLetterboxUsesTopAndBottom() {
        let landmarks = screen([112, 28, 0, 112, 196, 0], letterbox: (0, 0.125, 0, 0.125))
        #expect(landmarks.map(\.y) == [0, 1])
        #expect(landmarks.map(\.x) == [0.5, 0.5])
    }

    @Test func unrotatedRectPlacesTheCrop() {
        // Crop corners (0, 0) and (1, 1) land on the rect's corners; z scales by the rect's width.
        let rect = NormalizedRect(xCenter: 0.25, yCenter: 0.75, width: 0.5, height: 0.25)
        let landmarks = screen([0, 0, 89.6, 224, 224, 0], rect: rect)
        #expect(landmarks[0].x == 0 && landmarks[0].y == 0.625)
        #expect(landmarks[1].x == 0.5 && landmarks[1].y == 0.875)
        #expect(landmarks[0].z == Float(89.6) / 224 / Float(0.4) * 0.5)
    }

    @Test func quarterTurnRectRotatesAboutItsCentre() {
        // Rotation +π/2: the crop's top centre lands on the rect's right, its left centre on the rect's top.
        let rect = NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.5, height: 0.5, rotation: Float.pi / 2)
        let landmarks = screen([112, 0, 0, 0, 112, 0], rect: rect)
        #expect(abs(landmarks[0].x - 0.75) <= 1e-6 && abs(landmarks[0].y - 0.5) <= 1e-6)
        #expect(abs(landmarks[1].x - 0.5) <= 1e-6 && abs(landmarks[1].y - 0.25) <= 1e-6)
    }

    @Test func projectionFollowsTheFloatOrder() {
        let rect = NormalizedRect(xCenter: 0.3, yCenter: 0.6, width: 0.4, height: 0.3, rotation: 0.7)
        let landmark = screen([50, 170, 10], rect: rect)[0]
        let x = Float(50) / 224 - 0.5
        let y = Float(170) / 224 - 0.5
        #expect(landmark.x == (cosf(0.7) * x - sinf(0.7) * y) * 0.4 + 0.3)
        #expect(landmark.y == (sinf(0.7) * x + cosf(0.7) * y) * 0.3 + 0.6)
        #expect(landmark.z == Float(10) / 224 / Float(0.4) * 0.4)
    }

    @Test(arguments: [(63, 21), (64, 21), (65, 21), (66, 22), (2, 0), (0, 0)])
    func landmarkCountIsWholeTriples(floats: Int, landmarks: Int) {
        let raw = [Float](repeating: 1, count: floats)
        #expect(screen(raw).count == landmarks)
        let world = raw.withUnsafeBufferPointer { HandLandmarkDecoding.worldLandmarks(raw: $0, rect: .fullImage) }
        #expect(world.count == landmarks)
    }
}

@Suite struct WorldLandmarkProjectionTests {
    private func world(_ raw: [Float], rotation: Float) -> [Landmark] {
        let rect = NormalizedRect(xCenter: 0.2, yCenter: 0.9, width: 0.3, height: 0.1, rotation: rotation)
        return raw.withUnsafeBufferPointer { HandLandmarkDecoding.worldLandmarks(raw: $0, rect: rect) }
    }

    @Test func noRotationKeepsMetres() {
        #expect(world([0.01, -0.02, 0.03], rotation: 0) == [Landmark(x: 0.01, y: -0.02, z: 0.03)])
    }

    @Test func quarterTurnRotatesXYOnly() {
        let landmarks = world([0.05, 0, 0.01, 0, 0.05, -0.02], rotation: Float.pi / 2)
        #expect(abs(landmarks[0].x) <= 1e-8 && abs(landmarks[0].y - 0.05) <= 1e-8 && landmarks[0].z == 0.01)
        #expect(abs(landmarks[1].x + 0.05) <= 1e-8 && abs(landmarks[1].y) <= 1e-8 && landmarks[1].z == -0.02)
    }

    @Test func rotationUsesFloatCosineAndSine() {
        let landmark = world([0.03, 0.04, 0.05], rotation: -2.5)[0]
        #expect(landmark.x == cosf(-2.5) * 0.03 - sinf(-2.5) * 0.04)
        #expect(landmark.y == sinf(-2.5) * 0.03 + cosf(-2.5) * 0.04)
        #expect(landmark.z == 0.05)
    }
}

@Suite struct HandednessTests {
    @Test(arguments: [Float(0.9), 0.75, 0.5000001, 0.5, 1])
    func rightWhenTheRawScoreIsAtLeastHalf(raw: Float) {
        let result = HandLandmarkDecoding.handedness(raw: raw)
        #expect(result.index == 0 && result.categoryName == "Right" && result.score == raw)
    }

    @Test(arguments: [Float(0.1), 0.25, 0.4999999, 0])
    func leftWithTheComplementBelowHalf(raw: Float) {
        let result = HandLandmarkDecoding.handedness(raw: raw)
        #expect(result.index == 1 && result.categoryName == "Left")
        #expect(result.score == Float(1.0 - Double(raw)))
        #expect(result.score > 0.5)
    }
}
