import PureVision
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An upright synthetic hand in a 400 × 200 image, given in pixels: wrist at the bottom, fingers pointing up.
/// Every pixel coordinate divides exactly into a dyadic normalized value.
let uprightHandPixels: [(x: Float, y: Float)] = [
    (200, 175),  // 0 wrist
    (175, 150), (150, 125), (150, 100), (150, 75),  // 1-4 thumb
    (175, 100), (175, 75), (175, 50), (175, 25),  // 5-8 index
    (200, 100), (200, 75), (200, 50), (200, 25),  // 9-12 middle
    (225, 100), (225, 75), (225, 50), (225, 25),  // 13-16 ring
    (250, 125), (250, 100), (250, 75), (250, 50),  // 17-20 pinky
]

/// Landmarks normalized to a 400 × 200 image from pixel positions, each moved by `transform` first.
func normalizedHand(
    _ pixels: [(x: Float, y: Float)] = uprightHandPixels,
    transform: ((x: Float, y: Float)) -> (x: Float, y: Float) = { $0 }
) -> [NormalizedLandmark] {
    pixels.map { point in
        let moved = transform(point)
        return NormalizedLandmark(x: moved.x / 400, y: moved.y / 200, z: 0)
    }
}

@Suite struct HandLandmarksToRectTests {
    @Test func uprightHandHasNoRotation() {
        // Partial set: x in [150, 250] px, y in [75, 175] px; centre (200, 125) px = (0.5, 0.625).
        let rect = HandLandmarksToRect.nextRect(landmarks: normalizedHand(), imageWidth: 400, imageHeight: 200)
        #expect(rect == NormalizedRect(xCenter: 0.5, yCenter: 0.625, width: 0.25, height: 0.5, rotation: 0))
    }

    @Test func uprightTrackingRectIsShiftedUpAndDoubled() {
        let rect = HandLandmarksToRect.trackingRect(landmarks: normalizedHand(), imageWidth: 400, imageHeight: 200)
        // Shift −0.1 of the height (0.5) upwards; square_long keeps 100 × 100 px; scale 2.
        #expect(rect.xCenter == 0.5)
        #expect(rect.yCenter == Float(0.625) + Float(0.5) * Float(-0.1))
        #expect(abs(rect.yCenter - 0.575) <= 1e-7)
        #expect(rect.width == 0.5 && rect.height == 1 && rect.rotation == 0)
    }

    @Test func quarterTurnRotatesTheRect() {
        // Turn the hand a quarter clockwise on screen about (200, 125): fingers now point right (+x).
        let turned = normalizedHand { point in (200 - (point.y - 125), 125 + (point.x - 200)) }
        let rect = HandLandmarksToRect.nextRect(landmarks: turned, imageWidth: 400, imageHeight: 200)
        #expect(rect.rotation == Float(Double.pi / 2))
        #expect(abs(rect.xCenter - 0.5) <= 1e-6 && abs(rect.yCenter - 0.625) <= 1e-6)
        #expect(abs(rect.width - 0.25) <= 1e-6 && abs(rect.height - 0.5) <= 1e-6)

        // The tracking shift goes "up" in the hand's frame, which is +x on screen: 0.1 · 100 px = 10 px = 0.025.
        let tracking = HandLandmarksToRect.trackingRect(landmarks: turned, imageWidth: 400, imageHeight: 200)
        #expect(abs(tracking.xCenter - 0.525) <= 1e-6 && abs(tracking.yCenter - 0.625) <= 1e-6)
        #expect(abs(tracking.width - 0.5) <= 1e-6 && abs(tracking.height - 1) <= 1e-6)
        #expect(tracking.rotation == rect.rotation)
    }

    @Test func maximaStartAtFloatMinimum() {
        // The hand moved a full image width to the left: every x is negative, so the first max_x stays FLT_MIN
        // and the "centre" becomes (FLT_MIN − 0.625) / 2 = −0.3125 instead of −0.5. Offsets from it are all
        // negative (−125 … −25 px), so the rotated max also stays FLT_MIN: width (0 + 125) / 400, centre
        // (−62.5 − 125) / 400.
        let shifted = normalizedHand { point in (point.x - 400, point.y) }
        let rect = HandLandmarksToRect.nextRect(landmarks: shifted, imageWidth: 400, imageHeight: 200)
        #expect(rect.xCenter == -0.46875 && rect.width == 0.3125)
        #expect(rect.yCenter == 0.625 && rect.height == 0.5 && rect.rotation == 0)
    }

    @Test func partialLandmarkSetIsAcceptedDirectly() {
        let full = normalizedHand()
        let partial = HandLandmarksToRect.partialLandmarkIndices.map { full[$0] }
        #expect(
            HandLandmarksToRect.nextRect(landmarks: partial, imageWidth: 400, imageHeight: 200)
                == HandLandmarksToRect.nextRect(landmarks: full, imageWidth: 400, imageHeight: 200))
    }

    @Test(arguments: [0, 1, 8])
    func tooFewLandmarksGiveAZeroRect(count: Int) {
        let landmarks = Array(normalizedHand().prefix(count))
        #expect(
            HandLandmarksToRect.nextRect(landmarks: landmarks, imageWidth: 400, imageHeight: 200)
                == NormalizedRect(xCenter: 0, yCenter: 0, width: 0, height: 0))
    }

    @Test func fingerTipsDoNotChangeTheRect() {
        var hand = normalizedHand()
        for tip in [4, 7, 8, 11, 12, 15, 16, 19, 20] {
            hand[tip] = NormalizedLandmark(x: 0.99, y: 0.01, z: 0)
        }
        #expect(
            HandLandmarksToRect.nextRect(landmarks: hand, imageWidth: 400, imageHeight: 200)
                == HandLandmarksToRect.nextRect(landmarks: normalizedHand(), imageWidth: 400, imageHeight: 200))
    }
}
