import PureVision
import PureVisionKernels
import PureVisionTestSupport
import Testing

@Suite struct NonMaxSuppressionTests {
    private func box(_ score: Float, _ x: Float, _ y: Float, _ w: Float, _ h: Float, kp: [Keypoint] = [])
        -> NormalizedDetection
    {
        NormalizedDetection(score: score, xMin: x, yMin: y, width: w, height: h, keypoints: kp)
    }

    @Test func similarityMeasures() {
        let a = box(1, 0, 0, 1, 1)
        let b = box(1, 0.5, 0, 1, 1)
        #expect(NonMaxSuppression.similarity(a, b, overlapType: .intersectionOverUnion) == Float(0.5) / 1.5)
        #expect(NonMaxSuppression.similarity(a, b, overlapType: .jaccard) == Float(0.5) / 1.5)
        let c = box(1, 0.5, 0.5, 1, 1)
        #expect(NonMaxSuppression.similarity(a, c, overlapType: .intersectionOverUnion) == Float(0.25) / 1.75)
        #expect(NonMaxSuppression.similarity(a, c, overlapType: .jaccard) == Float(0.25) / 2.25, "enclosing box")
        #expect(NonMaxSuppression.similarity(a, box(1, 0, 0, 2, 2), overlapType: .modifiedJaccard) == 0.25)
        #expect(NonMaxSuppression.similarity(a, box(1, 1, 0, 1, 1), overlapType: .intersectionOverUnion) == 0)
        #expect(NonMaxSuppression.similarity(a, box(1, 3, 3, 1, 1), overlapType: .intersectionOverUnion) == 0)
    }

    @Test(arguments: [NonMaxSuppressionOptions.Algorithm.default, .weighted])
    func similarityEqualToThresholdIsNotSuppressed(_ algorithm: NonMaxSuppressionOptions.Algorithm) throws {
        // IoU of these two is exactly 0.5 / 1.5 in float; that value as threshold keeps both.
        let detections = [box(0.9, 0, 0, 1, 1), box(0.8, 0.5, 0, 1, 1)]
        let iou = NonMaxSuppression.similarity(detections[0], detections[1], overlapType: .intersectionOverUnion)
        var options = NonMaxSuppressionOptions(
            algorithm: algorithm, overlapType: .intersectionOverUnion, minSuppressionThreshold: iou)
        #expect(NonMaxSuppression.suppress(detections, options: options) == detections)
        options.minSuppressionThreshold = iou.nextDown
        #expect(try #require(NonMaxSuppression.suppress(detections, options: options)).count == 1)
    }

    @Test func greedyKeepsHighestAndRespectsMaximum() {
        let detections = [
            box(0.6, 0, 0, 1, 1), box(0.9, 0.1, 0, 1, 1), box(0.7, 5, 5, 1, 1), box(0.8, 10, 10, 1, 1),
        ]
        var options = NonMaxSuppressionOptions(
            algorithm: .default, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3)
        let all = NonMaxSuppression.suppress(detections, options: options)
        #expect(all == [detections[1], detections[3], detections[2]])
        options.maxNumDetections = 2
        #expect(NonMaxSuppression.suppress(detections, options: options) == [detections[1], detections[3]])
        options.maxNumDetections = -1
        options.minScoreThreshold = 0.75
        #expect(NonMaxSuppression.suppress(detections, options: options) == [detections[1], detections[3]])
    }

    @Test func weightedAveragesCornersAndKeypointsKeepingTopScore() throws {
        let top = box(0.75, 0, 0, 1, 1, kp: [Keypoint(x: 0, y: 0)])
        let other = box(0.25, 0.25, 0, 1, 1, kp: [Keypoint(x: 1, y: 0.5)])
        let far = box(0.5, 4, 4, 1, 1, kp: [Keypoint(x: 4, y: 4)])
        let result = try #require(NonMaxSuppression.suppress([other, far, top], options: .palmDetection))
        #expect(result.count == 2)
        let merged = result[0]
        #expect(merged.score == 0.75)
        // Σ(v·s)/Σs with Σs = 1: xmin 0.0625, xmax 1.0625, y unchanged.
        #expect(merged.xMin == 0.0625 && merged.width == 1.0625 - 0.0625)
        #expect(merged.yMin == 0 && merged.height == 1)
        #expect(merged.keypoints == [Keypoint(x: 0.25, y: 0.125)])
        #expect(result[1] == far, "a lone detection is its own weighted mean")
    }

    @Test func weightedIgnoresMaximumCount() throws {
        let detections = (0..<5).map { box(Float($0 + 1) / 10, Float($0) * 3, 0, 1, 1) }
        var options = NonMaxSuppressionOptions.palmDetection
        options.maxNumDetections = 2
        #expect(try #require(NonMaxSuppression.suppress(detections, options: options)).count == 5)
    }

