import PureVision
import PureVisionTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct DetectionDecoderTests {
    /// One box, XYWH with one keypoint; values chosen so every step is exact in float.
    @Test func decodesOneBoxByHand() throws {
        let options = DetectionDecoderOptions(
            numClasses: 1, numBoxes: 1, numCoords: 6, keypointCoordOffset: 4, numKeypoints: 1,
            xScale: 4, yScale: 8, wScale: 2, hScale: 4, reverseOutputOrder: true, sigmoidScore: true
        )
        let anchor = SSDAnchor(xCenter: 0.5, yCenter: 0.25, width: 0.5, height: 1)
        let detections = try decode([1, -2, 1, 2, 2, 4], scores: [0], anchors: [anchor], options: options)
        // xc = 1/4·0.5 + 0.5 = 0.625, yc = −2/8·1 + 0.25 = 0, w = 1/2·0.5 = 0.25, h = 2/4·1 = 0.5.
        #expect(
            detections == [
                NormalizedDetection(
                    score: 0.5, classID: 0, xMin: 0.5, yMin: -0.25, width: 0.25, height: 0.5,
                    keypoints: [Keypoint(x: 2 / 4 * 0.5 + 0.5, y: 4 / 8 * 1 + 0.25)]
                )
            ])
    }

    @Test func yxhwOrderAndFlip() throws {
        let options = DetectionDecoderOptions(
            numClasses: 1, numBoxes: 1, numCoords: 6, keypointCoordOffset: 4, numKeypoints: 1,
            xScale: 1, yScale: 1, wScale: 1, hScale: 1, flipVertically: true
        )
        let anchor = SSDAnchor(xCenter: 0, yCenter: 0, width: 1, height: 1)
        // YXHW: yc 0.25, xc 0.5, h 0.5, w 0.25; keypoint [y, x] = [0.125, 0.75].
        let detections = try decode(
            [0.25, 0.5, 0.5, 0.25, 0.125, 0.75], scores: [3], anchors: [anchor],
            options: options)
        let detection = try #require(detections.first)
        #expect(detection.score == 3)
        #expect(detection.xMin == 0.375 && detection.width == 0.25)
        #expect(detection.yMin == 1 - 0.5 && detection.height == 0.5)
        #expect(detection.keypoints == [Keypoint(x: 0.75, y: 1 - 0.125)])
    }

    @Test func exponentialSizes() throws {
        let options = DetectionDecoderOptions(
            numClasses: 1, numBoxes: 1, numCoords: 4, xScale: 1, yScale: 1, wScale: 2, hScale: 2,
            applyExponentialOnBoxSize: true
        )
        let anchor = SSDAnchor(xCenter: 0.5, yCenter: 0.5, width: 0.25, height: 0.5)
        let detection = try #require(try decode([0, 0, 0, 0], scores: [1], anchors: [anchor], options: options).first)
        #expect(detection.width == 0.25 && detection.height == 0.5)
        #expect(detection.xMin == 0.375 && detection.yMin == 0.25)
    }

    @Test func scoreClippingSigmoidAndThreshold() throws {
        var options = DetectionDecoderOptions(
            numClasses: 2, numBoxes: 4, numCoords: 4, xScale: 1, yScale: 1, wScale: 1, hScale: 1,
            sigmoidScore: true, scoreClippingThresh: 2
        )
        let anchors = Array(repeating: SSDAnchor(xCenter: 0, yCenter: 0, width: 1, height: 1), count: 4)
        let boxes = [Float](repeating: 0.5, count: 16)
        let scores: [Float] = [-5, 50, 0, 0, 1, -1, .nan, .nan]
        let all = try decode(boxes, scores: scores, anchors: anchors, options: options)
        #expect(all.map(\.classID) == [1, 0, 0, -1])
        #expect(all[0].score == 1 / (1 + expf(-2)))
        #expect(all[1].score == 0.5)
        #expect(all[2].score == 1 / (1 + expf(-1)))
        #expect(all[3].score == -.greatestFiniteMagnitude)
        options.minScoreThresh = 0.5
        let kept = try decode(boxes, scores: scores, anchors: anchors, options: options)
        #expect(kept.map(\.score) == [all[0].score, 0.5, all[2].score], "a score equal to the threshold is kept")
        options.maxResults = 2
        #expect(try decode(boxes, scores: scores, anchors: anchors, options: options).count == 2)
    }

    @Test func dropsNegativeAndNaNSizes() throws {
        let options = DetectionDecoderOptions(
            numClasses: 1, numBoxes: 4, numCoords: 4, xScale: 1, yScale: 1, wScale: 1, hScale: 1
        )
        let anchors = Array(repeating: SSDAnchor(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1), count: 4)
        let boxes: [Float] = [0, 0, 0.1, 0.1, 0, 0, -0.1, 0.1, 0, 0, 0.1, .nan, 0, 0, 0, 0]
        let detections = try decode(boxes, scores: [1, 1, 1, 1], anchors: anchors, options: options)
        #expect(detections.count == 2)
        #expect(detections.last?.width == 0 && detections.last?.height == 0, "zero-size boxes are kept")
    }

    @Test func rejectsInconsistentInput() {
        let options = DetectionDecoderOptions.palmDetection192
        let anchors = Array(repeating: SSDAnchor(xCenter: 0, yCenter: 0, width: 1, height: 1), count: 2016)
        #expect(throws: DetectionError.tensorTooSmall(tensor: "boxes", required: 2016 * 18, actual: 10)) {
            try decode(
                [Float](repeating: 0, count: 10), scores: [Float](repeating: 0, count: 2016),
                anchors: anchors, options: options)
        }
        #expect(throws: DetectionError.tensorTooSmall(tensor: "scores", required: 2016, actual: 1)) {
            try decode([Float](repeating: 0, count: 2016 * 18), scores: [0], anchors: anchors, options: options)
        }
        #expect(throws: DetectionError.anchorCountMismatch(required: 2016, actual: 3)) {
            try decode(
                [Float](repeating: 0, count: 2016 * 18), scores: [Float](repeating: 0, count: 2016),
                anchors: Array(anchors.prefix(3)), options: options)
        }
        var bad = options
        bad.numCoords = 17
        #expect(throws: DetectionError.self) { try decode([], scores: [], anchors: [], options: bad) }
        bad = options
        bad.keypointCoordOffset = 6
        #expect(throws: DetectionError.self) { try decode([], scores: [], anchors: [], options: bad) }
        bad = options
        bad.numBoxes = Int.max
        #expect(throws: DetectionError.self) { try decode([], scores: [], anchors: [], options: bad) }
    }

    @Test(arguments: [
        (SSDAnchorOptions.palmDetection192, DetectionDecoderOptions.palmDetection192, 2016, 18),
        (SSDAnchorOptions.faceShortRange128, DetectionDecoderOptions.faceShortRange128, 896, 16),
        (SSDAnchorOptions.faceFullRange192, DetectionDecoderOptions.faceFullRange192, 2304, 16),
    ])
    func presetsAgree(anchors: SSDAnchorOptions, decoder: DetectionDecoderOptions, boxes: Int, coords: Int) throws {
        #expect(try SSDAnchors.generate(anchors).count == decoder.numBoxes)
        #expect(decoder.numBoxes == boxes && decoder.numCoords == coords)
    }

    /// The vectorized best-class search against its reference twin, the scan MediaPipe runs (start at −FLT_MAX with
    /// class −1, replace on strictly greater): rows of 1 to 37 classes with ties, NaN, ±0, ±∞ and −FLT_MAX.
    @Test func firstBestClassEqualsTheScan() {
        var random = SplitMix64(seed: 3)
        let specials: [Float] = [.nan, 0, -0.0, .infinity, -.infinity, -.greatestFiniteMagnitude, 0.5, 0.5]
        var checked = 0
        for count in 1...37 {
            for _ in 0..<200 {
                let row: [Float] = (0..<count).map { _ in
                    Int.random(in: 0..<3, using: &random) == 0
                        ? specials.randomElement(using: &random) ?? 0 : Float.random(in: -1...1, using: &random)
                }
                var expected = (classID: -1, score: -Float.greatestFiniteMagnitude)
                for (index, score) in row.enumerated() where expected.score < score { expected = (index, score) }
                let found = row.withUnsafeBufferPointer {
                    DetectionDecoder.firstBestClass($0.baseAddress!, count: count)
                }
                #expect(found.classID == expected.classID, "\(row)")
                #expect(found.score.bitPattern == expected.score.bitPattern, "\(row)")
                checked += 1
            }
        }
        #expect(checked == 37 * 200)
    }
}

func decode(
    _ boxes: [Float], scores: [Float], anchors: [SSDAnchor], options: DetectionDecoderOptions
) throws(DetectionError) -> [NormalizedDetection] {
    try boxes.withUnsafeBufferPointer { (boxBuffer) throws(DetectionError) in
        try scores.withUnsafeBufferPointer { (scoreBuffer) throws(DetectionError) in
            try DetectionDecoder.decode(rawBoxes: boxBuffer, rawScores: scoreBuffer, anchors: anchors, options: options)
        }
    }
}
