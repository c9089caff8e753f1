import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Smiling and eyes-open scores on the real photos: the astronaut smiles, Grace Hopper's expression is neutral,
/// every photo has open eyes.
@Suite struct FaceClassificationTests {
    static func scores(_ file: String) throws -> Face {
        let faces = try FaceTestImages.analyzer(classify: true).results(in: try FaceTestImages.photo(file))
        try #require(faces.count == 1)
        let face = faces[0]
        print(
            "\(file): smiling \(face.smilingProbability ?? -1), left eye open \(face.leftEyeOpenProbability ?? -1), "
                + "right eye open \(face.rightEyeOpenProbability ?? -1)")
        return face
    }

    @Test func smilingFaceScoresAboveNeutralFace() throws {
        let astronaut = try Self.scores("astronaut.png")
        let hopper = try Self.scores("grace_hopper.jpg")
        #expect(try #require(astronaut.smilingProbability) > 0.5)
        #expect(try #require(hopper.smilingProbability) < 0.5)
    }

    @Test func openEyesScoreAboveHalf() throws {
        for file in ["astronaut.png", "grace_hopper.jpg", "opencvdoc_face.jpg"] {
            let face = try Self.scores(file)
            #expect(try #require(face.leftEyeOpenProbability) > 0.5, "\(file)")
            #expect(try #require(face.rightEyeOpenProbability) > 0.5, "\(file)")
        }
    }

    @Test func closingTheLidsOfARealMeshClosesTheEye() throws {
        // The astronaut's mesh with the right eye's upper lid points moved onto the lower lid ones.
        var mesh = try Self.scores("astronaut.png").meshLandmarks
        for (upper, lower) in [(159, 145), (158, 153), (160, 144)] { mesh[upper] = mesh[lower] }
        let scores = try #require(FaceClassification.probabilities(mesh: mesh, imageWidth: 512, imageHeight: 512))
        #expect(scores.rightEyeOpen < 0.01)
        #expect(scores.leftEyeOpen > 0.5)
        #expect(
            FaceClassification.probabilities(mesh: Array(mesh.prefix(100)), imageWidth: 512, imageHeight: 512) == nil)
    }
}
