import PureVisionKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes raw SSD box and score tensors against anchors, as MediaPipe's `TensorsToDetectionsCalculator`
/// does on the CPU.
///
/// Per box, in float32 and in the C++'s operation order:
/// - score: over the allowed classes (`allowedClasses`, else all but `ignoredClasses`), the first best class of `1 / (1 + expf(−clip(raw)))` (or the raw value without `sigmoidScore`);
///   MediaPipe starts the search at −FLT_MAX with class −1, so a box whose scores are all NaN gets those;
/// - centre: `raw / xScale · anchor.width + anchor.xCenter` (y likewise with height);
/// - size: `raw / wScale · anchor.width` (or `expf(raw / wScale) · anchor.width`);
/// - box: `[yc − h/2, xc − w/2, yc + h/2, xc + w/2]`, stored as `xMin`, `yMin`, `width = xmax − xmin`,
///   `height = ymax − ymin` (with `flipVertically`, `yMin = 1 − ymax`);
/// - keypoints: `raw / xScale · anchor.width + anchor.xCenter` (y likewise, flipped to `1 − y`).
///
/// A box is dropped when its score is below `minScoreThresh`, or its width or height is negative or NaN.
/// Detections come out in box order.
public enum DetectionDecoder {
    /// Decodes all boxes.
    ///
    /// - Parameters:
    ///   - rawBoxes: `numBoxes × numCoords` floats, row-major (the model's `[1, numBoxes, numCoords]`).
    ///   - rawScores: `numBoxes × numClasses` floats, row-major.
    ///   - anchors: at least `numBoxes` anchors, in the order the model was trained with.
    ///   - options: the decoder's settings (MediaPipe's `TensorsToDetectionsCalculatorOptions`).
    /// - Throws: `DetectionError` when the options are inconsistent or a buffer is too small.
    public static func decode(
        rawBoxes: UnsafeBufferPointer<Float>,
        rawScores: UnsafeBufferPointer<Float>,
        anchors: [SSDAnchor],
        options: DetectionDecoderOptions
    ) throws(DetectionError) -> [NormalizedDetection] {
        try decode(rawBoxes: rawBoxes, rawScores: rawScores, anchors: anchors, options: options, pool: .serial)
    }

    /// ``decode(rawBoxes:rawScores:anchors:options:)`` with the boxes split over `pool` when there is no
    /// `maxResults` to stop at: each task decodes a contiguous run of boxes and the runs' detections are joined in
    /// box order, so the result is the same.
    package static func decode(
        rawBoxes: UnsafeBufferPointer<Float>,
        rawScores: UnsafeBufferPointer<Float>,
        anchors: [SSDAnchor],
        options: DetectionDecoderOptions,
        pool: ThreadPool
    ) throws(DetectionError) -> [NormalizedDetection] {
        try decode(rawBoxes: rawBoxes, scoreCount: rawScores.count, anchors: anchors, options: options, pool: pool) {
            boxes, anchors, range in
            guard let base = rawScores.baseAddress else { return [] }
            return decodeValidated(
                boxes: boxes, scores: FloatScoreRows(base: base, options: options), anchors: anchors,
                options: options, range: range)
        }
    }

    /// ``decode(rawBoxes:rawScores:anchors:options:pool:)`` for a uint8 score tensor, without dequantizing it: each
    /// byte's score is read from `scoreTable` (made for these options), so the result is the float path's on the
    /// dequantized tensor.
    package static func decode(
        rawBoxes: UnsafeBufferPointer<Float>,
        quantizedScores: UnsafeBufferPointer<UInt8>,
        scoreTable: QuantizedScoreTable,
        anchors: [SSDAnchor],
        options: DetectionDecoderOptions,
        pool: ThreadPool
    ) throws(DetectionError) -> [NormalizedDetection] {
        guard scoreTable.sigmoidScore == options.sigmoidScore,
            scoreTable.scoreClippingThresh?.bitPattern == options.scoreClippingThresh?.bitPattern
        else {
            throw .invalidDecoderOptions("the score table was made for other sigmoid or clipping options")
        }
        return try decode(
            rawBoxes: rawBoxes, scoreCount: quantizedScores.count, anchors: anchors, options: options, pool: pool
        ) { boxes, anchors, range in
            guard let base = quantizedScores.baseAddress else { return [] }
            return decodeValidated(
                boxes: boxes, scores: ByteScoreRows(base: base, table: scoreTable, options: options),
                anchors: anchors, options: options, range: range)
        }
    }

