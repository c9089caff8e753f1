/// The pose detector's fixed settings and the step from a detection (or the auxiliary landmarks) to the region the
/// landmark model crops, as MediaPipe 0.10.14's `PoseDetectorGraph` and `PoseLandmarksDetectorGraph` hard-code
/// them (the bundle carries none of them).
enum PoseRegion {
    /// SSD anchors of the 224×224 pose detector: 5 layers, strides 8, 16, 32, 32, 32 (the three stride-32 layers
    /// share one 7×7 grid), scales 0.1484375…0.75, 2 anchors per layer position, fixed size 1 × 1: 2254 anchors.
    static let anchorOptions = SSDAnchorOptions(
        inputSizeWidth: 224, inputSizeHeight: 224, minScale: 0.1484375, maxScale: 0.75, numLayers: 5,
        strides: [8, 16, 32, 32, 32], aspectRatios: [1.0], fixedAnchorSize: true)

    /// The anchor count the detector must produce boxes for.
    static let anchorCount = 2254

    /// Decoding of the detector's `[1, 2254, 12]` boxes: XYWH face box, then 4 keypoints (0 hip centre, 1 full-body
    /// size and rotation point, 2 shoulder centre, 3 upper-body point), all divided by 224; score = sigmoid of the
    /// logit clipped to ±100, kept when ≥ `minScore`.
    static func decoderOptions(minScore: Float) -> DetectionDecoderOptions {
        DetectionDecoderOptions(
            numClasses: 1, numBoxes: anchorCount, numCoords: 12, boxCoordOffset: 0, keypointCoordOffset: 4,
            numKeypoints: 4, numValuesPerKeypoint: 2, xScale: 224, yScale: 224, wScale: 224, hScale: 224,
            reverseOutputOrder: true, sigmoidScore: true, scoreClippingThresh: 100, minScoreThresh: minScore)
    }

    /// Weighted NMS on the face boxes with IoU threshold 0.5 (`PoseDetectorGraphOptions` default; the Tasks API
    /// never changes it).
    static let suppression = NonMaxSuppressionOptions(
        algorithm: .weighted, overlapType: .intersectionOverUnion, minSuppressionThreshold: 0.5,
        returnEmptyDetections: true)

    /// `rotation_vector_target_angle_degrees = 90` from keypoint 0 to keypoint 1: the hip-to-head vector ends up
    /// pointing up.
    static let rotationVector = RotationVector.degrees(startKeypointIndex: 0, endKeypointIndex: 1, targetAngle: 90)

    /// The detection's keypoints moved out of the detector's letterbox (`DetectionLetterboxRemovalCalculator`):
    /// `x' = (x − l) / (1 − (l + r))`, y likewise, float. Only the letterbox is removed: a rotation of the
    /// detector's crop (`ImageProcessingOptions.rotationDegrees`) is *not* undone, as in MediaPipe 0.10.14.
    static func removingLetterbox(
        _ detection: NormalizedDetection, padding: (left: Float, top: Float, right: Float, bottom: Float)
    ) -> NormalizedDetection {
        var result = detection
        let leftAndRight = padding.left + padding.right
        let topAndBottom = padding.top + padding.bottom
        result.keypoints = detection.keypoints.map {
            Keypoint(x: ($0.x - padding.left) / (1 - leftAndRight), y: ($0.y - padding.top) / (1 - topAndBottom))
        }
        result.xMin = (detection.xMin - padding.left) / (1 - leftAndRight)
        result.yMin = (detection.yMin - padding.top) / (1 - topAndBottom)
        result.width = detection.width / (1 - leftAndRight)
        result.height = detection.height / (1 - topAndBottom)
        return result
    }

    /// The landmark model's region for a centre point and a scale point (normalized): MediaPipe's
    /// `AlignmentPointsRectsCalculator` followed by `RectTransformation` (scale 1.25 × 1.25, square_long).
    ///
    /// In pixels (float): centre = the centre point, side = `2 · sqrtf(dx² + dy²)` with (dx, dy) from the centre to
    /// the scale point, so the rect is square in pixels; rotation `NormalizeRadians(π/2 − atan2f(−dy, dx))` (an
    /// upright body gets 0). Returns nil when a value is not finite or the side is not positive (MediaPipe would
    /// crop nothing).
    static func region(center: Keypoint, scalePoint: Keypoint, imageWidth: Int, imageHeight: Int) -> NormalizedRect? {
        let width = Float(imageWidth)
        let height = Float(imageHeight)
        let xCenter = center.x * width
        let yCenter = center.y * height
        let xScale = scalePoint.x * width
        let yScale = scalePoint.y * height
        let side = ((xScale - xCenter) * (xScale - xCenter) + (yScale - yCenter) * (yScale - yCenter)).squareRoot() * 2
        let detection = NormalizedDetection(
            score: 0, xMin: 0, yMin: 0, width: 0, height: 0, keypoints: [center, scalePoint])
        guard
            let rotation = try? DetectionsToRects.rotation(
                of: detection, rotationVector: rotationVector, imageWidth: imageWidth, imageHeight: imageHeight)
        else { return nil }
        let rect = NormalizedRect(
            xCenter: xCenter / width, yCenter: yCenter / height, width: side / width, height: side / height,
            rotation: rotation)
        let expanded = RectTransformation.transform(
            rect, imageWidth: imageWidth, imageHeight: imageHeight, scaleX: 1.25, scaleY: 1.25, squareLong: true)
        guard expanded.xCenter.isFinite, expanded.yCenter.isFinite, expanded.rotation.isFinite,
            expanded.width.isFinite, expanded.height.isFinite, expanded.width > 0, expanded.height > 0
        else { return nil }
        return expanded
    }

    /// MediaPipe's `AssociationNormRectCalculator` over [tracked rects, detected rects] (video and live stream).
    ///
    /// The first non-empty list seeds the result with its first rect; every further rect — the rest of that list,
    /// then each rect of the later list — is appended after removing every rect already in the result whose
    /// axis-aligned IoU with it is greater than `threshold`. So a detection replaces the tracked rect it overlaps
    /// (and goes last), and overlapping rects within one list collapse to the later one.
    static func associate(tracked: [NormalizedRect], detected: [NormalizedRect], threshold: Float) -> [NormalizedRect] {
        var result: [NormalizedRect] = []
        for rect in tracked + detected {
            let box = HandAssociation.box(of: rect)
            result.removeAll { HandAssociation.intersectionOverUnion(box, HandAssociation.box(of: $0)) > threshold }
            result.append(rect)
        }
        return result
    }
}
