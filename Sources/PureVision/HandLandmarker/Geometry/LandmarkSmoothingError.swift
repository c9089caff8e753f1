/// Why landmark smoothing refused its input.
public enum LandmarkSmoothingError: Error, Sendable, Equatable {
    /// A One Euro filter parameter is out of range; the message names the field and the value seen.
    case invalidParameters(String)
    /// Timestamps must strictly increase from one call to the next.
    case timestampNotIncreasing(previousMilliseconds: Int64, currentMilliseconds: Int64)
}
