/// Gives faces identifiers that persist across frames, by overlap of their frames (ML Kit's tracking IDs come from
/// position and motion, not recognition).
///
/// Each call matches this frame's faces to the previous call's: every pair with an IoU of at least
/// `minimumOverlap` is a candidate, and candidates are taken greedily from the highest IoU down, each face and
/// each previous track at most once. A matched face keeps its track's ID; any other face gets a new ID (never
/// reused). Tracks not matched in a frame end.
public struct FaceTracker: Sendable {
    /// The IoU a face must have with its previous frame to keep its ID. In (0, 1].
    public let minimumOverlap: Float
    private var tracks: [(id: Int, frame: PixelRect)] = []
    private var nextID = 0

    /// Creates a tracker with no tracks; IDs start at 0.
    public init(minimumOverlap: Float = 0.3) {
        self.minimumOverlap = minimumOverlap
    }

    /// The tracking IDs of `frames` (one per frame, same order), updating the tracks.
    public mutating func update(_ frames: [PixelRect]) -> [Int] {
        var candidates: [(overlap: Float, face: Int, track: Int)] = []
        for (face, frame) in frames.enumerated() {
            for (track, previous) in tracks.enumerated() {
                let overlap = frame.intersectionOverUnion(previous.frame)
                if overlap >= minimumOverlap { candidates.append((overlap, face, track)) }
            }
        }
        // Ties break by face then track index, so the result does not depend on sort stability.
        candidates.sort { ($0.overlap, -$0.face, -$0.track) > ($1.overlap, -$1.face, -$1.track) }
        var ids = [Int?](repeating: nil, count: frames.count)
        var usedTracks = Set<Int>()
        for candidate in candidates where ids[candidate.face] == nil && !usedTracks.contains(candidate.track) {
            ids[candidate.face] = tracks[candidate.track].id
            usedTracks.insert(candidate.track)
        }
        let assigned = ids.map { id -> Int in
            if let id { return id }
            defer { nextID += 1 }
            return nextID
        }
        tracks = zip(assigned, frames).map { (id: $0, frame: $1) }
        return assigned
    }
}
