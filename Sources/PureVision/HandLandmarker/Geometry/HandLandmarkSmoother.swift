/// Smooths the landmarks of tracked hands over time with a One Euro filter per coordinate (see `OneEuroFilter`
/// for the math). Not part of MediaPipe's HandLandmarker: an opt-in post-process for video and live streams.
///
/// Hands are keyed by a caller-chosen track id that stays the same while a hand is tracked from frame to frame.
/// Each landmark's x, y and z are filtered independently with the same parameters. A track absent from a call
/// is forgotten, so a hand that reappears under the same id starts afresh.
public struct HandLandmarkSmoother: Sendable {
    /// The filter parameters (validated at creation).
    public let parameters: OneEuroFilterParameters
    private var tracks: [Int: Track] = [:]
    private var lastTimestampMilliseconds: Int64?

    /// Filter state of one hand: previous outputs and smoothed speeds, `(x, y, z)` per landmark, landmark-major.
    private struct Track: Sendable {
        var values: [Float]
        var derivatives: [Float]
    }

    /// Creates a smoother with no tracks.
    ///
    /// - Throws: `LandmarkSmoothingError.invalidParameters` when a parameter is out of range.
    public init(parameters: OneEuroFilterParameters = OneEuroFilterParameters()) throws(LandmarkSmoothingError) {
        try parameters.validate()
        self.parameters = parameters
    }

    /// The ids of the hands currently carrying filter history.
    public var trackIDs: Set<Int> { Set(tracks.keys) }

    /// Filters one frame's hands.
    ///
    /// A new track, a track whose landmark count changed, or one whose landmarks hold a non-finite coordinate is
    /// returned unchanged; the first two start a fresh history, the last keeps none (the next frame starts
    /// afresh). Tracks not in `hands` are forgotten.
    ///
    /// - Parameters:
    ///   - hands: image-normalized landmarks per track id (any number of landmarks, usually 21).
    ///   - timestampMilliseconds: the frame's timestamp; must be later than the previous call's.
    /// - Returns: the smoothed landmarks under the same track ids.
    /// - Throws: `LandmarkSmoothingError.timestampNotIncreasing` when the timestamp is not later than the
    ///   previous call's; the smoother is left unchanged.
    public mutating func smooth(
        _ hands: [Int: [NormalizedLandmark]], timestampMilliseconds: Int64
    ) throws(LandmarkSmoothingError) -> [Int: [NormalizedLandmark]] {
        var period: Float = 0
        if let last = lastTimestampMilliseconds {
            guard timestampMilliseconds > last else {
                throw .timestampNotIncreasing(previousMilliseconds: last, currentMilliseconds: timestampMilliseconds)
            }
            period = OneEuroFilter.period(from: last, to: timestampMilliseconds)
        }
        var nextTracks: [Int: Track] = [:]
        var result: [Int: [NormalizedLandmark]] = [:]
        for (trackID, landmarks) in hands {
            let isFinite = landmarks.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
            guard isFinite else {
                result[trackID] = landmarks
                continue
            }
            guard var track = tracks[trackID], track.values.count == 3 * landmarks.count else {
                nextTracks[trackID] = Track(
                    values: landmarks.flatMap { [$0.x, $0.y, $0.z] },
                    derivatives: [Float](repeating: 0, count: 3 * landmarks.count))
                result[trackID] = landmarks
                continue
            }
            result[trackID] = filter(landmarks, track: &track, period: period)
            nextTracks[trackID] = track
        }
        tracks = nextTracks
        lastTimestampMilliseconds = timestampMilliseconds
        return result
    }

    /// Forgets every track and the last timestamp.
    public mutating func reset() {
        tracks = [:]
        lastTimestampMilliseconds = nil
    }

    /// One step of every coordinate's filter; updates `track` in place.
    private func filter(_ landmarks: [NormalizedLandmark], track: inout Track, period: Float) -> [NormalizedLandmark] {
        let parameters = self.parameters
        var values = track.values
        var derivatives = track.derivatives
        track = Track(values: [], derivatives: [])
        var output = [NormalizedLandmark]()
        output.reserveCapacity(landmarks.count)
        values.withUnsafeMutableBufferPointer { values in
            derivatives.withUnsafeMutableBufferPointer { derivatives in
                landmarks.withUnsafeBufferPointer { input in
                    for index in input.indices {
                        let raw = input[index]
                        let slot = 3 * index
                        output.append(
                            NormalizedLandmark(
                                x: Self.update(raw.x, slot: slot, values, derivatives, period, parameters),
                                y: Self.update(raw.y, slot: slot + 1, values, derivatives, period, parameters),
                                z: Self.update(raw.z, slot: slot + 2, values, derivatives, period, parameters)
                            ))
                    }
                }
            }
        }
        track = Track(values: values, derivatives: derivatives)
        return output
    }

    /// Filters one coordinate with the state in `values[slot]`, `derivatives[slot]` and stores the new state.
    private static func update(
        _ value: Float, slot: Int,
        _ values: UnsafeMutableBufferPointer<Float>, _ derivatives: UnsafeMutableBufferPointer<Float>,
        _ period: Float, _ parameters: OneEuroFilterParameters
    ) -> Float {
        let (filtered, derivative) = OneEuroFilter.step(
            value, previous: values[slot], previousDerivative: derivatives[slot],
            period: period, parameters: parameters)
        values[slot] = filtered
        derivatives[slot] = derivative
        return filtered
    }
}
