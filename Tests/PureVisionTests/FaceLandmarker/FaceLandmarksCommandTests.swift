import Foundation
import PureVisionImage
import PureVisionTestSupport
import Testing

/// `purevision face-landmarks`: the JSON line format of the issue and the `--out` picture, through the built
/// executable (SwiftPM builds it beside the test bundle).
@Suite struct FaceLandmarksCommandTests {
    /// The `purevision` executable of the same build as the tests.
    static func executable() throws -> String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = Fixtures.packageRoot()
        let candidates = [
            beside.appendingPathComponent("purevision").path,
            beside.deletingLastPathComponent().appendingPathComponent("purevision").path,
            root.appendingPathComponent(".build/release/purevision").path,
            root.appendingPathComponent(".build/debug/purevision").path,
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw FixtureError.missing("purevision executable (build the package first); looked at \(candidates)")
        }
        return found
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.packageRoot()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let photos = [
        Fixtures.testFile("PureVisionTests/Fixtures/faces/grace_hopper_scale50.png"),
        Fixtures.testFile("PureVisionTests/Fixtures/faces/composite_two_face_crops.png"),
    ]

    @Test func jsonLinesFollowTheIssuesFormat() throws {
        let (status, output) = try Self.run(
            ["face-landmarks"] + Self.photos + ["--num-faces", "2", "--blendshapes", "--matrices", "--json"])
        #expect(status == 0)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 2)
        var faceCounts: [Int] = []
        for (line, path) in zip(lines, Self.photos) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["image", "width", "height", "timestampMs", "faces"])
            #expect(object["image"] as? String == (path as NSString).lastPathComponent)
            let image = try PixelImage(contentsOfFile: path)
            #expect(object["width"] as? Int == image.width && object["height"] as? Int == image.height)
            #expect(object["timestampMs"] as? Int == 0)
            let faces = object["faces"] as? [[String: Any]] ?? []
            faceCounts.append(faces.count)
            for face in faces {
                #expect(Set(face.keys) == ["landmarks", "blendshapes", "transformationMatrix"])
                let landmarks = face["landmarks"] as? [[Double]] ?? []
                #expect(landmarks.count == 478 && landmarks.allSatisfy { $0.count == 3 })
                let blendshapes = face["blendshapes"] as? [[String: Any]] ?? []
                #expect(blendshapes.count == 52)
                #expect(blendshapes.first.map { Set($0.keys) } == ["index", "score", "categoryName"])
                #expect(blendshapes.first?["categoryName"] as? String == "_neutral")
                #expect((face["transformationMatrix"] as? [Double])?.count == 16)
                #expect((face["transformationMatrix"] as? [Double]).map { Array($0[12...]) } == [0, 0, 0, 1])
            }
        }
        #expect(faceCounts == [1, 2])

        // Without --blendshapes / --matrices only the landmarks are listed.
        let (_, plain) = try Self.run(["face-landmarks", Self.photos[0], "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(plain.utf8)) as? [String: Any])
        let face = try #require((object["faces"] as? [[String: Any]])?.first)
        #expect(Set(face.keys) == ["landmarks"])
    }

    @Test func outWritesAnAnnotatedPicture() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("purevision-face-landmarks-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, output) = try Self.run(["face-landmarks", Self.photos[0], "--out", directory, "--blendshapes"])
        #expect(status == 0)
        #expect(output.contains("grace_hopper_scale50.png: 1 face(s)"))
        let picture = try PixelImage(contentsOfFile: directory + "/grace_hopper_scale50_face_landmarks.png")
        let original = try PixelImage(contentsOfFile: Self.photos[0])
        #expect(picture.width == original.width && picture.height == original.height)
        // The contours are drawn: the picture is not the photo.
        let drawn = picture.withUnsafePixels { Array($0) }
        let photo = original.withUnsafePixels { Array($0) }
        #expect(picture.format == original.format && drawn != photo)
    }

    @Test func badArgumentsFail() throws {
        #expect(try Self.run(["face-landmarks"]).status != 0)
        #expect(try Self.run(["face-landmarks", Self.photos[0], "--num-faces", "0"]).status != 0)
        #expect(try Self.run(["face-landmarks", Self.photos[0], "--mode", "stream"]).status != 0)
    }
}