    @Test func weightedStopsAtATopThatDoesNotOverlapItself() {
        // A zero-area top box has IoU 0 with itself: MediaPipe emits it and ends, dropping the rest.
        let detections = [box(0.9, 0.5, 0.5, 0, 0), box(0.8, 3, 3, 1, 1)]
        #expect(NonMaxSuppression.suppress(detections, options: .palmDetection) == [detections[0]])
    }

    @Test(arguments: [NonMaxSuppressionOptions.Algorithm.default, .weighted])
    func tiesUpToSixteenKeepInputOrder(_ algorithm: NonMaxSuppressionOptions.Algorithm) {
        let detections = (0..<16).map { box(0.5, Float($0) * 2, 0, 1, 1) }
        let options = NonMaxSuppressionOptions(
            algorithm: algorithm, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3)
        #expect(NonMaxSuppression.suppress(detections, options: options) == detections)
    }

    @Test func emptyInput() {
        #expect(NonMaxSuppression.suppress([], options: .palmDetection) == [])
        #expect(NonMaxSuppression.suppress([], options: .faceDetection) == nil)
    }

    /// The greedy pass tests each candidate against all kept boxes at once (`RetainedRects`); its reference twin is
    /// the plain loop over the public scalar `similarity`. Boxes include empty (negative size), zero-area, NaN and
    /// infinite ones, nested and edge-touching pairs, for every overlap type and thresholds at and below zero.
    @Test(arguments: [
        NonMaxSuppressionOptions.OverlapType.intersectionOverUnion, .jaccard, .modifiedJaccard,
    ])
    func greedyEqualsThePlainLoopOverScalarSimilarity(_ type: NonMaxSuppressionOptions.OverlapType) {
        var random = SplitMix64(seed: 7)
        let grid: [Float] = [0, 0.25, 0.5, 0.75, 1]
        func coordinate() -> Float {
            switch Int.random(in: 0..<20, using: &random) {
            case 0: .nan
            case 1: .infinity
            case 2: -.infinity
            case 3...7: grid.randomElement(using: &random) ?? 0
            default: Float.random(in: -0.2...1.2, using: &random)
            }
        }
        func size() -> Float {
            switch Int.random(in: 0..<24, using: &random) {
            case 0: .nan
            case 1: 0
            case 2: -Float.random(in: 0...0.3, using: &random)
            case 3...6: grid.randomElement(using: &random) ?? 0
            // Areas below and above the range the area-octave grids place (2⁻¹⁰⁰...2¹⁰⁰), and a few octaves apart.
            case 7: Float.random(in: 0...1e-25, using: &random)
            case 8: Float.random(in: 1e25...1e30, using: &random)
            case 9: Float.random(in: 0...0.02, using: &random)
            default: Float.random(in: 0...0.6, using: &random)
            }
        }
        let twoThreads = ThreadPool(threadCount: 2)
        var compared = 0
        var suppressed = 0
        // 1 to 414 boxes (the helper thread starts at 256), then counts well above the octave grids' 256.
        for (round, count) in (Array(stride(from: 1, through: 414, by: 7)) + [700, 1500]).enumerated() {
            let detections = (0..<count).map { _ in
                box(Float.random(in: 0...1, using: &random), coordinate(), coordinate(), size(), size())
            }
            for threshold: Float in [0.3, 0, -0.5, 0.9] {
                let options = NonMaxSuppressionOptions(
                    algorithm: .default, overlapType: type, minSuppressionThreshold: threshold)
                let expected = Self.plainGreedy(detections, options: options)
                let kept = NonMaxSuppression.suppress(detections, options: options) ?? []
                #expect(kept.map(Self.bits) == expected.map(Self.bits), "round \(round)")
                let threaded = NonMaxSuppression.suppress(detections, options: options, pool: twoThreads) ?? []
                #expect(threaded.map(Self.bits) == expected.map(Self.bits), "round \(round), two threads")
                compared += 1
                suppressed += detections.count - expected.count
            }
        }
        #expect(compared == 248)
        #expect(suppressed > 3000, "the cases must exercise suppression")
    }

