#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the hand landmark model's raw outputs into image-space results, as MediaPipe 0.10.14's
/// `HandLandmarksDetectorGraph` does after inference (all arithmetic float32, in the C++'s order).
///
/// The model (`hand_landmarks_detector.tflite`) has four outputs, taken by tensor index: `[0]` 63 floats of
/// screen landmarks, `[1]` the presence score, `[2]` the handedness score, `[3]` 63 floats of world landmarks.
/// Landmarks are 21 `(x, y, z)` triples in model order (0 wrist; thumb 1–4; index 5–8; middle 9–12; ring 13–16;
/// pinky 17–20).
public enum HandLandmarkDecoding {
    /// Number of landmarks the hand model produces.
    public static let landmarkCount = 21

    /// MediaPipe's `normalize_z` for hand landmarks: z is divided by it after scaling by the input width.
    public static let normalizeZ: Float = 0.4

    /// Screen landmarks in image-normalized coordinates, from the model's first output.
    ///
    /// Three MediaPipe calculators in order:
    /// 1. `TensorsToLandmarks`: `x / W`, `y / H`, `z / W / 0.4` (W, H the model input size).
    /// 2. `LandmarkLetterboxRemoval`: `x' = (x − l) / (1 − (l + r))`, `y' = (y − t) / (1 − (t + b))`,
    ///    `z' = z / (1 − (l + r))`.
    /// 3. `LandmarkProjection` with a rect (no image size): `x − 0.5`, `y − 0.5` rotated by `rect.rotation` in
    ///    normalized space (exact because the hand rect is square in pixels), scaled by `(rect.width,
    ///    rect.height)`, moved to the rect's centre; `z ·= rect.width`.
    ///
    /// - Parameters:
    ///   - raw: `(x, y, z)` triples in model-input pixels, landmark-major; 63 floats for a hand. `raw.count / 3`
    ///     landmarks are produced (a trailing partial triple is ignored).
    ///   - inputWidth: model input width in pixels (224 for the shipped model).
    ///   - inputHeight: model input height in pixels.
    ///   - letterbox: the crop's letterbox padding, fractions of the tensor (`ImageToTensorResult.letterboxPadding`;
    ///     all zero for the stretched hand crop).
    ///   - rect: the hand ROI the crop was taken from.
    ///   - normalizeZ: the `normalize_z` divisor (0.4 for hands; the face mesh uses MediaPipe's default 1).
    public static func screenLandmarks(
        raw: UnsafeBufferPointer<Float>, inputWidth: Int, inputHeight: Int,
        letterbox: (left: Float, top: Float, right: Float, bottom: Float), rect: NormalizedRect,
        normalizeZ: Float = HandLandmarkDecoding.normalizeZ
    ) -> [NormalizedLandmark] {
        let count = raw.count / 3
        let width = Float(inputWidth)
        let height = Float(inputHeight)
        let leftAndRight = letterbox.left + letterbox.right
        let topAndBottom = letterbox.top + letterbox.bottom
        let cosine = cosf(rect.rotation)
        let sine = sinf(rect.rotation)
        var result: [NormalizedLandmark] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let x = raw[3 * index] / width
            let y = raw[3 * index + 1] / height
            let z = raw[3 * index + 2] / width / normalizeZ
            let unpaddedX = (x - letterbox.left) / (1 - leftAndRight)
            let unpaddedY = (y - letterbox.top) / (1 - topAndBottom)
            let unpaddedZ = z / (1 - leftAndRight)
            let centredX = unpaddedX - 0.5
            let centredY = unpaddedY - 0.5
            let rotatedX = cosine * centredX - sine * centredY
            let rotatedY = sine * centredX + cosine * centredY
            result.append(
                NormalizedLandmark(
                    x: rotatedX * rect.width + rect.xCenter,
                    y: rotatedY * rect.height + rect.yCenter,
                    z: unpaddedZ * rect.width
                ))
        }
        return result
    }

    /// World landmarks in metres, from the model's fourth output (MediaPipe's `WorldLandmarkProjection`):
    /// `(x, y)` rotated by `rect.rotation` (`x' = cosθ·x − sinθ·y`, `y' = sinθ·x + cosθ·y`); z, the origin and
    /// the scale are unchanged.
    ///
    /// - Parameters:
    ///   - raw: `(x, y, z)` triples in metres, landmark-major; 63 floats for a hand. `raw.count / 3` landmarks
    ///     are produced.
    ///   - rect: the hand ROI the crop was taken from (only its rotation is used).
    public static func worldLandmarks(raw: UnsafeBufferPointer<Float>, rect: NormalizedRect) -> [Landmark] {
        let count = raw.count / 3
        let cosine = cosf(rect.rotation)
        let sine = sinf(rect.rotation)
        var result: [Landmark] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let x = raw[3 * index]
            let y = raw[3 * index + 1]
            result.append(Landmark(x: cosine * x - sine * y, y: sine * x + cosine * y, z: raw[3 * index + 2]))
        }
        return result
    }

    /// The handedness category from the model's third output, labelled as MediaPipe Tasks 0.10.14 does.
    ///
    /// The raw value `s` is the score of "Right": binary classification gives index 0 "Right" with `s` and
    /// index 1 "Left" with `1 − s` (computed in double, rounded to float); top-1 keeps "Left" only when its score
    /// is strictly larger, so a tie (and NaN) gives "Right". On an unmirrored image the label names the subject's
    /// own hand.
    public static func handedness(raw: Float) -> (index: Int, score: Float, categoryName: String) {
        let leftScore = Float(1.0 - Double(raw))
        if leftScore > raw {
            return (1, leftScore, "Left")
        }
        return (0, raw, "Right")
    }
}
