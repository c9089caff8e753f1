/// The landmark smoothing MediaPipe's FaceLandmarker applies in video and live-stream modes when `numFaces` is 1
/// (`LandmarksSmoothingCalculator` with a `OneEuroFilter`, `face_landmarks_detector_graph.cc`): one 1€ filter per
/// coordinate, frequency 30, min_cutoff 0.05, beta 80, derivate_cutoff 1, velocities scaled by the inverse of the
/// face's size in pixels.
///
/// Reproduces MediaPipe 0.10.14's arithmetic (`one_euro_filter.cc`, `low_pass_filter.cc`,
/// `landmarks_smoothing_calculator_utils.cc`): landmarks go to pixels (`x·W`, `y·H`, `z·W`, float), are filtered
/// in double with float low-pass state, and come back (`÷W`, `÷H`, `÷W`). min_cutoff is the proto's float 0.05
/// widened to double. Unlike this project's opt-in `OneEuroFilter`, this one is MediaPipe's own.
struct FaceLandmarkSmoother: Sendable {
    static let frequency: Double = 30
    static let minCutoff = Double(Float(0.05))
    static let beta: Double = 80
    static let derivativeCutoff: Double = 1
    static let minAllowedObjectScale: Float = 1e-6

    /// MediaPipe's `LowPassFilter`: float state, `α·v` in float plus `(1 − α)·stored` in double.
    struct LowPass: Sendable {
        var isInitialized = false
        var rawValue: Float = 0
        var storedValue: Float = 0

        mutating func apply(_ value: Float, alpha: Float) -> Float {
            let result: Float
            if isInitialized {
                result = Float(Double(alpha * value) + (1.0 - Double(alpha)) * Double(storedValue))
            } else {
                result = value
                isInitialized = true
            }
            rawValue = value
            storedValue = result
            return result
        }
    }

    /// MediaPipe's `OneEuroFilter` for one coordinate.
    struct Filter: Sendable {
        var x = LowPass()
        var dx = LowPass()
        var frequency = FaceLandmarkSmoother.frequency
        /// Nanoseconds; starts below any timestamp.
        var lastTime = Int64.min

        mutating func apply(timeNanoseconds: Int64, valueScale: Double, value: Double) -> Double {
            if lastTime >= timeNanoseconds { return value }
            if lastTime != 0 && timeNanoseconds != 0 {
                // The difference of two timestamps in range never overflows here: lastTime > Int64.min was set by
                // an earlier sample of the same (non-negative) stream.
                frequency = 1.0 / (Double(timeNanoseconds &- lastTime) * 1e-9)
            }
            lastTime = timeNanoseconds
            let derivative = x.isInitialized ? (value - Double(x.rawValue)) * valueScale * frequency : 0.0
            let smoothedDerivative = Double(
                dx.apply(Float(derivative), alpha: Float(alpha(cutoff: FaceLandmarkSmoother.derivativeCutoff))))
            let cutoff = FaceLandmarkSmoother.minCutoff + FaceLandmarkSmoother.beta * abs(smoothedDerivative)
            return Double(x.apply(Float(value), alpha: Float(alpha(cutoff: cutoff))))
        }

        func alpha(cutoff: Double) -> Double {
            let te = 1.0 / frequency
            let tau = 1.0 / (2 * Double.pi * cutoff)
            return 1.0 / (1.0 + tau / te)
        }
    }

    /// One filter per coordinate, `[x, y, z]` per landmark; empty until the first frame.
    private var filters: [Filter] = []

    /// Forgets the history (MediaPipe resets when a frame has no face).
    mutating func reset() { filters = [] }

    /// The smoothed landmarks of one frame.
    mutating func smooth(
        _ landmarks: [NormalizedLandmark], timestampInMilliseconds: Int, imageWidth: Int, imageHeight: Int
    ) -> [NormalizedLandmark] {
        guard !landmarks.isEmpty else { return landmarks }
        if filters.count != 3 * landmarks.count {
            filters = [Filter](repeating: Filter(), count: 3 * landmarks.count)
        }
        let width = Float(imageWidth)
        let height = Float(imageHeight)
        var pixels = landmarks.map { NormalizedLandmark(x: $0.x * width, y: $0.y * height, z: $0.z * width) }
        var minX = pixels[0].x
        var maxX = pixels[0].x
        var minY = pixels[0].y
        var maxY = pixels[0].y
        for point in pixels {
            if point.x < minX { minX = point.x }
            if point.x > maxX { maxX = point.x }
            if point.y < minY { minY = point.y }
            if point.y > maxY { maxY = point.y }
        }
        let objectScale = ((maxX - minX) + (maxY - minY)) / 2
        guard objectScale >= Self.minAllowedObjectScale else { return landmarks }
        let valueScale = Double(1 / objectScale)
        let time = Int64(timestampInMilliseconds).multipliedReportingOverflow(by: 1_000_000)
        let nanoseconds = time.overflow ? Int64.max : time.partialValue
        for i in pixels.indices {
            pixels[i].x = Float(
                filters[3 * i].apply(
                    timeNanoseconds: nanoseconds, valueScale: valueScale, value: Double(pixels[i].x)))
            pixels[i].y = Float(
                filters[3 * i + 1].apply(
                    timeNanoseconds: nanoseconds, valueScale: valueScale, value: Double(pixels[i].y)))
            pixels[i].z = Float(
                filters[3 * i + 2].apply(
                    timeNanoseconds: nanoseconds, valueScale: valueScale, value: Double(pixels[i].z)))
        }
        return pixels.map { NormalizedLandmark(x: $0.x / width, y: $0.y / height, z: $0.z / width) }
    }
}
