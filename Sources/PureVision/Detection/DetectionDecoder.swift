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
        try validate(options)
        let (boxFloats, boxOverflow) = options.numBoxes.multipliedReportingOverflow(by: options.numCoords)
        let (scoreFloats, scoreOverflow) = options.numBoxes.multipliedReportingOverflow(by: options.numClasses)
        guard !boxOverflow, !scoreOverflow else {
            throw .invalidDecoderOptions("numBoxes × numCoords or × numClasses overflows")
        }
        guard rawBoxes.count >= boxFloats else {
            throw .tensorTooSmall(tensor: "boxes", required: boxFloats, actual: rawBoxes.count)
        }
        guard rawScores.count >= scoreFloats else {
            throw .tensorTooSmall(tensor: "scores", required: scoreFloats, actual: rawScores.count)
        }
        guard anchors.count >= options.numBoxes else {
            throw .anchorCountMismatch(required: options.numBoxes, actual: anchors.count)
        }
        guard let boxBase = rawBoxes.baseAddress, let scoreBase = rawScores.baseAddress else { return [] }
        return anchors.withUnsafeBufferPointer { anchorBuffer in
            let boxes = options.numBoxes
            let chunks = options.maxResults > 0 ? 1 : ThreadPool.chunkCount(boxes / 1024, threads: pool.threadCount)
            guard chunks > 1 else {
                return decodeValidated(
                    boxes: boxBase, scores: scoreBase, anchors: anchorBuffer, options: options, range: 0..<boxes)
            }
            var parts = [[NormalizedDetection]](repeating: [], count: chunks)
            parts.withUnsafeMutableBufferPointer { parts in
                pool.parallelFor(chunks) { chunk in
                    parts[chunk] = decodeValidated(
                        boxes: boxBase, scores: scoreBase, anchors: anchorBuffer, options: options,
                        range: boxes * chunk / chunks..<boxes * (chunk + 1) / chunks)
                }
            }
            return Array(parts.joined())
        }
    }

    private static func decodeValidated(
        boxes: UnsafePointer<Float>, scores: UnsafePointer<Float>,
        anchors: UnsafeBufferPointer<SSDAnchor>, options: DetectionDecoderOptions, range: Range<Int>
    ) -> [NormalizedDetection] {
        let numClasses = options.numClasses
        let numCoords = options.numCoords
        let xyOrder = options.reverseOutputOrder
        let clip = options.scoreClippingThresh
        let allowed: [Bool]? =
            options.allowedClasses.isEmpty && options.ignoredClasses.isEmpty
            ? nil
            : (0..<numClasses).map {
                options.allowedClasses.isEmpty
                    ? !options.ignoredClasses.contains($0) : options.allowedClasses.contains($0)
            }
        let rawScoresCompare = allowed == nil && !options.sigmoidScore
        var detections: [NormalizedDetection] = []
        for box in range {
            if options.maxResults > 0 && detections.count == options.maxResults { break }
            var classID = -1
            var maxScore = -Float.greatestFiniteMagnitude
            let scoreRow = scores + box * numClasses
            if rawScoresCompare {
                (classID, maxScore) = firstBestClass(scoreRow, count: numClasses)
            } else {
                for classIndex in 0..<numClasses {
                    if let allowed, !allowed[classIndex] { continue }
                    var score = scoreRow[classIndex]
                    if options.sigmoidScore {
                        if let clip {
                            score = score < -clip ? -clip : score
                            score = score > clip ? clip : score
                        }
                        score = 1 / (1 + expf(-score))
                    }
                    if maxScore < score {
                        maxScore = score
                        classID = classIndex
                    }
                }
            }
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
        // No lane holds a NaN, so the reduction is an ordinary maximum.
        var maximum = lanes.max()
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
