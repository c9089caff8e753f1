/// The landmark smoothing MediaPipe's FaceLandmarker applies in video and live-stream modes when `numFaces` is 1
/// (`LandmarksSmoothingCalculator` with a `OneEuroFilter`, `face_landmarks_detector_graph.cc`): one 1€ filter per
/// coordinate, frequency 30, min_cutoff 0.05, beta 80, derivate_cutoff 1, velocities scaled by the inverse of the
/// face's size in pixels.
///
/// Reproduces MediaPipe 0.10.14's arithmetic (`one_euro_filter.cc`, `low_pass_filter.cc`,
/// `landmarks_smoothing_calculator_utils.cc`): landmarks go to pixels (`x·W`, `y·H`, `z·W`, float), are filtered
/// in double with float low-pass state, and come back (`÷W`, `÷H`, `÷W`). min_cutoff is the proto's float 0.05
/// widened to double. The filter is ``MediaPipeOneEuroFilter``, the pose smoother's too; unlike this project's opt-in
/// `OneEuroFilter`, it is MediaPipe's own.
struct FaceLandmarkSmoother: Sendable {
    static let frequency: Double = 30
    static let minCutoff = Double(Float(0.05))
    static let beta: Double = 80
    static let derivativeCutoff: Double = 1
    static let minAllowedObjectScale: Float = 1e-6

    /// One filter per coordinate, `[x, y, z]` per landmark; empty until the first frame.
    private var filters: [MediaPipeOneEuroFilter] = []

    /// Forgets the history (MediaPipe resets when a frame has no face).
    mutating func reset() { filters = [] }

    /// The smoothed landmarks of one frame.
    mutating func smooth(
        _ landmarks: [NormalizedLandmark], timestampInMilliseconds: Int, imageWidth: Int, imageHeight: Int
    ) -> [NormalizedLandmark] {
        guard !landmarks.isEmpty else { return landmarks }
        if filters.count != 3 * landmarks.count {
            let filter = MediaPipeOneEuroFilter(
                frequency: Self.frequency, minCutoff: Self.minCutoff, beta: Self.beta,
                derivativeCutoff: Self.derivativeCutoff)
            filters = [MediaPipeOneEuroFilter](repeating: filter, count: 3 * landmarks.count)
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
                    timestampNanoseconds: nanoseconds, valueScale: valueScale, value: Double(pixels[i].x)))
            pixels[i].y = Float(
                filters[3 * i + 1].apply(
                    timestampNanoseconds: nanoseconds, valueScale: valueScale, value: Double(pixels[i].y)))
            pixels[i].z = Float(
                filters[3 * i + 2].apply(
                    timestampNanoseconds: nanoseconds, valueScale: valueScale, value: Double(pixels[i].z)))
        }
        return pixels.map { NormalizedLandmark(x: $0.x / width, y: $0.y / height, z: $0.z / width) }
    }
}
