import PureVision

/// A line between two landmarks, by their indices: MediaPipe's `Connection` (`MPPConnection`), used by the
/// connection sets such as `HandLandmarker.handConnections`.
public final class Connection: Sendable {
    /// The index of the landmark the line starts at.
    public let start: UInt
    /// The index of the landmark the line ends at.
    public let end: UInt

    /// Creates a connection, as MediaPipe's `init(start:end:)`.
    public init(start: UInt, end: UInt) {
        self.start = start
        self.end = end
    }
}

extension Connection {
    /// Connections from index pairs (how the task files list their sets).
    static func list(_ pairs: [(UInt, UInt)]) -> [Connection] { pairs.map { Connection(start: $0.0, end: $0.1) } }

    /// Connections from PureVision's edges (the face and pose sets).
    static func list(_ edges: [LandmarkConnection]) -> [Connection] {
        edges.map { Connection(start: UInt($0.start), end: UInt($0.end)) }
    }
}
