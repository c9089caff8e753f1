import Foundation
import PureVisionTestSupport
import Testing

/// `purevision objects`, `embed` and `similarity`, run as the built executable (it sits next to the test bundle in
/// `.build/<configuration>/`), against the MediaPipe goldens of `tools/make_detector_goldens.py` (the replay
/// goldens: MediaPipe's post-processing on the engine's raw outputs, see `ObjectDetectorParityTests`) and
/// `tools/make_embedder_goldens.py`.
@Suite struct DetectorEmbedderCommandTests {
    static let detectorDirectory = Fixtures.testFile("PureVisionTests/Fixtures/detector")

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

    static func goldenRuns(_ file: String, _ key: String) throws -> [[String: Any]] {
        let data = try #require(FileManager.default.contents(atPath: file))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(root[key] as? [[String: Any]])
    }

    @Test func objectsJSONKeepsMediaPipeDefaults() throws {
        let image = "skimage_chelsea.png"
        let (output, status) = try Self.purevision(["objects", Self.detectorDirectory + "/" + image, "--json"])
        #expect(status == 0)
        let line = try #require(output.split(separator: "\n").first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(json["image"] as? String == Self.detectorDirectory + "/" + image, "the path as given")
        #expect(json["width"] as? Int == 400)
        let detections = try #require(json["detections"] as? [[String: Any]])
        let golden = try #require(
            try Self.goldenRuns(Self.detectorDirectory + "/detector_efficientdet.json", "runs").first {
                $0["image"] as? String == image && ($0["options"] as? [String: Any])?.isEmpty == true
            })
        let rows = try #require(golden["detections"] as? [[Any]])
        // Every suppression survivor, as MediaPipe's default.
        #expect(detections.count == rows.count)
        let first = try #require(detections.first)
        #expect(first["boundingBox"] as? [Int] == rows[0].prefix(4).compactMap { $0 as? Int })
        let category = try #require((first["categories"] as? [[String: Any]])?.first)
        #expect(category["categoryName"] as? String == rows[0][5] as? String)
        #expect(category["index"] as? Int == 16)
    }

    @Test func objectsHumanOutputShowsTheTopFive() throws {
        let path = Self.detectorDirectory + "/opencv_basketball1.png"
        let (output, status) = try Self.purevision(["objects", path])
        #expect(status == 0)
        let lines = output.split(separator: "\n")
        #expect(lines.first.map(String.init) == "\(path): 5 object(s)")
        #expect(lines.count == 6)
        #expect(lines.dropFirst().first?.contains("person") == true)
        let (limited, _) = try Self.purevision([
            "objects", Self.detectorDirectory + "/opencv_basketball1.png", "--max-results", "2", "--deny", "person",
        ])
        #expect(limited.split(separator: "\n").count == 3)
        #expect(!limited.contains("person"))
    }

    @Test func embedJSONAndSimilarity() throws {
        let embedder = Fixtures.testFile("PureVisionTests/Fixtures/embedder/embedder_efficientnet.json")
        let (output, status) = try Self.purevision([
            "embed", Self.detectorDirectory + "/fr_obama.png", "--l2-normalize", "--quantize", "--json",
        ])
        #expect(status == 0)
        let line = try #require(output.split(separator: "\n").first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let head = try #require((json["embeddings"] as? [[String: Any]])?.first)
        #expect(head["headName"] as? String == "embedding")
        #expect(head["floatEmbedding"] == nil)
        let bytes = try #require(head["quantizedEmbedding"] as? [Int])
        let golden = try #require(
            try Self.goldenRuns(embedder, "runs").first {
                $0["image"] as? String == "fr_obama.png"
                    && ($0["options"] as? [String: Any])?["l2_normalize"] as? Bool == true
                    && ($0["options"] as? [String: Any])?["quantize"] as? Bool == true
            })
        let reference = try #require(
            ((golden["embeddings"] as? [[String: Any]])?.first)?["quantized_embedding"] as? [Int])
        #expect(bytes.count == reference.count)
        #expect(zip(bytes, reference).allSatisfy { abs($0 - $1) <= 1 })

        let pair = try #require(
            try Self.goldenRuns(embedder, "similarities").first {
                ($0["options"] as? [String: Any])?["quantize"] as? Bool == false
                    && ($0["options"] as? [String: Any])?["l2_normalize"] as? Bool == false
            })
        let images = try #require(pair["images"] as? [String])
        let (similarity, similarityStatus) = try Self.purevision(
            ["similarity"] + images.map { Self.detectorDirectory + "/" + $0 })
        #expect(similarityStatus == 0)
        let value = try #require(Double(similarity.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(abs(value - (pair["similarity"] as? Double ?? .nan)) <= 1e-6)
        let (_, badStatus) = try Self.purevision(["similarity", Self.detectorDirectory + "/fr_obama.png"])
        #expect(badStatus != 0)
    }
}
