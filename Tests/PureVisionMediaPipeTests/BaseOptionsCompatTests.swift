import Foundation
import PureVisionMediaPipe
import Testing

/// `BaseOptions.modelAssetPath` takes what `Bundle.main.path(forResource:ofType:)` returns (a `String?`), as
/// MediaPipe's guides write, and still reads as a `String`, as code written against MediaPipe's property does.
@Suite struct BaseOptionsCompatTests {
    @Test func acceptsAnOptionalPathAndReadsAsAString() throws {
        let options = PureVisionMediaPipe.HandLandmarkerOptions()
        // The guides' two lines; the bundle has no such resource here, so the path is nil.
        let modelPath = Bundle.main.path(forResource: "hand_landmarker", ofType: "task")
        options.baseOptions.modelAssetPath = modelPath
        let afterNil: String = options.baseOptions.modelAssetPath
        #expect(modelPath == nil && afterNil == "", "nil is stored as the empty default")

        let somePath: String? = CompatFixtures.handBundle
        options.baseOptions.modelAssetPath = somePath
        let read: String = options.baseOptions.modelAssetPath
        #expect(read == CompatFixtures.handBundle && !options.baseOptions.modelAssetPath.isEmpty)

        options.baseOptions.modelAssetPath = CompatFixtures.handBundle
        #expect(options.baseOptions.modelAssetPath.hasSuffix("hand_landmarker.task"))
        // A path assigned from an optional loads the model, as the plain `String` does.
        let landmarker = try PureVisionMediaPipe.HandLandmarker(options: options)
        _ = landmarker
    }

    @Test func aNilPathIsRefusedAtCreation() {
        let options = PureVisionMediaPipe.HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = nil
        #expect(throws: (any Error).self) { try PureVisionMediaPipe.HandLandmarker(options: options) }
    }
}
