import PureVision
import PureVisionCore
import PureVisionTestSupport
import Testing

/// Anchors, decoding and both NMS algorithms against MediaPipe 0.10.14's own calculators on seeded synthetic
/// tensors (`tools/make_anchor_goldens.py`): every field must match bit for bit, including the order of the
/// many tied scores (1.0 after the sigmoid), which exercises `std::sort`'s tie order past 16 elements.
@Suite struct MediaPipeGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var anchors: SSDAnchorOptions
        var scale: Float
        var minScore: Float
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "palm192", anchors: .palmDetection192, scale: 192, minScore: 0.5),
        Case(name: "face_short128", anchors: .faceShortRange128, scale: 128, minScore: 0.5),
        Case(name: "face_full192", anchors: .faceFullRange192, scale: 192, minScore: 0.5),
        Case(name: "custom_ssd", anchors: customOptions, scale: 64, minScore: 0.6),
    ]

    @Test(arguments: cases)
    func decodeAndSuppressMatchMediaPipe(_ testCase: Case) throws {
        let directory = "PureVisionTests/Fixtures/detection/\(testCase.name)/"
        func load(_ file: String) throws -> [Float] {
            try Fixtures.numpy(atPath: Fixtures.testFile(directory + file)).floats
        }
        let anchors = try SSDAnchors.generate(testCase.anchors)
        let rawBoxes = try load("boxes_u8.npy").map { $0 - 128 }
        let rawScores = try load("scores_u8.npy").map { $0 - 128 }
        let options = DetectionDecoderOptions(
            numClasses: 1, numBoxes: anchors.count, numCoords: 4,
            xScale: testCase.scale, yScale: testCase.scale, wScale: testCase.scale, hScale: testCase.scale,
            reverseOutputOrder: true, sigmoidScore: true, scoreClippingThresh: 100, minScoreThresh: testCase.minScore
        )
        let decoded = try decode(rawBoxes, scores: rawScores, anchors: anchors, options: options)
        expectRows(decoded, try load("decoded.npy"), "decoded")
        let nms = NonMaxSuppressionOptions(
            algorithm: .weighted, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3,
            returnEmptyDetections: true
        )
        expectRows(NonMaxSuppression.suppress(decoded, options: nms) ?? [], try load("nms_weighted.npy"), "weighted")
        var greedy = nms
        greedy.algorithm = .default
        expectRows(NonMaxSuppression.suppress(decoded, options: greedy) ?? [], try load("nms_default.npy"), "default")
    }

    private func expectRows(
        _ detections: [NormalizedDetection], _ golden: [Float], _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(golden.count == detections.count * 6, "\(label): count", sourceLocation: sourceLocation)
        guard golden.count == detections.count * 6 else { return }
        for (i, d) in detections.enumerated() {
            let ours: [Float] = [d.score, Float(d.classID), d.xMin, d.yMin, d.width, d.height]
            let theirs = Array(golden[(6 * i)..<(6 * i + 6)])
            #expect(
                ours.map(\.bitPattern) == theirs.map(\.bitPattern), "\(label) row \(i): \(ours) vs \(theirs)",
                sourceLocation: sourceLocation)
        }
    }
}
