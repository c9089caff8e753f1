import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Tracking IDs over a made-up sequence: two faces move across a black canvas, one leaves, a new one enters.
@Suite struct FaceTrackingTests {
    /// 160×160 head-and-shoulders tiles: Grace Hopper and the astronaut from the committed two-face composite, and
    /// the opencv-doc portrait from its half-size copy.
    static func tiles() throws -> (a: PixelImage, b: PixelImage, c: PixelImage) {
        let pair = try FaceTestImages.photo("composite_two_face_crops.png")  // 352×192, tiles at (8, 16), (184, 16)
        func tile(_ x: Float) -> NormalizedRect {
            NormalizedRect(xCenter: (x + 80) / 352, yCenter: 96 / 192, width: 160 / 352, height: 160 / 192)
        }
        let a = try FaceTestImages.warp(pair, rect: tile(8), width: 160, height: 160)
        let b = try FaceTestImages.warp(pair, rect: tile(184), width: 160, height: 160)
        let portrait = try FaceTestImages.photo("opencvdoc_face_scale50.png")  // 292×412, face box centre (170, 217)
        let c = try FaceTestImages.warp(
            portrait, rect: NormalizedRect(xCenter: 170 / 292, yCenter: 217 / 412, width: 266 / 292, height: 266 / 412),
            width: 160, height: 160)
        return (a, b, c)
    }

    @Test func idsSurviveMotionAndNewFacesGetNewIDs() throws {
        let (a, b, c) = try Self.tiles()
        let analyzer = try FaceTestImages.analyzer(tracking: true, runningMode: .video)
        // Per frame: where each tile is (nil = not in the frame).
        let script: [(a: Int?, b: Int, c: Int?)] = [
            (0, 240, nil), (10, 230, nil), (20, 220, nil), (nil, 210, 120), (nil, 200, 130), (nil, 190, 140),
        ]
        var idsA: [Int] = []
        var idsB: [Int] = []
        var idsC: [Int] = []
        for (index, step) in script.enumerated() {
            var tiles: [(image: PixelImage, x: Int, y: Int)] = [(b, step.b, 0)]
            if let x = step.a { tiles.append((a, x, 0)) }
            if let x = step.c { tiles.append((c, x, 160)) }
            let frame = try FaceTestImages.composite(width: 400, height: 320, tiles: tiles)
            let faces = try analyzer.results(inVideoFrame: frame, timestampInMilliseconds: 33 * index)
            #expect(faces.count == tiles.count, "frame \(index): \(faces.count) faces")
            for face in faces {
                let id = try #require(face.trackingID)
                let centreX = face.frame.originX + face.frame.width / 2
                let centreY = face.frame.originY + face.frame.height / 2
                if centreY > 160 {
                    idsC.append(id)
                } else if let x = step.a, abs(centreX - Float(x + 80)) < 60 {
                    idsA.append(id)
                } else {
                    idsB.append(id)
                }
            }
        }
        print("tracking IDs: A \(idsA), B \(idsB), C \(idsC)")
        #expect(idsA.count == 3 && Set(idsA).count == 1)
        #expect(idsB.count == 6 && Set(idsB).count == 1)
        #expect(idsC.count == 3 && Set(idsC).count == 1)
        #expect(Set(idsA + idsB + idsC).count == 3)
    }

    @Test func trackerMatchesByOverlapOnly() {
        var tracker = FaceTracker()
        let first = tracker.update([
            PixelRect(originX: 0, originY: 0, width: 100, height: 100),
            PixelRect(originX: 200, originY: 0, width: 100, height: 100),
        ])
        #expect(first == [0, 1])
        // Swapped order, small moves: same IDs; a far box: a new ID.
        let second = tracker.update([
            PixelRect(originX: 210, originY: 5, width: 100, height: 100),
            PixelRect(originX: 10, originY: 0, width: 100, height: 100),
            PixelRect(originX: 0, originY: 300, width: 100, height: 100),
        ])
        #expect(second == [1, 0, 2])
        // Tracks end when unmatched; IDs are never reused.
        #expect(tracker.update([]) == [])
        #expect(tracker.update([PixelRect(originX: 0, originY: 0, width: 100, height: 100)]) == [3])
    }
}
