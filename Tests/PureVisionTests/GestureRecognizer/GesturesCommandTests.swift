import Foundation
import PureVisionImage
import PureVisionTestSupport
import Testing

/// `purevision gestures`, run as the built executable (it sits next to the test bundle in `.build/<configuration>/`),
/// against the MediaPipe goldens of `tools/make_gesture_goldens.py`.
@Suite struct GesturesCommandTests {
    static let handsDirectory = Fixtures.testFile("PureVisionTests/Fixtures/hands")

    /// Runs the CLI from the package root; returns its standard output and exit status.
    static func purevision(_ arguments: [String]) throws -> (output: String, status: Int32) {
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let candidates = [buildDirectory, buildDirectory.deletingLastPathComponent()].map {
            $0.appendingPathComponent("purevision").path
        }
        let executable = try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
            "the purevision executable is not next to the test bundle (\(candidates))")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.packageRoot()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    /// MediaPipe's image-mode result for `image` with the standard bundle, default options and `numHands`.
    static func golden(_ image: String, numHands: Int) throws -> [String: Any] {
        let path = Fixtures.testFile("PureVisionTests/Fixtures/gestures/gestures_image.json")
        let data = try #require(FileManager.default.contents(atPath: path))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let results = try #require(root["results"] as? [[String: Any]])
        return try #require(
            results.first { entry in
                let options = entry["options"] as? [String: Any] ?? [:]
                return entry["image"] as? String == image && entry["bundle"] as? String == "standard"
                    && options["num_hands"] as? Int == numHands && options["rotation_degrees"] as? Int == 0
                    && (options["canned"] as? [String: Any])?.isEmpty == true
            })
    }

    @Test func jsonLinesMatchMediaPipe() throws {
        let images = ["composite_src_dst.png", "hand_dst.jpg"]
        let (output, status) = try Self.purevision(
            ["gestures"] + images.map { Self.handsDirectory + "/" + $0 } + ["--num-hands", "2", "--json"])
        #expect(status == 0)
        let lines = output.split(separator: "\n")
        #expect(lines.count == images.count)
        for (line, image) in zip(lines, images) {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(json.keys) == ["image", "width", "height", "timestampMs", "hands"])
            #expect(json["image"] as? String == Self.handsDirectory + "/" + image, "the path as given")
            #expect(json["timestampMs"] as? Int == 0)
            let golden = try Self.golden(image, numHands: 2)
            #expect(json["width"] as? Int == golden["width"] as? Int)
            #expect(json["height"] as? Int == golden["height"] as? Int)
            let hands = try #require(json["hands"] as? [[String: Any]])
            let goldenHands = try #require(golden["hands"] as? [[String: Any]])
            let goldenGestures = try #require(golden["gestures"] as? [[[String: Any]]])
            #expect(hands.count == goldenHands.count)
            #expect(goldenGestures.count == goldenHands.count)
            for (i, hand) in hands.enumerated() where i < goldenHands.count {
                #expect(Set(hand.keys) == ["gestures", "handedness", "landmarks", "worldLandmarks"])
                let gesture = try #require((hand["gestures"] as? [[String: Any]])?.first)
                #expect(Set(gesture.keys) == ["index", "score", "categoryName"])
                let expected = goldenGestures[i][0]
                #expect(gesture["index"] as? Int == -1)
                #expect(gesture["categoryName"] as? String == expected["category_name"] as? String)
                let score = try #require(gesture["score"] as? Double)
                #expect(abs(score - (expected["score"] as? Double ?? -1)) <= 1e-4)
                let handedness = try #require(hand["handedness"] as? [String: Any])
                let expectedHandedness = try #require(goldenHands[i]["handedness"] as? [String: Any])
                #expect(handedness["categoryName"] as? String == expectedHandedness["category_name"] as? String)
                #expect(handedness["index"] as? Int == expectedHandedness["index"] as? Int)
                let landmarks = try #require(hand["landmarks"] as? [[Double]])
                let world = try #require(hand["worldLandmarks"] as? [[Double]])
                #expect(landmarks.count == 21 && world.count == 21)
                #expect(landmarks.allSatisfy { $0.count == 3 } && world.allSatisfy { $0.count == 3 })
                let goldenLandmarks = try #require(goldenHands[i]["landmarks"] as? [[Double]])
                let error = zip(landmarks, goldenLandmarks).map { max(abs($0[0] - $1[0]), abs($0[1] - $1[1])) }.max()
                #expect((error ?? 1) <= 1e-3)
            }
        }
    }

    @Test func textVideoModeAndSkeletonImages() throws {
        let frames = (0..<3).map { Self.handsDirectory + String(format: "/video/frame_%03d.png", $0) }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("purevision-gestures-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (output, status) = try Self.purevision(["gestures"] + frames + ["--mode", "video", "--out", directory])
        #expect(status == 0)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains("1 hand(s)") && $0.contains("hand)") })
        for index in 0..<3 {
            let path = directory + String(format: "/frame_%03d_gestures.png", index)
            let drawn = try PixelImage(contentsOfFile: path)
            let original = try PixelImage(contentsOfFile: frames[index])
            #expect(drawn.width == original.width && drawn.height == original.height)
        }
        #expect(try Self.purevision(["gestures"]).status != 0)
        #expect(try Self.purevision(["gestures", frames[0], "--num-hands", "0"]).status != 0)
        #expect(
            try Self.purevision(["gestures", frames[0], "--model", Fixtures.model("hand_landmarker.task")]).status != 0)
    }
}
