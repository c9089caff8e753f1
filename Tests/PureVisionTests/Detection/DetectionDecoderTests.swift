import PureVision
import PureVisionKernels
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

    /// The uint8 score path against the float path on the dequantized tensor (`scale · (q − zeroPoint)`, as
    /// MediaPipe dequantizes): rows of 1 to 33 and 90 classes with many ties, raw and sigmoid scores (a scale large
    /// enough that the sigmoid saturates into runs of equal scores), clipping, a negative scale (a decreasing table,
    /// with −0), class lists and a score threshold; one and two threads.
    @Test func byteScoresEqualTheirDequantizedFloats() throws {
        var random = SplitMix64(seed: 11)
        let pools = [ThreadPool.serial, ThreadPool(threadCount: 2)]
        var checked = 0
        for (scale, zeroPoint) in [(Float(0.00390625), 0), (0.2, 128), (0.75, 100), (-0.1, 7), (0.05, 255)] {
            for (sigmoid, clip) in [(false, nil), (true, nil), (true, Float(3))] as [(Bool, Float?)] {
                for lists in 0..<3 {
                    for classes in [1, 2, 7, 15, 16, 17, 33, 90] {
                        let boxes = 2100  // two runs of boxes with two threads
                        var options = DetectionDecoderOptions(
                            numClasses: classes, numBoxes: boxes, numCoords: 4, xScale: 1, yScale: 1, wScale: 1,
                            hScale: 1, sigmoidScore: sigmoid)
                        options.scoreClippingThresh = clip
                        if lists == 1 { options.ignoredClasses = [0, classes / 2] }
                        if lists == 2 { options.allowedClasses = [classes - 1, classes / 3] }
                        if classes == 90 { options.minScoreThresh = sigmoid ? 0.6 : 0 }
                        // Few distinct bytes per row, so that rows hold ties.
                        let palette = (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) } + [0, 255]
                        let bytes = (0..<boxes * classes).map { _ in palette.randomElement(using: &random) ?? 0 }
                        let floats = bytes.map { scale * Float(Int($0) - zeroPoint) }
                        let rawBoxes = (0..<boxes * 4).map { _ in Float.random(in: 0...1, using: &random) }
                        let anchors = [SSDAnchor](
                            repeating: SSDAnchor(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1), count: boxes)
                        let table = QuantizedScoreTable(scale: scale, zeroPoint: zeroPoint, options: options)
                        for pool in pools {
                            let expected = try rawBoxes.withUnsafeBufferPointer { b in
                                try floats.withUnsafeBufferPointer { s in
                                    try DetectionDecoder.decode(
                                        rawBoxes: b, rawScores: s, anchors: anchors, options: options, pool: pool)
                                }
                            }
                            let found = try rawBoxes.withUnsafeBufferPointer { b in
                                try bytes.withUnsafeBufferPointer { s in
                                    try DetectionDecoder.decode(
                                        rawBoxes: b, quantizedScores: s, scoreTable: table, anchors: anchors,
                                        options: options, pool: pool)
                                }
                            }
                            #expect(found.count == expected.count)
                            #expect(found.map(\.classID) == expected.map(\.classID))
                            #expect(found.map(\.score.bitPattern) == expected.map(\.score.bitPattern))
                            #expect(found == expected)
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 5 * 3 * 3 * 8 * 2)
    }

    /// A table made for other sigmoid options is refused.
    @Test func byteScoresRefuseATableForOtherOptions() {
        var options = DetectionDecoderOptions.palmDetection192
        let table = QuantizedScoreTable(scale: 0.1, zeroPoint: 0, options: options)
        options.sigmoidScore.toggle()
        let anchors = [SSDAnchor](repeating: SSDAnchor(xCenter: 0, yCenter: 0, width: 1, height: 1), count: 2016)
        let boxes = [Float](repeating: 0, count: 2016 * 18)
        let bytes = [UInt8](repeating: 0, count: 2016)
        #expect(throws: DetectionError.self) {
            try boxes.withUnsafeBufferPointer { b in
                try bytes.withUnsafeBufferPointer { s in
                    try DetectionDecoder.decode(
                        rawBoxes: b, quantizedScores: s, scoreTable: table, anchors: anchors, options: options,
                        pool: .serial)
                }
            }
        }
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
