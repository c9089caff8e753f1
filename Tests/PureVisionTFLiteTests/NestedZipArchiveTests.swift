import PureVisionTFLite
import PureVisionTestSupport
import Testing

/// `ZipArchive.nestedArchive(named:)`: bundles inside bundles, with leading bytes, damage and a depth limit.
@Suite struct NestedZipArchiveTests {
    /// MediaPipe's gesture bundle: both ZIP levels start 2–3 bytes in; entries are found from the end record.
    @Test func readsTheGestureBundlesNestedArchives() throws {
        let bytes = try Fixtures.bytes(atPath: Fixtures.model("gesture_recognizer.task"))
        #expect(Array(bytes.prefix(3)) == [0, 0, 0x50])
        let outer = try ZipArchive(bytes: bytes)
        #expect(outer.nestingDepth == 0)
        #expect(outer.names == ["hand_landmarker.task", "hand_gesture_recognizer.task"])
        let gestures = try outer.nestedArchive(named: "hand_gesture_recognizer.task")
        #expect(gestures.nestingDepth == 1)
        #expect(Array(gestures.bytes.prefix(4)) == [0, 0, 0, 0x50])
        #expect(gestures.names == ["gesture_embedder.tflite", "canned_gesture_classifier.tflite"])
        #expect(try gestures.data(named: "gesture_embedder.tflite").count == 546_000)
        #expect(try gestures.data(named: "canned_gesture_classifier.tflite").count == 7_773)
        let hands = try outer.nestedArchive(named: "hand_landmarker.task")
        #expect(try hands.data(named: "hand_detector.tflite").count == 2_339_878)
        #expect(try hands.data(named: "hand_landmarks_detector.tflite").count == 5_478_949)
    }

    /// Archives nested deeper than the limit are refused at the level past it, not followed.
    @Test func nestingDepthIsLimited() throws {
        var bytes = StoredZip.archive([("leaf.txt", Array("leaf".utf8))])
        let levels = ZipArchive.maximumNestingDepth + 2
        for _ in 0..<levels { bytes = [0, 0] + StoredZip.archive([("inner.zip", bytes)]) }
        var archive = try ZipArchive(bytes: bytes)
        for depth in 1...ZipArchive.maximumNestingDepth {
            archive = try archive.nestedArchive(named: "inner.zip")
            #expect(archive.nestingDepth == depth)
        }
        #expect(throws: ModelFormatError.self) { try archive.nestedArchive(named: "inner.zip") }
        do {
            _ = try archive.nestedArchive(named: "inner.zip")
        } catch {
            #expect("\(error)".contains("inner.zip"))
        }
    }

    /// A damaged inner archive is reported with the entry's name around the inner error.
    @Test func damagedInnerArchiveNamesTheEntry() throws {
        let inner = StoredZip.archive([("a.bin", Array(repeating: 1, count: 64))])
        for broken in [Array(inner.dropLast(5)), Array(repeating: 0, count: 40), []] {
            let outer = try ZipArchive(bytes: StoredZip.archive([("inner.task", broken)]))
            #expect {
                try outer.nestedArchive(named: "inner.task")
            } throws: { error in
                guard case .context(let place, let underlying) = error as? ModelFormatError else { return false }
                return place.contains("inner.task") && { if case .malformedZip = underlying { true } else { false } }()
            }
        }
        let outer = try ZipArchive(bytes: StoredZip.archive([("inner.task", inner)]))
        #expect(throws: ModelFormatError.missingZipEntry("other.task", available: ["inner.task"])) {
            try outer.nestedArchive(named: "other.task")
        }
    }
}
