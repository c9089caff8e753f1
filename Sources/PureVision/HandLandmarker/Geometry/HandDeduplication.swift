/// Drops hands that are the same hand found twice, as MediaPipe 0.10.14's `HandLandmarksDeduplicationCalculator`
/// (which `HandLandmarkerGraph` runs on every frame, after the landmarks of all ROIs are computed).
public enum HandDeduplication {
    /// Fraction of the larger baseline within which a landmark pair counts as matched.
    public static let baselineDistanceRatio: Float = 0.2
    /// Matched landmarks (of 21) needed to call two hands duplicates.
    public static let matchedLandmarksToSuppress = 10
    /// The landmark bounding boxes' IoU must exceed this as well.
    public static let minimumIoUToSuppress: Float = 0.2

    /// The indices of the hands to keep, ascending.
    ///
    /// Hands are visited in order; hand `i` is suppressed when, against some hand `j` kept before it,
    /// - at least 10 of the 21 landmark pairs are closer than `0.2 · max(base_i, base_j)` pixels, where a hand's
    ///   base is the largest pixel distance among wrist–index MCP (0–5), index MCP–pinky MCP (5–17) and
    ///   pinky MCP–wrist (17–0), **and**
    /// - the IoU of the two hands' axis-aligned landmark bounding boxes (normalized units) is greater than 0.2.
    ///
    /// So the earlier of two duplicates wins. Distances follow the C++: the float pixel offsets are squared and
    /// summed in double (`std::pow(float, 2)` promotes), the square root is taken in double, rounded to float.
    ///
    /// - Parameters:
    ///   - hands: image-normalized landmarks per hand, in the order the hands were found.
    ///   - imageWidth: image width in pixels.
    ///   - imageHeight: image height in pixels.
    /// - Returns: the kept indices. A hand without exactly 21 landmarks (which MediaPipe rejects with an error for
    ///   the whole frame) is always kept and never suppresses another.
    public static func deduplicate(_ hands: [[NormalizedLandmark]], imageWidth: Int, imageHeight: Int) -> [Int] {
        let landmarkCount = HandLandmarkDecoding.landmarkCount
        let baselines = hands.map { hand in
            hand.count == landmarkCount ? baselineDistance(hand, imageWidth: imageWidth, imageHeight: imageHeight) : 0
        }
        let bounds = hands.map(landmarkBounds)
        var kept: [Int] = []
        for i in hands.indices {
            guard hands[i].count == landmarkCount else {
                kept.append(i)
                continue
            }
            var suppressed = false
            for j in kept where hands[j].count == landmarkCount {
                let threshold = cppMax(baselines[i], baselines[j]) * baselineDistanceRatio
                var matched = 0
                for index in 0..<landmarkCount {
                    let distance = pixelDistance(
                        hands[i][index], hands[j][index], imageWidth: imageWidth, imageHeight: imageHeight)
                    if distance < threshold {
                        matched += 1
                    }
                }
                let iou = intersectionOverUnion(bounds[i], bounds[j])
                if matched >= matchedLandmarksToSuppress && iou > minimumIoUToSuppress {
                    suppressed = true
                    break
                }
            }
            if !suppressed {
                kept.append(i)
            }
        }
        return kept
    }

    /// A hand's scale: the largest pixel distance among landmarks 0–5, 5–17 and 17–0.
    static func baselineDistance(_ hand: [NormalizedLandmark], imageWidth: Int, imageHeight: Int) -> Float {
        var distance = pixelDistance(hand[0], hand[5], imageWidth: imageWidth, imageHeight: imageHeight)
        distance = cppMax(distance, pixelDistance(hand[5], hand[17], imageWidth: imageWidth, imageHeight: imageHeight))
        distance = cppMax(distance, pixelDistance(hand[17], hand[0], imageWidth: imageWidth, imageHeight: imageHeight))
        return distance
    }

    /// `sqrt(pow((a.x − b.x)·W, 2) + pow((a.y − b.y)·H, 2))`: float offsets, double square/sum/root, float result.
    static func pixelDistance(
        _ a: NormalizedLandmark, _ b: NormalizedLandmark, imageWidth: Int, imageHeight: Int
    ) -> Float {
        let dx = Double((a.x - b.x) * Float(imageWidth))
        let dy = Double((a.y - b.y) * Float(imageHeight))
        return Float((dx * dx + dy * dy).squareRoot())
    }

    /// The landmarks' axis-aligned bounds, normalized; minima start at `FLT_MAX`, maxima at `−FLT_MAX`.
    static func landmarkBounds(_ hand: [NormalizedLandmark]) -> (left: Float, top: Float, right: Float, bottom: Float) {
        let bounds = PointBounds.of(hand, from: .empty)
        return (bounds.minX, bounds.minY, bounds.maxX, bounds.maxY)
    }

    /// MediaPipe Tasks' `CalculateIOU` on left/top/right/bottom boxes: 0 when either area is ≤ 0, otherwise
    /// `I / (A_a + A_b − I)` with `I = max(bottom − top, 0) · max(right − left, 0)` of the intersection.
    static func intersectionOverUnion(
        _ a: (left: Float, top: Float, right: Float, bottom: Float),
        _ b: (left: Float, top: Float, right: Float, bottom: Float)
    ) -> Float {
        let areaA = (a.right - a.left) * (a.bottom - a.top)
        let areaB = (b.right - b.left) * (b.bottom - b.top)
        if areaA <= 0 || areaB <= 0 {
            return 0
        }
        let left = cppMax(a.left, b.left)
        let top = cppMax(a.top, b.top)
        let right = cppMin(a.right, b.right)
        let bottom = cppMin(a.bottom, b.bottom)
        let intersection = cppMax(bottom - top, 0) * cppMax(right - left, 0)
        return intersection / (areaA + areaB - intersection)
    }
}
