/// MediaPipe 0.10.14's `LowPassFilter` (`mediapipe/util/filtering/low_pass_filter.cc`): the first value passes
/// through; after that `float(float(α·v) + (1.0 − α)·stored)`, the second product and the sum in double.
struct MediaPipeLowPassFilter {
    private(set) var alpha: Float
    private(set) var lastRawValue: Float = 0
    private(set) var storedValue: Float = 0
    private(set) var isInitialized = false

    init(alpha: Float) {
        self.alpha = 0
        setAlpha(alpha)
    }

    /// Sets α unless it is outside [0, 1] (MediaPipe logs an error and keeps the previous α).
    mutating func setAlpha(_ newAlpha: Float) {
        guard newAlpha >= 0, newAlpha <= 1 else { return }
        alpha = newAlpha
    }

    mutating func apply(_ value: Float) -> Float {
        let result: Float
        if isInitialized {
            result = Float(Double(alpha * value) + (1.0 - Double(alpha)) * Double(storedValue))
        } else {
            result = value
            isInitialized = true
        }
        lastRawValue = value
        storedValue = result
        return result
    }

    mutating func apply(_ value: Float, alpha newAlpha: Float) -> Float {
        setAlpha(newAlpha)
        return apply(value)
    }
}

/// MediaPipe 0.10.14's `OneEuroFilter` (`mediapipe/util/filtering/one_euro_filter.cc`), with its numeric quirks:
/// state in double except the two low-pass filters (float); the frequency is re-estimated from the timestamps only
/// when neither the previous nor the new timestamp is 0 (a sequence starting at t = 0 filters its second sample at
/// the initial frequency); the derivative is `(value − last raw value) · valueScale · frequency`.
struct MediaPipeOneEuroFilter {
    private var frequency: Double
    private let minCutoff: Double
    private let beta: Double
    private let derivativeCutoff: Double
    private var x: MediaPipeLowPassFilter
    private var dx: MediaPipeLowPassFilter
    private var lastTimeNanoseconds = Int64.min

    init(frequency: Double, minCutoff: Double, beta: Double, derivativeCutoff: Double) {
        self.frequency = frequency
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
        x = MediaPipeLowPassFilter(alpha: Float(Self.alpha(cutoff: minCutoff, frequency: frequency)))
        dx = MediaPipeLowPassFilter(alpha: Float(Self.alpha(cutoff: derivativeCutoff, frequency: frequency)))
    }

    /// `1 / (1 + τ/Tₑ)` with `Tₑ = 1/frequency`, `τ = 1/(2π·cutoff)`, in double.
    private static func alpha(cutoff: Double, frequency: Double) -> Double {
        let te = 1.0 / frequency
        let tau = 1.0 / (2 * Double.pi * cutoff)
        return 1.0 / (1.0 + tau / te)
    }

    /// Filters one sample; a timestamp not after the previous one returns the value unfiltered.
    mutating func apply(timestampNanoseconds: Int64, valueScale: Double, value: Double) -> Double {
        guard lastTimeNanoseconds < timestampNanoseconds else { return value }
        if lastTimeNanoseconds != 0 && timestampNanoseconds != 0 {
            // The first call's difference from Int64.min wraps, as in the C++; that frequency only shapes the first
            // sample's α, and the first sample passes through.
            frequency = 1.0 / (Double(timestampNanoseconds &- lastTimeNanoseconds) * 1e-9)
        }
        lastTimeNanoseconds = timestampNanoseconds
        let derivative = x.isInitialized ? (value - Double(x.lastRawValue)) * valueScale * frequency : 0.0
        let derivativeAlpha = Float(Self.alpha(cutoff: derivativeCutoff, frequency: frequency))
        let smoothedDerivative = Double(dx.apply(Float(derivative), alpha: derivativeAlpha))
        let cutoff = minCutoff + beta * abs(smoothedDerivative)
        return Double(x.apply(Float(value), alpha: Float(Self.alpha(cutoff: cutoff, frequency: frequency))))
    }
}

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
