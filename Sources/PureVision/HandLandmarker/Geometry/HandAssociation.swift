/// Merges tracked hand ROIs with fresh palm-detector ROIs, as MediaPipe 0.10.14's `HandAssociationCalculator`
/// followed by `HandLandmarkerGraph`'s `ClipNormalizedRectVectorSizeCalculator` (video and live-stream modes).
public enum HandAssociation {
    /// The ROIs to compute landmarks in this frame.
    ///
    /// Every tracked rect is kept, in order. Each detected rect, in order, is then added unless its IoU with some
    /// rect already in the result (tracked or previously added) is **greater than** `minSimilarityThreshold`; an
    /// IoU equal to the threshold is added. The list is finally clipped to its first `maxHands` rects.
    ///
    /// The IoU ignores rotation (MediaPipe's `rectangle_util`): a rect becomes the box with
    /// `xMin = Float(Double(xCenter) − Double(width) / 2)` (the C++ halves in double), `xMax = xMin + width`
    /// (y likewise); the IoU is 0 when the boxes do not touch (touching edges count as intersecting),
    /// otherwise `I / (A₁ + A₂ − I)` with areas `(xMax − xMin)·(yMax − yMin)`, or 0 when that denominator is
    /// not positive.
    ///
    /// MediaPipe also numbers the rects (`rect_id`); `NormalizedRect` carries no id, so callers that need track
    /// identity keep it alongside.
    ///
    /// - Parameters:
    ///   - trackedRects: last frame's next-frame ROIs (after deduplication).
    ///   - detectedRects: this frame's palm-detector ROIs, in detection order.
    ///   - minSimilarityThreshold: MediaPipe's `min_tracking_confidence`, which is only this IoU threshold;
    ///     MediaPipe requires it in (0, 1] (validate options before calling).
    ///   - maxHands: `num_hands`; zero or less gives an empty result.
    /// - Returns: at most `maxHands` rects. A detected rect with a negative width or height, which MediaPipe
    ///   rejects with an error, is skipped.
    public static func associate(
        trackedRects: [NormalizedRect], detectedRects: [NormalizedRect],
        minSimilarityThreshold: Float, maxHands: Int
    ) -> [NormalizedRect] {
        var result = trackedRects
        for detected in detectedRects where !(detected.width < 0 || detected.height < 0) {
            let candidate = box(of: detected)
            let overlaps = result.contains { existing in
                intersectionOverUnion(box(of: existing), candidate) > minSimilarityThreshold
            }
            if !overlaps {
                result.append(detected)
            }
        }
        return Array(result.prefix(max(maxHands, 0)))
    }

    /// An axis-aligned box as MediaPipe's `Rectangle_f`: its minimum and maximum corners.
    struct Box {
        var xMin: Float
        var yMin: Float
        var xMax: Float
        var yMax: Float

        /// `min > max` on either axis (a negative size).
        var isEmpty: Bool { xMin > xMax || yMin > yMax }
        /// `(xMax − xMin)·(yMax − yMin)`.
        var area: Float { (xMax - xMin) * (yMax - yMin) }
    }

    /// MediaPipe's `ToRectangle`: the corner is computed in double, the far corner as `corner + size` in float.
    static func box(of rect: NormalizedRect) -> Box {
        let xMin = Float(Double(rect.xCenter) - Double(rect.width) / 2)
        let yMin = Float(Double(rect.yCenter) - Double(rect.height) / 2)
        return Box(xMin: xMin, yMin: yMin, xMax: xMin + rect.width, yMax: yMin + rect.height)
    }

    /// MediaPipe's `CalculateIou(existing, new)` on `Rectangle_f`.
    static func intersectionOverUnion(_ first: Box, _ second: Box) -> Float {
        let intersects =
            !(first.isEmpty || second.isEmpty || second.xMax < first.xMin || first.xMax < second.xMin
            || second.yMax < first.yMin || first.yMax < second.yMin)
        if !intersects {
            return 0
        }
        var intersection = Box(
            xMin: cppMax(first.xMin, second.xMin), yMin: cppMax(first.yMin, second.yMin),
            xMax: cppMin(first.xMax, second.xMax), yMax: cppMin(first.yMax, second.yMax)
        )
        if intersection.xMin > intersection.xMax || intersection.yMin > intersection.yMax {
            // Rectangle_f's default (SetEmpty) box; unreachable after the intersection test for finite inputs.
            intersection = Box(
                xMin: .greatestFiniteMagnitude, yMin: .greatestFiniteMagnitude,
                xMax: -.greatestFiniteMagnitude, yMax: -.greatestFiniteMagnitude)
        }
        let intersectionArea = intersection.area
        let normalization = first.area + second.area - intersectionArea
        return normalization > 0 ? intersectionArea / normalization : 0
    }
}
