import Foundation
import PureVisionTestSupport
import Testing

/// `purevision face-landmarks`: the JSON line format of the issue and the `--out` picture, through the built
/// executable.
@Suite struct FaceLandmarksCommandTests {
    /// Two committed photos (sizes from `Fixtures/faces/images.json`) with one and two faces.
    static let photos: [(path: String, width: Int, height: Int, faces: Int)] = [
        (Fixtures.testFile("PureVisionTests/Fixtures/faces/grace_hopper_scale50.png"), 256, 300, 1),
        (Fixtures.testFile("PureVisionTests/Fixtures/faces/composite_two_face_crops.png"), 352, 192, 2),
    ]

    @Test func jsonLinesFollowTheIssuesFormat() throws {
        let outcome = try CLIProcess.run(
            ["face-landmarks"] + Self.photos.map(\.path) + [
                "--num-faces", "2", "--blendshapes", "--matrices", "--json",
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        for (line, photo) in zip(lines, Self.photos) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["image", "width", "height", "timestampMs", "faces"])
            #expect(object["image"] as? String == photo.path)
            #expect(object["width"] as? Int == photo.width && object["height"] as? Int == photo.height)
            #expect(object["timestampMs"] as? Int == 0)
            let faces = object["faces"] as? [[String: Any]] ?? []
            #expect(faces.count == photo.faces)
            for face in faces {
                #expect(Set(face.keys) == ["landmarks", "blendshapes", "transformationMatrix"])
                let landmarks = face["landmarks"] as? [[Double]] ?? []
                #expect(landmarks.count == 478 && landmarks.allSatisfy { $0.count == 3 })
                let blendshapes = face["blendshapes"] as? [[String: Any]] ?? []
                #expect(blendshapes.count == 52)
                #expect(blendshapes.first.map { Set($0.keys) } == ["index", "score", "categoryName"])
                #expect(blendshapes.first?["categoryName"] as? String == "_neutral")
                let matrix = face["transformationMatrix"] as? [Double] ?? []
                #expect(matrix.count == 16 && Array(matrix.suffix(4)) == [0, 0, 0, 1])
            }
        }

        // Without --blendshapes / --matrices only the landmarks are listed.
        let plain = try CLIProcess.run(["face-landmarks", Self.photos[0].path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        let face = try #require((object["faces"] as? [[String: Any]])?.first)
        #expect(Set(face.keys) == ["landmarks"])
    }

    @Test func outWritesAnAnnotatedPicture() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("purevision-face-landmarks-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let photo = Self.photos[0]
        let outcome = try CLIProcess.run(["face-landmarks", photo.path, "--out", directory, "--blendshapes"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("grace_hopper_scale50.png: 1 face(s)"))
        let written = try Fixtures.bytes(atPath: directory + "/grace_hopper_scale50_face_landmarks.png")
        // A PNG of the photo's size (IHDR width and height, big-endian, at bytes 16 and 20) with drawing on it.
        #expect(written.count > 24 && written[1...3] == [0x50, 0x4E, 0x47])
        let width = written[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = written[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == photo.width && height == photo.height)
        #expect(written != (try Fixtures.bytes(atPath: photo.path)))
    }

    @Test func badArgumentsFail() throws {
        #expect(try CLIProcess.run(["face-landmarks", Self.photos[0].path, "--num-faces", "0"]).status != 0)
        #expect(try CLIProcess.run(["face-landmarks", Self.photos[0].path, "--mode", "stream"]).status != 0)
        #expect(try CLIProcess.run(["face-landmarks", "/nonexistent/face.png"]).status != 0)
    }
}
