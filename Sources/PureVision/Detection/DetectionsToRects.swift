#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which keypoints define a detection's rotation, and the angle that vector should end up at
/// (MediaPipe's `rotation_vector_*` options of `DetectionsToRectsCalculator`).
public struct RotationVector: Sendable, Hashable {
    /// Index of the keypoint the vector starts at.
    public var startKeypointIndex: Int
    /// Index of the keypoint the vector ends at.
    public var endKeypointIndex: Int
    /// Target angle in radians (counter-clockwise from the +x axis, y up).
    public var targetAngle: Float

    /// Creates a rotation vector with a target angle in radians (`rotation_vector_target_angle`).
    public init(startKeypointIndex: Int, endKeypointIndex: Int, targetAngle: Float) {
        self.startKeypointIndex = startKeypointIndex
        self.endKeypointIndex = endKeypointIndex
        self.targetAngle = targetAngle
    }

    /// Creates a rotation vector with a target angle in degrees (`rotation_vector_target_angle_degrees`),
    /// converted as MediaPipe does: `π · degrees / 180` in double, rounded to float.
    public static func degrees(startKeypointIndex: Int, endKeypointIndex: Int, targetAngle: Float) -> Self {
        RotationVector(
            startKeypointIndex: startKeypointIndex, endKeypointIndex: endKeypointIndex,
            targetAngle: Float(Double.pi * Double(targetAngle) / Double(Float(180)))
        )
    }

    /// The Tasks palm detector: wrist centre (0) to middle-finger MCP (2), target **90 radians**.
    ///
    /// `HandDetectorGraph` sets the radians field to 90 where 90° (π/2) was meant; MediaPipe 0.10.14 runs
    /// with 90 rad (≡ 2.0354 rad), and matching its hand ROIs requires the same value.
    public static let palmDetection = RotationVector(startKeypointIndex: 0, endKeypointIndex: 2, targetAngle: 90)

    /// The face detector's internal face rect: right eye (0) to left eye (1), target 0°.
    public static let faceDetection = RotationVector.degrees(
        startKeypointIndex: 0, endKeypointIndex: 1, targetAngle: 0
    )
}

/// Converts detections to rotated normalized rects, as MediaPipe's `DetectionsToRectsCalculator` does for
/// relative boxes and `NORM_RECT(S)` outputs.
public enum DetectionsToRects {
    /// The unrotated rect of a detection's box: centre `xMin + width / 2` (y likewise), same size.
    public static func rect(of detection: NormalizedDetection) -> NormalizedRect {
        NormalizedRect(
            xCenter: detection.xMin + detection.width / 2,
            yCenter: detection.yMin + detection.height / 2,
            width: detection.width, height: detection.height
        )
    }

    /// The rect of a detection, rotated by `rotationVector` when one is given.
    ///
    /// - Throws: `DetectionError.keypointIndexOutOfRange` when the detection lacks a named keypoint.
    public static func rect(
        of detection: NormalizedDetection, rotationVector: RotationVector?, imageWidth: Int, imageHeight: Int
    ) throws(DetectionError) -> NormalizedRect {
        var result = rect(of: detection)
        if let rotationVector {
            result.rotation = try rotation(
                of: detection, rotationVector: rotationVector, imageWidth: imageWidth, imageHeight: imageHeight)
        }
        return result
    }

    /// One rect per detection, in order. MediaPipe's `output_zero_rect_for_empty_detections` sentinel is not
    /// produced: no detections give no rects.
    public static func rects(
        of detections: [NormalizedDetection], rotationVector: RotationVector?, imageWidth: Int, imageHeight: Int
    ) throws(DetectionError) -> [NormalizedRect] {
        var rects: [NormalizedRect] = []
        rects.reserveCapacity(detections.count)
        for detection in detections {
            rects.append(
                try rect(
                    of: detection, rotationVector: rotationVector, imageWidth: imageWidth, imageHeight: imageHeight))
        }
        return rects
    }

    /// The rotation that turns the start→end keypoint vector to the target angle:
    /// `NormalizeRadians(target − atan2f(−(y₁ − y₀), x₁ − x₀))`, with keypoints scaled to pixels in float.
    ///
    /// - Throws: `DetectionError.keypointIndexOutOfRange` when the detection lacks a named keypoint.
    public static func rotation(
        of detection: NormalizedDetection, rotationVector: RotationVector, imageWidth: Int, imageHeight: Int
    ) throws(DetectionError) -> Float {
        let keypoints = detection.keypoints
        for index in [rotationVector.startKeypointIndex, rotationVector.endKeypointIndex]
        where !keypoints.indices.contains(index) {
            throw .keypointIndexOutOfRange(index: index, keypointCount: keypoints.count)
        }
        let width = Float(imageWidth)
        let height = Float(imageHeight)
        let start = keypoints[rotationVector.startKeypointIndex]
        let end = keypoints[rotationVector.endKeypointIndex]
        let x0 = start.x * width
        let y0 = start.y * height
        let x1 = end.x * width
        let y1 = end.y * height
        return normalizeRadians(rotationVector.targetAngle - atan2f(-(y1 - y0), x1 - x0))
    }

    /// Wraps an angle to [−π, π): `a − 2π·floor((a + π) / 2π)`, evaluated in double (MediaPipe's `M_PI` is a
    /// double) and rounded to float.
    public static func normalizeRadians(_ angle: Float) -> Float {
        let a = Double(angle)
        return Float(a - 2 * Double.pi * ((a - -Double.pi) / (2 * Double.pi)).rounded(.down))
    }
}