    /// SSD-like frames (thousands of boxes of a few sizes around a grid of centres, many overlapping, as EfficientDet
    /// decodes them, the boxes of one centre next to each other so that the suppressor hints hit) through the
    /// area-octave grids, serially and with a helper thread, against the plain loop.
    @Test func denseAnchorFramesEqualThePlainLoop() {
        var random = SplitMix64(seed: 11)
        let twoThreads = ThreadPool(threadCount: 2)
        let threeThreads = ThreadPool(threadCount: 3)
        for frame in 0..<3 {
            var detections: [NormalizedDetection] = []
            for level in 0..<4 {
                let cells = 24 >> level
                let side = 0.1 * Float(1 << level)
                for row in 0..<cells {
                    for column in 0..<cells {
                        for scale: Float in [1, 1.26, 1.59] {
                            let w = side * scale * Float.random(in: 0.7...1.4, using: &random)
                            let h = side * scale * Float.random(in: 0.7...1.4, using: &random)
                            let x =
                                (Float(column) + 0.5) / Float(cells) - w / 2
                                + Float.random(in: -0.01...0.01, using: &random)
                            let y =
                                (Float(row) + 0.5) / Float(cells) - h / 2
                                + Float.random(in: -0.01...0.01, using: &random)
                            detections.append(box(Float.random(in: 0...1, using: &random), x, y, w, h))
                        }
                    }
                }
            }
            let options = NonMaxSuppressionOptions(
                algorithm: .default, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.3)
            let expected = Self.plainGreedy(detections, options: options)
            #expect(expected.count > 100 && expected.count < detections.count / 2, "frame \(frame)")
            let kept = NonMaxSuppression.suppress(detections, options: options) ?? []
            #expect(kept.map(Self.bits) == expected.map(Self.bits), "frame \(frame)")
            // The walk and its helper meet at different points from run to run; every meeting gives the same boxes.
            for (pool, runs) in [(twoThreads, 6), (threeThreads, 2)] {
                for run in 0..<runs {
                    let threaded = NonMaxSuppression.suppress(detections, options: options, pool: pool) ?? []
                    #expect(
                        threaded.map(Self.bits) == expected.map(Self.bits),
                        "frame \(frame), \(pool.threadCount) threads, run \(run)")
                }
            }
        }
    }

    /// The visiting order (the greedy pass with an infinite threshold keeps every box, in that order) is the same
    /// when the sort's first partition is finished on two threads: many tied scores, ascending, descending and
    /// constant scores (the heap-sort fallback), sizes around the split threshold, and a NaN (serial sort).
    @Test(arguments: [4096, 5003, 19206])
    func visitingOrderIsTheSameOnTwoThreads(count: Int) {
        var random = SplitMix64(seed: UInt64(count))
        let levels = (0..<count).map { _ in Float(UInt8.random(in: 0...255, using: &random)) / 255 }
        var scoreSets: [[Float]] = [
            levels, (0..<count).map { Float($0) }, (0..<count).map { Float(count - $0) },
            [Float](repeating: 0.5, count: count), (0..<count).map { Float($0 % 7) + Float($0 % 3) * 0.25 },
        ]
        var withNaN = levels
        withNaN[count / 3] = .nan
        scoreSets.append(withNaN)
        var options = NonMaxSuppressionOptions(
            algorithm: .default, overlapType: .intersectionOverUnion, minSuppressionThreshold: .infinity)
        options.maxNumDetections = -1
        for (set, scores) in scoreSets.enumerated() {
            // Each box is told apart by its x.
            let detections = scores.enumerated().map { index, score in
                box(score, Float(index) / Float(count), 0, 0.01, 0.01)
            }
            let serial = NonMaxSuppression.suppress(detections, options: options) ?? []
            #expect(serial.count == count)
            for threads in [2, 3] {
                let split = NonMaxSuppression.suppress(
                    detections, options: options, pool: ThreadPool(threadCount: threads))
                #expect(split?.map(Self.bits) == serial.map(Self.bits), "set \(set), \(threads) threads")
            }
        }
    }

    /// A detection's box and score as bit patterns, so that NaN fields compare equal to themselves.
    private static func bits(_ d: NormalizedDetection) -> [UInt32] {
        [d.score, d.xMin, d.yMin, d.width, d.height].map(\.bitPattern)
    }

    /// Greedy suppression as a plain loop: visit in score order (the greedy pass with an infinite threshold, which
    /// suppresses nothing, gives that order), keep a box unless a kept one is more similar than the threshold.
    private static func plainGreedy(
        _ detections: [NormalizedDetection], options: NonMaxSuppressionOptions
    ) -> [NormalizedDetection] {
        var visiting = options
        visiting.minSuppressionThreshold = .infinity
        let ordered = NonMaxSuppression.suppress(detections, options: visiting) ?? []
        var kept: [NormalizedDetection] = []
        for candidate in ordered
        where !kept.contains(where: {
            NonMaxSuppression.similarity($0, candidate, overlapType: options.overlapType)
                > options.minSuppressionThreshold
        }) {
            kept.append(candidate)
        }
        return kept
    }

    @Test func nanScoresDoNotCrash() {
        let detections = (0..<40).map { box($0 % 3 == 0 ? .nan : Float($0 % 5), Float($0), 0, 1, 1) }
        let result = NonMaxSuppression.suppress(detections, options: .palmDetection)
        #expect(result != nil)
    }
}
