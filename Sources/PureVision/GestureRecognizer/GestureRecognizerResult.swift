/// The hands and gestures found in one image or frame, in MediaPipe's shape.
///
/// `handedness`, `landmarks` and `worldLandmarks` hold one entry per hand. `gestures` holds one list per hand that
/// got a prediction, in hand order, each with one category: MediaPipe skips a hand whose classifiers' filtering left
/// nothing, so `gestures` can be shorter than the hand lists (use `hands` only when they have the same length), and
/// when no hand at all got a prediction the whole result is empty, hands included, as in MediaPipe.
public struct GestureRecognizerResult: Sendable, Hashable, Codable {
    /// Per recognized hand, one category: the gesture's name in `categoryName` (the classifier's label, which is
    /// "" for a classifier without labels), its score, and index −1 (MediaPipe's convention: the indices of two
    /// classifiers cannot be merged into one meaningful index). `displayName` is unset.
    public var gestures: [[ResultCategory]]
    /// Per hand, one category: index 0 "Right" or 1 "Left" with its score (MediaPipe Tasks' labels, naming the hand
    /// as it appears in the image).
    public var handedness: [[ResultCategory]]
    /// Per hand, 21 landmarks normalized to the image (wrist 0; thumb 1–4; index 5–8; middle 9–12; ring 13–16;
    /// pinky 17–20).
    public var landmarks: [[NormalizedLandmark]]
    /// Per hand, the 21 landmarks in metres, around the hand's approximate geometric centre.
    public var worldLandmarks: [[Landmark]]
    /// The frame's timestamp (0 in image mode).
    public var timestampInMilliseconds: Int
    /// Beyond MediaPipe: for each entry of `gestures`, the index of its hand in the hand lists (the two differ only
    /// when a hand got no prediction).
    public var gestureHandIndices: [Int]

    /// Creates a result from its fields; `gestureHandIndices` nil means gesture i belongs to hand i.
    public init(
        gestures: [[ResultCategory]], handedness: [[ResultCategory]], landmarks: [[NormalizedLandmark]],
        worldLandmarks: [[Landmark]], timestampInMilliseconds: Int, gestureHandIndices: [Int]? = nil
    ) {
        self.gestureHandIndices = gestureHandIndices ?? Array(gestures.indices)
        self.gestures = gestures
        self.handedness = handedness
        self.landmarks = landmarks
        self.worldLandmarks = worldLandmarks
        self.timestampInMilliseconds = timestampInMilliseconds
    }

    /// MediaPipe's index of every reported gesture.
    public static let gestureIndex = -1

    /// The hands as values, each with its gestures (empty for a hand without a prediction).
    public var hands: [Hand] {
        var gesturesOfHand = [[ResultCategory]](repeating: [], count: landmarks.count)
        for (position, hand) in gestureHandIndices.enumerated()
        where gesturesOfHand.indices.contains(hand) && gestures.indices.contains(position) {
            gesturesOfHand[hand] = gestures[position]
        }
        return landmarks.indices.map { i in
            Hand(
                gestures: gesturesOfHand[i], handedness: handedness.indices.contains(i) ? handedness[i].first : nil,
                landmarks: landmarks[i], worldLandmarks: worldLandmarks.indices.contains(i) ? worldLandmarks[i] : [])
        }
    }

    /// One hand with its gestures.
    public struct Hand: Sendable, Hashable {
        /// The hand's gesture categories (one, or none when the hand got no prediction).
        public var gestures: [ResultCategory]
        /// "Right" (index 0) or "Left" (index 1) with its score.
        public var handedness: ResultCategory?
        /// 21 landmarks normalized to the image.
        public var landmarks: [NormalizedLandmark]
        /// 21 landmarks in metres.
        public var worldLandmarks: [Landmark]
    }
}