    /// Validates the options and the buffers, then decodes contiguous runs of boxes with `run` (over `pool` when
    /// there is no `maxResults` to stop at), joining the runs' detections in box order.
    private static func decode(
        rawBoxes: UnsafeBufferPointer<Float>, scoreCount: Int, anchors: [SSDAnchor], options: DetectionDecoderOptions,
        pool: ThreadPool,
        run: (UnsafePointer<Float>, UnsafeBufferPointer<SSDAnchor>, Range<Int>) -> [NormalizedDetection]
    ) throws(DetectionError) -> [NormalizedDetection] {
        try validate(options)
        let (boxFloats, boxOverflow) = options.numBoxes.multipliedReportingOverflow(by: options.numCoords)
        let (scoreValues, scoreOverflow) = options.numBoxes.multipliedReportingOverflow(by: options.numClasses)
        guard !boxOverflow, !scoreOverflow else {
            throw .invalidDecoderOptions("numBoxes × numCoords or × numClasses overflows")
        }
        guard rawBoxes.count >= boxFloats else {
            throw .tensorTooSmall(tensor: "boxes", required: boxFloats, actual: rawBoxes.count)
        }
        guard scoreCount >= scoreValues else {
            throw .tensorTooSmall(tensor: "scores", required: scoreValues, actual: scoreCount)
        }
        guard anchors.count >= options.numBoxes else {
            throw .anchorCountMismatch(required: options.numBoxes, actual: anchors.count)
        }
        guard let boxBase = rawBoxes.baseAddress else { return [] }
        return anchors.withUnsafeBufferPointer { anchorBuffer in
            let boxes = options.numBoxes
            let chunks = options.maxResults > 0 ? 1 : ThreadPool.chunkCount(boxes / 1024, threads: pool.threadCount)
            guard chunks > 1 else { return run(boxBase, anchorBuffer, 0..<boxes) }
            var parts = [[NormalizedDetection]](repeating: [], count: chunks)
            parts.withUnsafeMutableBufferPointer { parts in
                pool.parallelFor(chunks) { chunk in
                    parts[chunk] = run(boxBase, anchorBuffer, boxes * chunk / chunks..<boxes * (chunk + 1) / chunks)
                }
            }
            var joined: [NormalizedDetection] = []
            joined.reserveCapacity(parts.reduce(0) { $0 + $1.count })
            for part in parts { joined.append(contentsOf: part) }
            return joined
        }
    }

    /// A box's score as the decoder compares it: `raw`, clipped and passed through the sigmoid when the options say
    /// so.
    @inline(__always)
    static func classScore(_ raw: Float, options: DetectionDecoderOptions) -> Float {
        guard options.sigmoidScore else { return raw }
        var score = raw
        if let clip = options.scoreClippingThresh {
            score = score < -clip ? -clip : score
            score = score > clip ? clip : score
        }
        return 1 / (1 + expf(-score))
    }

    /// Which classes compete for a box's score: nil when all do.
    static func competingClasses(_ options: DetectionDecoderOptions) -> [Bool]? {
        guard !options.allowedClasses.isEmpty || !options.ignoredClasses.isEmpty else { return nil }
        return (0..<options.numClasses).map {
            options.allowedClasses.isEmpty
                ? !options.ignoredClasses.contains($0) : options.allowedClasses.contains($0)
        }
    }

    private static func decodeValidated<Scores: DetectionScoreRows>(
        boxes: UnsafePointer<Float>, scores: Scores,
        anchors: UnsafeBufferPointer<SSDAnchor>, options: DetectionDecoderOptions, range: Range<Int>
    ) -> [NormalizedDetection] {
        let numCoords = options.numCoords
        let xyOrder = options.reverseOutputOrder
        var detections: [NormalizedDetection] = []
        // Every box may pass (no threshold): one allocation instead of a doubling series.
        if options.minScoreThresh == nil { detections.reserveCapacity(range.count) }
        for box in range {
            if options.maxResults > 0 && detections.count == options.maxResults { break }
            let (classID, maxScore) = scores.bestClass(box: box)
            if let threshold = options.minScoreThresh, maxScore < threshold { continue }

            let anchor = anchors[box]
            let row = boxes + box * numCoords
            let boxRow = row + options.boxCoordOffset
            var yCenter = xyOrder ? boxRow[1] : boxRow[0]
            var xCenter = xyOrder ? boxRow[0] : boxRow[1]
            var h = xyOrder ? boxRow[3] : boxRow[2]
            var w = xyOrder ? boxRow[2] : boxRow[3]
            xCenter = xCenter / options.xScale * anchor.width + anchor.xCenter
            yCenter = yCenter / options.yScale * anchor.height + anchor.yCenter
            if options.applyExponentialOnBoxSize {
                h = expf(h / options.hScale) * anchor.height
                w = expf(w / options.wScale) * anchor.width
            } else {
                h = h / options.hScale * anchor.height
                w = w / options.wScale * anchor.width
            }
            let ymin = yCenter - h / 2
            let xmin = xCenter - w / 2
            let ymax = yCenter + h / 2
            let xmax = xCenter + w / 2
            let width = xmax - xmin
            let height = ymax - ymin
            if width < 0 || height < 0 || width.isNaN || height.isNaN { continue }

            var keypoints: [Keypoint] = []
            keypoints.reserveCapacity(options.numKeypoints)
            for k in 0..<options.numKeypoints {
                let pair = row + options.keypointCoordOffset + k * options.numValuesPerKeypoint
                let rawX = xyOrder ? pair[0] : pair[1]
                let rawY = xyOrder ? pair[1] : pair[0]
                let x = rawX / options.xScale * anchor.width + anchor.xCenter
                let y = rawY / options.yScale * anchor.height + anchor.yCenter
                keypoints.append(Keypoint(x: x, y: options.flipVertically ? 1 - y : y))
            }
            detections.append(
                NormalizedDetection(
                    score: maxScore, classID: classID,
                    xMin: xmin, yMin: options.flipVertically ? 1 - ymax : ymin,
                    width: width, height: height, keypoints: keypoints
                ))
        }
        return detections
    }

