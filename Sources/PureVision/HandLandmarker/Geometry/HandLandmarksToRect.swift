#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The next frame's hand ROI from this frame's landmarks, as MediaPipe 0.10.14's `HandLandmarksToRectCalculator`
/// followed by the `RectTransformationCalculator` of `HandLandmarksDetectorGraph`.
public enum HandLandmarksToRect {
    /// The landmarks the calculator keeps from a full hand: wrist, thumb CMC/MCP/IP and the MCP and PIP joints
    /// of the four fingers. Finger tips move too much to bound a stable box.
    public static let partialLandmarkIndices = [0, 1, 2, 3, 5, 6, 9, 10, 13, 14, 17, 18]

    /// The rotation target: `M_PI * 0.5f` rounded to float (the wrist-to-fingers vector ends up pointing up).
    static let targetAngle = Float(Double.pi * 0.5)

    /// The rotated rect that bounds a hand's stable landmarks, before any expansion (MediaPipe's
    /// `HandLandmarksToRectCalculator`). Use `trackingRect` for the ROI the next frame is cropped with.
    ///
    /// With 21 landmarks the 12 `partialLandmarkIndices` are used; any other count is taken to be that partial
    /// set already (MediaPipe's legacy input). In the partial set, wrist = 0, index MCP = 4, middle MCP = 6,
    /// ring MCP = 8. All arithmetic is float32 in the C++'s order:
    /// - rotation `θ = NormalizeRadians(π/2 − atan2f(−(y₁ − y₀), x₁ − x₀))`, from the wrist `(x₀, y₀)` to
    ///   `((lm4 + lm8) / 2 + lm6) / 2`, both in pixels;
    /// - the axis-aligned centre `c` of the landmarks, then each landmark's pixel offset from `c` rotated by
    ///   `NormalizeRadians(−θ)`, and the bounds of those;
    /// - centre = the bounds' centre rotated back by θ plus `c` in pixels, size = the bounds' size; then
    ///   normalized by the image size.
    ///
    /// The bounds' maxima start at `FLT_MIN` (the smallest positive normal float), not `−FLT_MAX`, as in
    /// MediaPipe: when every value is negative the maximum stays `FLT_MIN`. The quirk is kept for bit-exactness.
    ///
    /// - Parameters:
    ///   - landmarks: image-normalized landmarks (21, or the 12-landmark partial set).
    ///   - imageWidth: image width in pixels.
    ///   - imageHeight: image height in pixels.
    /// - Returns: the rect; a zero rect (all fields 0) when fewer than 9 landmarks are given, where MediaPipe
    ///   would read out of bounds.
    public static func nextRect(landmarks: [NormalizedLandmark], imageWidth: Int, imageHeight: Int) -> NormalizedRect {
        let partial: [NormalizedLandmark]
        if landmarks.count == HandLandmarkDecoding.landmarkCount {
            partial = partialLandmarkIndices.map { landmarks[$0] }
        } else if landmarks.count >= 9 {
            partial = landmarks
        } else {
            return NormalizedRect(xCenter: 0, yCenter: 0, width: 0, height: 0)
        }
        let width = Float(imageWidth)
        let height = Float(imageHeight)
        let rotation = self.rotation(partialLandmarks: partial, width: width, height: height)
        let reverseAngle = DetectionsToRects.normalizeRadians(-rotation)

        return partial.withUnsafeBufferPointer { points in
            let aligned = PointBounds.of(points, from: .emptyFromFLTMin)
            let alignedCenterX = (aligned.maxX + aligned.minX) / 2
            let alignedCenterY = (aligned.maxY + aligned.minY) / 2

            let reverseCosine = cosf(reverseAngle)
            let reverseSine = sinf(reverseAngle)
            var projected = PointBounds.emptyFromFLTMin
            for point in points {
                let originalX = (point.x - alignedCenterX) * width
                let originalY = (point.y - alignedCenterY) * height
                projected.include(
                    x: originalX * reverseCosine - originalY * reverseSine,
                    y: originalX * reverseSine + originalY * reverseCosine)
            }
            let (minX, minY, maxX, maxY) = (projected.minX, projected.minY, projected.maxX, projected.maxY)
            let projectedCenterX = (maxX + minX) / 2
            let projectedCenterY = (maxY + minY) / 2

            let cosine = cosf(rotation)
            let sine = sinf(rotation)
            let centerX = projectedCenterX * cosine - projectedCenterY * sine + width * alignedCenterX
            let centerY = projectedCenterX * sine + projectedCenterY * cosine + height * alignedCenterY
            return NormalizedRect(
                xCenter: centerX / width, yCenter: centerY / height,
                width: (maxX - minX) / width, height: (maxY - minY) / height,
                rotation: rotation
            )
        }
    }

    /// The ROI the next frame's landmarks are computed in: `nextRect` expanded as `HandLandmarksDetectorGraph`
    /// does, by `RectTransformation` with scale 2.0 × 2.0, shift_y −0.1 (along the rotated axes) and
    /// square_long. The result is square in pixels.
    ///
    /// - Parameters:
    ///   - landmarks: image-normalized landmarks (21, or the 12-landmark partial set).
    ///   - imageWidth: image width in pixels.
    ///   - imageHeight: image height in pixels.
    public static func trackingRect(
        landmarks: [NormalizedLandmark], imageWidth: Int, imageHeight: Int
    ) -> NormalizedRect {
        RectTransformation.transform(
            nextRect(landmarks: landmarks, imageWidth: imageWidth, imageHeight: imageHeight),
            imageWidth: imageWidth, imageHeight: imageHeight,
            scaleX: 2, scaleY: 2, shiftY: -0.1, squareLong: true
        )
    }

    /// `NormalizeRadians(π/2 − atan2f(−(y₁ − y₀), x₁ − x₀))` on the partial set, in pixels.
    static func rotation(partialLandmarks landmarks: [NormalizedLandmark], width: Float, height: Float) -> Float {
        let x0 = landmarks[0].x * width
        let y0 = landmarks[0].y * height
        var x1 = (landmarks[4].x + landmarks[8].x) / 2
        var y1 = (landmarks[4].y + landmarks[8].y) / 2
        x1 = (x1 + landmarks[6].x) / 2 * width
        y1 = (y1 + landmarks[6].y) / 2 * height
        return DetectionsToRects.normalizeRadians(targetAngle - atan2f(-(y1 - y0), x1 - x0))
    }
}
