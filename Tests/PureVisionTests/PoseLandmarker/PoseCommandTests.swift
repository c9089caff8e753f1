import Foundation
import PureVision
import PureVisionCore
import PureVisionImage
import PureVisionTestSupport
import Testing

/// `purevision pose` end to end: the built CLI binary (built by `swift test` beside the test bundle) on a fixture,
/// its `--json` line against the library's result, and the files `--out` writes.
@Suite struct PoseCommandTests {
    static let fixtures = Fixtures.testFile("PureVisionTests/Fixtures/pose")

    /// The `purevision` executable next to this test bundle's.
    static func executable() throws -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = me.deletingLastPathComponent()
        // The test runner may live inside `<name>.xctest/`; the CLI sits in the build directory.
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("purevision").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw FixtureError.missing("purevision executable beside \(me.path)")
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.packageRoot()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func jsonLinesAndOutputFiles() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("pose-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let images = ["composite_two.png", "sports2d.png"].map { Self.fixtures + "/" + $0 }
        let (status, output) = try Self.run(
            ["pose"] + images + ["--num-poses", "2", "--segmentation-masks", "--json", "--out", out])
        #expect(status == 0)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)

        let landmarker = try PoseLandmarker(
            options: PoseLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("pose_landmarker_full.task")), numPoses: 2,
                outputSegmentationMasks: true))
        for (line, path) in zip(lines, images) {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            let image = try PixelImage(contentsOfFile: path)
            let name = (path as NSString).lastPathComponent
            #expect(Set(object.keys) == ["image", "width", "height", "timestampMs", "poses"])
            #expect(object["image"] as? String == path)
            #expect(object["width"] as? Int == image.width && object["height"] as? Int == image.height)
            #expect(object["timestampMs"] as? Int == 0)
            let poses = object["poses"] as? [[String: Any]] ?? []
            let expected = try landmarker.detect(image: image)
            #expect(poses.count == expected.landmarks.count)
            for (pose, index) in zip(poses, poses.indices) {
                #expect(Set(pose.keys) == ["landmarks", "worldLandmarks"])
                let landmarks = pose["landmarks"] as? [[Double]] ?? []
                let world = pose["worldLandmarks"] as? [[Double]] ?? []
                #expect(landmarks.count == 33 && world.count == 33)
                #expect(landmarks.allSatisfy { $0.count == 5 } && world.allSatisfy { $0.count == 5 })
                for (value, landmark) in zip(landmarks, expected.landmarks[index]) {
                    #expect(Float(value[0]) == landmark.x && Float(value[1]) == landmark.y)
                    #expect(Float(value[3]) == landmark.visibility && Float(value[4]) == landmark.presence)
                }
                for (value, landmark) in zip(world, expected.worldLandmarks[index]) {
                    #expect(Float(value[2]) == landmark.z)
                }
                let stem = (name as NSString).deletingPathExtension
                let mask = try Fixtures.numpy(atPath: "\(out)/\(stem)_pose\(index)_mask.npy")
                #expect(mask.elementType == .float32)
                #expect(mask.shape.dimensions == [image.height, image.width])
                #expect(mask.floats == expected.segmentationMasks?[index].values)
                let overlay = try PixelImage(contentsOfFile: "\(out)/\(stem)_pose\(index)_mask.png")
                #expect(overlay.width == image.width && overlay.height == image.height)
            }
            let drawing = try PixelImage(contentsOfFile: "\(out)/\((name as NSString).deletingPathExtension)_pose.png")
            #expect(drawing.width == image.width && drawing.height == image.height)
        }
        // The composite has two people, the backlit frame none (as MediaPipe finds).
        #expect(lines.first.map { $0.components(separatedBy: "\"landmarks\"").count - 1 } == 2)
        #expect(lines.last?.hasSuffix("\"poses\":[]}") == true)
    }

    @Test func badArgumentsFail() throws {
        #expect(try Self.run(["pose"]).status != 0)
        #expect(try Self.run(["pose", Self.fixtures + "/obama.png", "--num-poses", "0"]).status != 0)
        #expect(try Self.run(["pose", Self.fixtures + "/obama.png", "--mode", "sideways"]).status != 0)
        #expect(try Self.run(["pose", Self.fixtures + "/missing.png"]).status != 0)
    }
}
