#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the pose landmark model's outputs into image-space landmarks, as MediaPipe 0.10.14's
/// `SinglePoseLandmarksDetectorGraph` does after inference (float32, in the C++'s order).
///
/// The model (`pose_landmarks_detector.tflite`) outputs, by tensor index: `[0]` 39 × (x, y, z, visibility logit,
/// presence logit) in input pixels; `[1]` the pose presence (already a probability); `[2]` 256×256 segmentation
/// logits; `[3]` a 64×64×39 heatmap of logits (HWC); `[4]` 39 × (x, y, z) world landmarks in metres. Landmarks 0–32
/// are the pose, 33 and 34 the auxiliary points the next frame's region is built from, 35–38 are unused.
enum PoseLandmarkDecoding {
    /// Landmarks reported per pose.
    static let poseLandmarkCount = 33
    /// Index of the auxiliary body-centre landmark; the size/rotation point follows it.
    static let auxiliaryCenterIndex = 33
    /// The heatmap refinement's window (7 × 7) and the confidence below which a landmark is left alone.
    static let refinementKernelSize = 7
    static let minConfidenceToRefine: Float = 0.5

    /// `1 / (1 + expf(−v))` in float.
    @inline(__always)
    static func sigmoid(_ value: Float) -> Float { 1 / (1 + expf(-value)) }

    /// `TensorsToLandmarks`: landmarks normalized to the crop, `x / W`, `y / H`, `z / W` (normalize_z 1), visibility
    /// and presence the sigmoids of their logits.
    static func cropLandmarks(raw: UnsafeBufferPointer<Float>, count: Int, inputWidth: Int, inputHeight: Int)
        -> [NormalizedLandmark]
    {
        let width = Float(inputWidth)
        let height = Float(inputHeight)
        var result: [NormalizedLandmark] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let base = 5 * index
            result.append(
                NormalizedLandmark(
                    x: raw[base] / width, y: raw[base + 1] / height, z: raw[base + 2] / width,
                    visibility: sigmoid(raw[base + 3]), presence: sigmoid(raw[base + 4])))
        }
        return result
    }

    /// `RefineLandmarksFromHeatmapCalculator` (kernel 7, min confidence 0.5): each landmark inside the heatmap
    /// moves to the sigmoid-weighted mean cell index of the 7 × 7 window around `(Int(x·w), Int(y·h))`, divided by
    /// the map size (no half-cell offset), when the window's largest weight is ≥ 0.5. z, visibility and presence
    /// are unchanged.
    ///
    /// - Parameter heatmap: `height · width · landmarks.count` logits, HWC.
    static func refine(
        _ landmarks: inout [NormalizedLandmark], heatmap: UnsafeBufferPointer<Float>, width: Int, height: Int
    ) {
        let channels = landmarks.count
        let offset = (refinementKernelSize - 1) / 2
        let mapWidth = Float(width)
        let mapHeight = Float(height)
        for index in 0..<channels {
            let scaledX = landmarks[index].x * mapWidth
            let scaledY = landmarks[index].y * mapHeight
            // C++ truncates toward zero; values beyond Int range or NaN are outside the map either way.
            guard scaledX > -1, scaledX < mapWidth, scaledY > -1, scaledY < mapHeight else { continue }
            let centerColumn = Int(scaledX)
            let centerRow = Int(scaledY)
            let beginColumn = max(0, centerColumn - offset)
            let endColumn = min(width, centerColumn + offset + 1)
            let beginRow = max(0, centerRow - offset)
            let endRow = min(height, centerRow + offset + 1)
            var sum: Float = 0
            var weightedColumn: Float = 0
            var weightedRow: Float = 0
            var maxConfidence: Float = 0
            for row in beginRow..<endRow {
                for column in beginColumn..<endColumn {
                    let confidence = sigmoid(heatmap[(row * width + column) * channels + index])
                    sum += confidence
                    maxConfidence = cppMax(maxConfidence, confidence)
                    weightedColumn += Float(column) * confidence
                    weightedRow += Float(row) * confidence
                }
            }
            if maxConfidence >= minConfidenceToRefine && sum > 0 {
                landmarks[index].x = weightedColumn / mapWidth / sum
                landmarks[index].y = weightedRow / mapHeight / sum
            }
        }
    }

    /// `LandmarkProjection` with the crop's rect (the crop is stretched, so there is no letterbox to remove):
    /// `(x − 0.5, y − 0.5)` rotated by the rect's rotation (cosf/sinf), scaled by the rect's size, moved to its
    /// centre; `z ·= rect.width`. Visibility and presence are kept.
    static func project(_ landmark: NormalizedLandmark, cosine: Float, sine: Float, rect: NormalizedRect)
        -> NormalizedLandmark
    {
        let x = landmark.x - 0.5
        let y = landmark.y - 0.5
        let rotatedX = cosine * x - sine * y
        let rotatedY = sine * x + cosine * y
        var result = landmark
        result.x = rotatedX * rect.width + rect.xCenter
        result.y = rotatedY * rect.height + rect.yCenter
        result.z = landmark.z * rect.width
        return result
    }

    /// World landmarks 0–32 (`WorldLandmarkProjection`): `(x, y)` rotated by the rect's rotation, z unchanged; the
    /// visibility and presence of the matching normalized landmark copied in (`VisibilityCopyCalculator`).
    static func worldLandmarks(
        raw: UnsafeBufferPointer<Float>, cosine: Float, sine: Float, copyingFrom landmarks: [NormalizedLandmark]
    ) -> [Landmark] {
        var result: [Landmark] = []
        result.reserveCapacity(poseLandmarkCount)
        for index in 0..<poseLandmarkCount {
            let x = raw[3 * index]
            let y = raw[3 * index + 1]
            result.append(
                Landmark(
                    x: cosine * x - sine * y, y: sine * x + cosine * y, z: raw[3 * index + 2],
                    visibility: landmarks[index].visibility, presence: landmarks[index].presence))
        }
        return result
    }
}
