import Foundation
import PureVisionImage
import PureVisionTestSupport
import Testing

/// `--video-out`: the annotated YUV4MPEG2 stream of `--mode video`. Its header and frame count are the input's; away
/// from the drawings (the pixels the `--out` PNG of the same frame changed) every plane equals the input's within 2
/// levels; a damaged input ends the stream after the last whole frame, with an error and exit status 1.
@Suite(.timeLimit(.minutes(10))) struct VideoOutTests {
    static let committedClip = CLI.fixture("PureVisionImageTests/Fixtures/y4m/yuv420_34x26_ntsc.y4m")
    static let handFrames = (0..<3).map { CLI.fixture("PureVisionTests/Fixtures/hands/video/frame_00\($0).png") }
    /// A header with every kind of parameter ffmpeg writes, which the output must repeat unchanged.
    static let handClipHeader = "YUV4MPEG2 W320 H240 F30000:1001 Ip A1:1 C420jpeg XYSCSS=420JPEG"

    /// The hand video frames (committed PNGs) as a 4:2:0 YUV4MPEG2 clip, video range.
    static func handClip() throws -> [UInt8] {
        var clip = Array((handClipHeader + "\n").utf8)
        for path in handFrames {
            let yuv = try PixelImage(contentsOfFile: path).converted(toYUV: .i420, encoding: .videoBT601)
            let planes = try #require(
                yuv.withUnsafeYUVPlanes { p -> [UInt8] in
                    var bytes: [UInt8] = []
                    for row in 0..<yuv.height { bytes += (0..<yuv.width).map { p.luma[row * p.lumaBytesPerRow + $0] } }
                    for plane in [p.u, p.v] {
                        for row in 0..<(yuv.height / 2) {
                            bytes += (0..<(yuv.width / 2)).map { plane[row * p.uBytesPerRow + $0] }
                        }
                    }
                    return bytes
                })
            clip += Array("FRAME\n".utf8) + planes
        }
        return clip
    }

    /// Every frame of a YUV4MPEG2 stream, and its header line.
    static func frames(of bytes: [UInt8]) throws -> (headerLine: String, frames: [Y4MFrame]) {
        var stream = try Y4MStream(source: Y4MMemorySource(bytes))
        var frames: [Y4MFrame] = []
        while let frame = try stream.nextFrame() { frames.append(frame) }
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        return (String(decoding: line, as: UTF8.self), frames)
    }

    /// Checks one output frame against its input frame and the `--out` drawing of it: outside the drawn pixels (and,
    /// for chroma, outside the 2 × 2 blocks that hold one) every level is within 2 of the input's. Returns how many
    /// pixels the drawing changed.
    @discardableResult
    static func expectUnchangedAwayFromDrawing(
        _ output: Y4MFrame, _ input: Y4MFrame, drawing: PixelImage?, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        let (width, height) = (input.header.width, input.header.height)
        var drawn = [Bool](repeating: false, count: width * height)
        if let drawing {
            let before = try PixelImage(y4mFrame: input).converted(to: .rgb8)
            let after = drawing.converted(to: .rgb8)
            try #require(after.width == width && after.height == height, sourceLocation: sourceLocation)
            let a = before.withUnsafePixels { Array($0) }
            let b = after.withUnsafePixels { Array($0) }
            for pixel in 0..<(width * height) {
                let (ra, rb) = (pixel / width * before.bytesPerRow, pixel / width * after.bytesPerRow)
                let column = pixel % width * 3
                drawn[pixel] = (0..<3).contains { a[ra + column + $0] != b[rb + column + $0] }
            }
        }
        var lumaOff = 0
        for pixel in 0..<(width * height) where !drawn[pixel] && abs(Int(output.y[pixel]) - Int(input.y[pixel])) > 2 {
            lumaOff += 1
        }
        var chromaOff = 0
        let chromaWidth = (width + 1) / 2
        for row in 0..<((height + 1) / 2) {
            for column in 0..<chromaWidth {
                let covered = [(0, 0), (1, 0), (0, 1), (1, 1)].contains { dx, dy in
                    let (x, y) = (2 * column + dx, 2 * row + dy)
                    return x < width && y < height && drawn[y * width + x]
                }
                let sample = row * chromaWidth + column
                if !covered,
                    abs(Int(output.u[sample]) - Int(input.u[sample])) > 2
                        || abs(Int(output.v[sample]) - Int(input.v[sample])) > 2
                {
                    chromaOff += 1
                }
            }
        }
        #expect(
            lumaOff == 0 && chromaOff == 0,
            "frame \(input.index): \(lumaOff) luma, \(chromaOff) chroma levels off by more than 2 away from the drawing",
            sourceLocation: sourceLocation)
        return drawn.filter { $0 }.count
    }

    @Test func theCommittedClipKeepsItsHeaderFramesAndPixels() throws {
        let directory = try CLI.scratchDirectory("video-out")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let video = directory + "/out.y4m"
        let run = try CLI.succeed([
            "hands", "--mode", "video", Self.committedClip, "--video-out", video, "--out", directory, "--json",
        ])
        #expect(try CLI.jsonLines(run).count == 3, "the JSON lines still go to standard output")
        let input = try Self.frames(of: Fixtures.bytes(atPath: Self.committedClip))
        let output = try Self.frames(of: Fixtures.bytes(atPath: video))
        #expect(output.headerLine == input.headerLine)
        try #require(output.frames.count == input.frames.count && input.frames.count == 3)
        for (out, original) in zip(output.frames, input.frames) {
            let png = directory + String(format: "/yuv420_34x26_ntsc_frame%05d_hands.png", original.index)
            let drawn = try Self.expectUnchangedAwayFromDrawing(
                out, original, drawing: try PixelImage(contentsOfFile: png))
            if drawn == 0 {
                #expect(out.y == original.y && out.u == original.u && out.v == original.v, "nothing drawn: the input")
            }
        }
        // To standard output, from standard input: the same stream, and no JSON mixed into it.
        let piped = try CLI.run(
            ["hands", "--mode", "video", "-", "--video-out", "-", "--json"],
            input: try Fixtures.bytes(atPath: Self.committedClip))
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.stdoutBytes == (try Fixtures.bytes(atPath: video)))
    }

    @Test func handsAreDrawnAndTheRestIsTheInput() throws {
        let directory = try CLI.scratchDirectory("video-out-hands")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clip = try Self.handClip()
        let clipPath = directory + "/hands.y4m"
        try Data(clip).write(to: URL(fileURLWithPath: clipPath))
        let video = directory + "/out.y4m"
        let run = try CLI.succeed([
            "hands", "--mode", "video", clipPath, "--video-out", video, "--out", directory, "--json",
        ])
        let lines = try CLI.jsonLines(run)
        #expect(lines.map { ($0["hands"] as? [Any])?.count } == [1, 1, 1], "a hand in every frame: \(run)")
        let input = try Self.frames(of: clip)
        let output = try Self.frames(of: Fixtures.bytes(atPath: video))
        #expect(output.headerLine == Self.handClipHeader)
        try #require(output.frames.count == 3)
        for (out, original) in zip(output.frames, input.frames) {
            let png = directory + String(format: "/hands_frame%05d_hands.png", original.index)
            let drawing = try PixelImage(contentsOfFile: png)
            let drawn = try Self.expectUnchangedAwayFromDrawing(out, original, drawing: drawing)
            #expect(drawn > 500, "frame \(original.index): the skeleton covers \(drawn) pixels")
            // Where it drew, the video shows the drawing: its luma is the drawing's, not the photo's.
            let changedLuma = zip(out.y, original.y).filter { $0 != $1 }.count
            #expect(changedLuma > drawn / 2, "frame \(original.index): \(changedLuma) luma levels changed")
        }
    }

    @Test func aDamagedStreamEndsTheVideoAfterItsLastWholeFrame() throws {
        var clip = try Self.handClip()
        let whole = try CLI.run(["pose", "--mode", "video", "-", "--video-out", "-"], input: clip)
        #expect(whole.status == 0, "\(whole)")
        clip.removeLast(1000)
        let broken = try CLI.run(["pose", "--mode", "video", "-", "--video-out", "-"], input: clip)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("frame 2 is truncated"), "\(broken.stderr)")
        // The header and the two whole frames, exactly as the run over the whole clip wrote them.
        let frameBytes = 6 + 320 * 240 * 3 / 2
        let kept = whole.stdoutBytes.count - frameBytes
        #expect(broken.stdoutBytes.count == kept)
        #expect(broken.stdoutBytes == Array(whole.stdoutBytes.prefix(kept)))
        #expect(try Self.frames(of: broken.stdoutBytes).frames.count == 2)
    }

    @Test func everyDrawingSubcommandWritesTheClip() throws {
        let clip = try Fixtures.bytes(atPath: Self.committedClip)
        let input = try Self.frames(of: clip)
        for command in [
            ["faces"], ["face-analyze"], ["face-landmarks"], ["gestures"], ["pose"], ["objects"],
            ["segment", "--background", "#00FF00"],
        ] {
            let run = try CLI.run(command + ["--mode", "video", "-", "--video-out", "-"], input: clip)
            #expect(run.status == 0, "\(command): \(run)")
            let output = try Self.frames(of: run.stdoutBytes)
            #expect(output.headerLine == input.headerLine, "\(command)")
            #expect(output.frames.count == 3, "\(command)")
        }
    }

    @Test(arguments: [
        (["hands", "x.png", "--video-out", "out.y4m"], "--video-out needs --mode video"),
        (["hands", "--mode", "video", "x.png", "y.png", "--video-out", "-"], "--video-out needs a YUV4MPEG2 input"),
        (["segment", "--mode", "video", "-", "--video-out", "-"], "give --background"),
        (["classify", "--mode", "video", "-", "--video-out", "-"], "unknown option --video-out"),
    ])
    func videoOutUsageErrors(_ arguments: [String], _ message: String) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == 1)
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(run.stdoutBytes.isEmpty)
    }
}
