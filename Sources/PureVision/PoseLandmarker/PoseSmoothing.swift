/// The smoothing MediaPipe's pose graph applies to pose 0 in video and live-stream modes when `num_poses` is 1
/// (`SinglePoseLandmarksDetectorGraph` with `smooth_landmarks`):
/// - normalized landmarks: `VisibilitySmoothingCalculator` (low-pass α 0.1) then `LandmarksSmoothingCalculator`
///   with a One Euro filter (min cutoff 0.05, beta 80, derivative cutoff 1, 30 Hz initially) on pixel coordinates
///   (x·W, y·H, z·W) scaled by 1 / object scale, the object scale being `(w·W + h·H) / 2` of this frame's
///   next-frame region; reset when a frame has no pose;
/// - world landmarks: visibility low-pass α 0.1, then One Euro (min cutoff 0.1, beta 40, derivative cutoff 1)
///   without value scaling; never reset, so after a gap they continue from their old state.
struct PoseLandmarkSmoother {
    static let visibilityAlpha: Float = 0.1
    static let landmarkParameters = (minCutoff: Double(Float(0.05)), beta: Double(Float(80)), derivativeCutoff: 1.0)
    static let worldParameters = (minCutoff: Double(Float(0.1)), beta: Double(Float(40)), derivativeCutoff: 1.0)
    static let initialFrequency = 30.0
    static let minAllowedObjectScale: Float = 1e-6

    private var landmarkVisibility: [MediaPipeLowPassFilter] = []
    private var worldVisibility: [MediaPipeLowPassFilter] = []
    private var landmarkFilters: [MediaPipeOneEuroFilter] = []
    private var worldFilters: [MediaPipeOneEuroFilter] = []

    /// A frame without a pose: only the normalized-landmark One Euro filters start over.
    mutating func resetForMissingPose() {
        landmarkFilters = []
    }

    /// Smooths one frame's pose 0.
    mutating func smooth(
        landmarks: [NormalizedLandmark], world: [Landmark], objectRegion: NormalizedRect,
        imageWidth: Int, imageHeight: Int, timestampInMilliseconds: Int
    ) -> (landmarks: [NormalizedLandmark], world: [Landmark]) {
        let timestamp = Int64(timestampInMilliseconds).multipliedReportingOverflow(by: 1_000_000).partialValue
        var smoothedLandmarks = landmarks
        var smoothedWorld = world

        Self.smoothVisibility(&smoothedLandmarks, filters: &landmarkVisibility) {
            $0.visibility
        } set: {
            $0.visibility = $1
        }
        Self.smoothVisibility(&smoothedWorld, filters: &worldVisibility) {
            $0.visibility
        } set: {
            $0.visibility = $1
        }

        let width = Float(imageWidth)
        let height = Float(imageHeight)
        if landmarkFilters.count != 3 * landmarks.count {
            landmarkFilters = Self.filters(count: 3 * landmarks.count, Self.landmarkParameters)
        }
        let objectScale = (objectRegion.width * width + objectRegion.height * height) / 2
        if objectScale >= Self.minAllowedObjectScale {
            let valueScale = Double(1 / objectScale)
            for index in smoothedLandmarks.indices {
                let point = smoothedLandmarks[index]
                let x = landmarkFilters[3 * index].apply(
                    timestampNanoseconds: timestamp, valueScale: valueScale, value: Double(point.x * width))
                let y = landmarkFilters[3 * index + 1].apply(
                    timestampNanoseconds: timestamp, valueScale: valueScale, value: Double(point.y * height))
                let z = landmarkFilters[3 * index + 2].apply(
                    timestampNanoseconds: timestamp, valueScale: valueScale, value: Double(point.z * width))
                smoothedLandmarks[index].x = Float(x) / width
                smoothedLandmarks[index].y = Float(y) / height
                smoothedLandmarks[index].z = Float(z) / width
            }
        }

        if worldFilters.count != 3 * world.count {
            worldFilters = Self.filters(count: 3 * world.count, Self.worldParameters)
        }
        for index in smoothedWorld.indices {
            let point = smoothedWorld[index]
            smoothedWorld[index].x = Float(
                worldFilters[3 * index].apply(timestampNanoseconds: timestamp, valueScale: 1, value: Double(point.x)))
            smoothedWorld[index].y = Float(
                worldFilters[3 * index + 1].apply(
                    timestampNanoseconds: timestamp, valueScale: 1, value: Double(point.y)))
            smoothedWorld[index].z = Float(
                worldFilters[3 * index + 2].apply(
                    timestampNanoseconds: timestamp, valueScale: 1, value: Double(point.z)))
        }
        return (smoothedLandmarks, smoothedWorld)
    }

    private static func filters(
        count: Int, _ parameters: (minCutoff: Double, beta: Double, derivativeCutoff: Double)
    ) -> [MediaPipeOneEuroFilter] {
        Array(
            repeating: MediaPipeOneEuroFilter(
                frequency: initialFrequency, minCutoff: parameters.minCutoff, beta: parameters.beta,
                derivativeCutoff: parameters.derivativeCutoff), count: count)
    }

    private static func smoothVisibility<Point>(
        _ points: inout [Point], filters: inout [MediaPipeLowPassFilter], get: (Point) -> Float?,
        set: (inout Point, Float) -> Void
    ) {
        if filters.count != points.count {
            filters = Array(repeating: MediaPipeLowPassFilter(alpha: visibilityAlpha), count: points.count)
        }
        for index in points.indices {
            set(&points[index], filters[index].apply(get(points[index]) ?? 0))
        }
    }
}