    /// The scan's answer for raw scores (no sigmoid, every class allowed): the first class whose score is strictly
    /// above all before it, starting from −FLT_MAX with class −1 — that is, the first class equal to the largest
    /// score that is above −FLT_MAX (a NaN never wins).
    ///
    /// Vectorized: a lane-wise running maximum with the scan's rule, then a search for the first class equal to it.
    /// Equal-comparing scores (0 and −0) return the first one's value, as the scan does.
    package static func firstBestClass(_ row: UnsafePointer<Float>, count: Int) -> (classID: Int, score: Float) {
        typealias Lanes = SIMD8<Float>
        var lanes = Lanes(repeating: -.greatestFiniteMagnitude)
        var index = 0
        while index + Lanes.scalarCount <= count {
            let scores = UnsafeRawPointer(row + index).loadUnaligned(as: Lanes.self)
            lanes.replace(with: scores, where: lanes .< scores)
            index += Lanes.scalarCount
        }
        // No lane holds a NaN, so the reduction is an ordinary maximum (by halves: `SIMD.max()` is a generic call).
        let half = pointwiseMax(lanes.lowHalf, lanes.highHalf)
        let quarter = pointwiseMax(half.lowHalf, half.highHalf)
        var maximum = Swift.max(quarter[0], quarter[1])
        while index < count {
            if maximum < row[index] { maximum = row[index] }
            index += 1
        }
        guard -Float.greatestFiniteMagnitude < maximum else { return (-1, -.greatestFiniteMagnitude) }
        for classIndex in 0..<count where row[classIndex] == maximum { return (classIndex, row[classIndex]) }
        return (-1, -.greatestFiniteMagnitude)  // unreachable: `maximum` is one of the scores
    }

    private static func validate(_ options: DetectionDecoderOptions) throws(DetectionError) {
        guard options.numClasses > 0, options.numBoxes >= 0, options.numCoords > 0 else {
            throw .invalidDecoderOptions(
                "numClasses \(options.numClasses), numBoxes \(options.numBoxes), numCoords \(options.numCoords)")
        }
        guard options.numValuesPerKeypoint == 2 else {
            throw .invalidDecoderOptions("numValuesPerKeypoint must be 2, got \(options.numValuesPerKeypoint)")
        }
        guard options.numKeypoints >= 0, options.numKeypoints <= (options.numCoords - 4) / 2,
            options.numKeypoints * 2 + 4 == options.numCoords
        else {
            throw .invalidDecoderOptions(
                "numCoords \(options.numCoords) must be 4 + 2 × numKeypoints (\(options.numKeypoints))")
        }
        guard options.boxCoordOffset >= 0, options.boxCoordOffset <= options.numCoords - 4 else {
            throw .invalidDecoderOptions(
                "boxCoordOffset \(options.boxCoordOffset) leaves no room for 4 box values in \(options.numCoords)")
        }
        guard options.keypointCoordOffset >= 0,
            options.keypointCoordOffset <= options.numCoords - 2 * options.numKeypoints
        else {
            throw .invalidDecoderOptions(
                "keypointCoordOffset \(options.keypointCoordOffset) + \(options.numKeypoints) keypoints "
                    + "exceeds numCoords \(options.numCoords)")
        }
    }
}
