import PureVisionTFLite

/// The model files of a `gesture_recognizer.task` bundle, read through its nested ZIPs.
///
/// Layout (MediaPipe's `GestureRecognizerGraph` and `HandGestureRecognizerGraph`, exact entry names):
/// - `hand_landmarker.task`: the hand landmarker's bundle (`hand_detector.tflite`, `hand_landmarks_detector.tflite`);
/// - `hand_gesture_recognizer.task`: `gesture_embedder.tflite`, `canned_gesture_classifier.tflite`, and
///   `custom_gesture_classifier.tflite` when the bundle comes from MediaPipe Model Maker (the custom classifier is
///   used exactly when that entry exists).
///
/// The nested archives do not start at byte 0 (2–3 leading bytes); `ZipArchive` finds their entries through the end
/// of central directory record.
struct GestureRecognizerBundle {
    /// The bytes of the nested `hand_landmarker.task`.
    var handLandmarker: [UInt8]
    var embedder: [UInt8]
    var cannedClassifier: [UInt8]
    var customClassifier: [UInt8]?

    static let handLandmarkerEntry = "hand_landmarker.task"
    static let gestureRecognizerEntry = "hand_gesture_recognizer.task"
    static let embedderEntry = "gesture_embedder.tflite"
    static let cannedClassifierEntry = "canned_gesture_classifier.tflite"
    static let customClassifierEntry = "custom_gesture_classifier.tflite"

    /// Reads the bundle.
    /// - Throws: `VisionTaskError.model` naming the entry that is missing or damaged (and, for a missing one, what
    ///   the archive holds instead).
    init(bytes: [UInt8]) throws(VisionTaskError) {
        let outer: ZipArchive
        do { outer = try ZipArchive(bytes: bytes) } catch { throw .model("gesture recognizer bundle: \(error)") }
        handLandmarker = Array(try Self.entry(Self.handLandmarkerEntry, of: outer, in: "the gesture recognizer bundle"))
        let inner: ZipArchive
        do {
            inner = try outer.nestedArchive(named: Self.gestureRecognizerEntry)
        } catch {
            throw .model("gesture recognizer bundle, entry \(Self.gestureRecognizerEntry): \(error)")
        }
        let place = Self.gestureRecognizerEntry
        embedder = Array(try Self.entry(Self.embedderEntry, of: inner, in: place))
        cannedClassifier = Array(try Self.entry(Self.cannedClassifierEntry, of: inner, in: place))
        customClassifier =
            inner.names.contains(Self.customClassifierEntry)
            ? Array(try Self.entry(Self.customClassifierEntry, of: inner, in: place)) : nil
    }

    private static func entry(_ name: String, of archive: ZipArchive, in place: String) throws(VisionTaskError)
        -> ArraySlice<UInt8>
    {
        do {
            return try archive.data(named: name)
        } catch .missingZipEntry(_, let available) {
            throw .model(
                "\(place) has no entry \(name) (it holds: \(available.joined(separator: ", "))); "
                    + "is this a gesture recognizer bundle?")
        } catch {
            throw .model("\(place), entry \(name): \(error)")
        }
    }
}
