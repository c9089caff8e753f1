/// An edge between two landmarks of one hand, face or body, by index, for drawing: the pairs of MediaPipe's
/// connection sets (`FaceLandmarksConnections`, `LandmarkConnection.poseLandmarks`).
public struct LandmarkConnection: Sendable, Hashable, Codable {
    /// The landmark the edge starts at.
    public var start: Int
    /// The landmark the edge ends at.
    public var end: Int

    /// Creates an edge.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}

/// An edge between two of the 478 face landmarks (`FaceLandmarksConnections`).
public typealias FaceLandmarkConnection = LandmarkConnection

/// An edge between two of the 33 pose landmarks (`LandmarkConnection.poseLandmarks`).
public typealias PoseConnection = LandmarkConnection
