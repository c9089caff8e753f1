import Foundation
import PureVisionTestSupport
import Testing

/// `purevision` as a Unix filter: paths streamed on standard input, results flushed per line in input order, bad
/// inputs reported in place while the run goes on, and video from YUV4MPEG2 streams. Runs the built binary.
@Suite struct BatchModeTests {
    static let hands = "PureVisionTests/Fixtures/hands/"

    @Test func eachResultArrivesBeforeTheNextPathIsWritten() throws {
        let process = try CLIProcess(["classify", "-", "--json", "--max-results", "1"])
        for name in ["hand_src.jpg", "hand_dst.jpg"] {
            let path = Fixtures.testFile(Self.hands + name)
            try process.writeLine(path)
            // The next path is written only after this line came back: the run streams and flushes.
            let line = try #require(process.readLine(), "no result for \(name) before the input ended")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["image"] as? String == path)
            #expect((object["classifications"] as? [Any])?.count == 1)
        }
        process.closeInput()
        #expect(process.readLine() == nil)
        #expect(process.wait() == 0)
    }

    @Test func badInputsGiveErrorLinesAndTheRunGoesOn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pv-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jpeg = try Fixtures.bytes(atPath: Fixtures.testFile(Self.hands + "hand_src.jpg"))
        let truncated = directory.appendingPathComponent("truncated.jpg").path
        _ = FileManager.default.createFile(atPath: truncated, contents: Data(jpeg.prefix(jpeg.count / 3)))
        let text = directory.appendingPathComponent("notes.txt").path
        _ = FileManager.default.createFile(atPath: text, contents: Data("not an image\n".utf8))
        let good = Fixtures.testFile(Self.hands + "hand_dst.jpg")
        let missing = directory.appendingPathComponent("missing.png").path
        let list = directory.appendingPathComponent("paths.txt").path
        _ = FileManager.default.createFile(
            atPath: list, contents: Data([good, missing, truncated, "", text, good].joined(separator: "\n").utf8))

        let run = try CLIProcess.run(["hands", "--paths-from", list, "--json"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "one line per non-blank input: \(run.stdout)")
        let objects = try lines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["image"] as? String } == [good, missing, truncated, text, good])
        let kinds = objects.map { ($0["error"] as? [String: Any])?["kind"] as? String }
        #expect(kinds == [nil, "unreadable", "notAnImage", "notAnImage", nil])
        #expect(objects[0]["hands"] != nil && objects[4]["hands"] != nil)
        #expect(run.status == 1)
        #expect(run.stderr.contains("5 input(s), 3 failed"))
    }

    @Test func jobsGiveTheSameLinesAsASerialRun() throws {
        let names = ["hand_src.jpg", "hand_dst.jpg", "clock_hands.jpeg", "hand_src_rot90.png", "palm_up_rot90.png"]
        let paths = names.map { Fixtures.testFile(Self.hands + $0) }
        let serial = try CLIProcess.run(["hands", "--json"] + paths)
        let parallel = try CLIProcess.run(["hands", "--json", "--jobs", "2"] + paths)
        #expect(serial.status == 0 && parallel.status == 0)
        #expect(serial.stdout.split(separator: "\n").count == names.count)
        #expect(parallel.stdout == serial.stdout)
    }

    @Test func videoFromAY4MStreamHasFramesAndTimestamps() throws {
        let clip = Fixtures.testFile("PureVisionImageTests/Fixtures/y4m/yuv420_34x26_ntsc.y4m")
        let fromFile = try CLIProcess.run(["hands", "--mode", "video", clip, "--json"])
        #expect(fromFile.status == 0)
        let objects = try fromFile.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["frame"] as? Int } == [0, 1, 2])
        #expect(objects.map { $0["timestampMs"] as? Int } == [0, 33, 66])
        #expect(objects.allSatisfy { $0["width"] as? Int == 34 && $0["height"] as? Int == 26 })

        let fromStdin = try CLIProcess.run(
            ["hands", "--mode", "video", "-", "--json"], input: try Fixtures.bytes(atPath: clip))
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdout.split(separator: "\n").count == 3)
    }

    @Test func aDamagedY4MStreamEndsWithAnErrorLine() throws {
        var clip = try Fixtures.bytes(
            atPath: Fixtures.testFile("PureVisionImageTests/Fixtures/y4m/yuv420_34x26_ntsc.y4m"))
        clip.removeLast(100)
        let run = try CLIProcess.run(["hands", "--mode", "video", "-", "--json"], input: clip)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.last?.contains(#""error":{"kind":"notAnImage""#) == true)
        #expect(run.status == 1)
    }

    @Test func humanReadableClassifyShowsTheTopFive() throws {
        let run = try CLIProcess.run(["classify", Fixtures.testFile(Self.hands + "hand_src.jpg")])
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 1 + 5)
    }

    @Test(arguments: [
        (["hands", "--jobs", "0", "x.png"], "--jobs takes a whole number ≥ 1"),
        (["hands", "--mode", "video", "--jobs", "2", "x.png"], "--jobs must be 1 in video mode"),
        (["hands", "-", "x.png"], "cannot be mixed"),
        (["hands"], "hands needs at least one IMAGE"),
    ])
    func badBatchOptionsAreUsageErrors(_ arguments: [String], _ message: String) throws {
        let run = try CLIProcess.run(arguments)
        #expect(run.status == 1)
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
    }
}
