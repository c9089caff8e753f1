#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The gesture embedder's three inputs, computed from one hand exactly as MediaPipe 0.10.14 prepares them
/// (`LandmarksToMatrixCalculator` twice and `HandednessToMatrixCalculator`, with the gesture graph's options), so
/// the embedder sees bit-identical tensors.
///
/// Each landmark tensor is `[1, 21, 3]`, landmark-major (`x0 y0 z0 x1 y1 z1 …`: MediaPipe's 3 × 21 matrix copied
/// column-major). The arithmetic mixes float and double exactly where the C++ does (its `0.5` literals are doubles).
public enum GestureEmbedderInput {
    /// Image landmarks → the embedder's `hand` input.
    ///
    /// 1. Aspect: `m = max(W, H)`, `sx = W/m`, `sy = H/m` (float); `x' = float((double(x) − 0.5)·sx + 0.5)`, y with
    ///    sy; z unchanged.
    /// 2. Rotation about (0.5, 0.5) by the image rotation (see `rotate`).
    /// 3. Wrist origin and scale (see `normalizeObject`).
    ///
    /// - Parameters:
    ///   - landmarks: the hand's 21 landmarks, normalized to the image.
    ///   - imageWidth: the input image's width in stored pixels (MediaPipe's `ImageProperties`, unrotated).
    ///   - imageHeight: the input image's height in stored pixels.
    ///   - rotation: the task's image rotation in radians (`−rotationDegrees·π/180`), not the hand region's.
    ///   - output: `3 · landmarks.count` floats.
    public static func imageLandmarks(
        _ landmarks: [NormalizedLandmark], imageWidth: Int, imageHeight: Int, rotation: Float,
        into output: UnsafeMutablePointer<Float>
    ) {
        let width = Float(imageWidth)
        let height = Float(imageHeight)
        let longest = max(width, height)
        let scaleX = Double(width / longest)
        let scaleY = Double(height / longest)
        for (i, p) in landmarks.enumerated() {
            output[3 * i] = Float((Double(p.x) - 0.5) * scaleX + 0.5)
            output[3 * i + 1] = Float((Double(p.y) - 0.5) * scaleY + 0.5)
            output[3 * i + 2] = p.z
        }
        rotate(output, count: landmarks.count, rotation: rotation)
        normalizeObject(output, count: landmarks.count)
    }

    /// World landmarks → the embedder's `world_hand` input: the same rotation about (0.5, 0.5) (applied to metres,
    /// as MediaPipe does; its round trip through `x − 0.5` quantizes the values) and object normalization, no
    /// aspect step.
    ///
    /// - Parameters:
    ///   - landmarks: the hand's 21 world landmarks, in metres.
    ///   - rotation: the task's image rotation in radians.
    ///   - output: `3 · landmarks.count` floats.
    public static func worldLandmarks(
        _ landmarks: [Landmark], rotation: Float, into output: UnsafeMutablePointer<Float>
    ) {
        for (i, p) in landmarks.enumerated() {
            output[3 * i] = p.x
            output[3 * i + 1] = p.y
            output[3 * i + 2] = p.z
        }
        rotate(output, count: landmarks.count, rotation: rotation)
        normalizeObject(output, count: landmarks.count)
    }

    /// Handedness → the embedder's `handedness` input: the probability of a right hand. "Right" gives its score,
    /// "Left" `1 − score` (float); labels compare case-insensitively.
    /// - Returns: nil when the label is neither or the score is outside [0.5, 1] (MediaPipe's error cases).
    public static func handedness(_ category: ResultCategory) -> Float? {
        guard category.score >= 0.5, category.score <= 1 else { return nil }
        switch category.categoryName?.lowercased() {
        case "right": return category.score
        case "left": return 1 - category.score
        default: return nil
        }
    }

    /// MediaPipe's `RotateLandmarks`: `c = cosf(r)`, `s = sinf(−r)`; `x₀ = float(double(x) − 0.5)`;
    /// `x'' = float(double(x₀·c − y₀·s) + 0.5)`, `y'' = float(double(y₀·c + x₀·s) + 0.5)` with float products.
    /// Runs even for r = 0, where the round trip still rounds.
    static func rotate(_ points: UnsafeMutablePointer<Float>, count: Int, rotation: Float) {
        let c = cosf(rotation)
        let s = sinf(-rotation)
        for i in 0..<count {
            let x = Float(Double(points[3 * i]) - 0.5)
            let y = Float(Double(points[3 * i + 1]) - 0.5)
            let rotatedX: Float = x * c - y * s
            let rotatedY: Float = y * c + x * s
            points[3 * i] = Float(Double(rotatedX) + 0.5)
            points[3 * i + 1] = Float(Double(rotatedY) + 0.5)
        }
    }

    /// MediaPipe's `NormalizeObject` with origin landmark 0 (the wrist): subtract it from x, y, z (float); scale =
    /// max(x extent, y extent) + 1e-5, with the max trackers starting at FLT_MIN as in the C++; divide x, y and z.
    static func normalizeObject(_ points: UnsafeMutablePointer<Float>, count: Int) {
        guard count > 0 else { return }
        let originX = points[0]
        let originY = points[1]
        let originZ = points[2]
        var bounds = PointBounds.emptyFromFLTMin
        for i in 0..<count {
            let x = points[3 * i] - originX
            let y = points[3 * i + 1] - originY
            points[3 * i] = x
            points[3 * i + 1] = y
            points[3 * i + 2] -= originZ
            bounds.include(x: x, y: y)
        }
        let scale: Float = max(bounds.maxX - bounds.minX, bounds.maxY - bounds.minY) + 1e-5
        for i in 0..<(3 * count) { points[i] /= scale }
    }
}
