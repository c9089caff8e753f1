import Foundation
import PureVisionImage
import PureVisionTestSupport
import Testing

/// The YUV4MPEG2 reader against ffmpeg's own decode of the committed clips (tools/make_y4m_fixtures.py), and
/// against damaged streams.
@Suite struct Y4MStreamTests {
    struct Case: Decodable, CustomTestStringConvertible {
        let name: String
        let width: Int
        let height: Int
        let frames: Int
        let frameRate: [Int]
        let pixelFormat: String
        let rgb: String?
        var testDescription: String { name }
    }

    static let directory = "PureVisionImageTests/Fixtures/y4m/"

    static let cases: [Case] = {
        guard let data = FileManager.default.contents(atPath: Fixtures.testFile(directory + "cases.json")),
            let cases = try? JSONDecoder().decode([Case].self, from: data)
        else { return [] }
        return cases
    }()

    @Test func everyFixtureCaseIsListed() {
        #expect(Self.cases.count == 5, "cases.json is missing or incomplete")
    }

    @Test(arguments: cases)
    func planesEqualFFmpegsDecode(_ testCase: Case) throws {
        let clip = try Fixtures.bytes(atPath: Fixtures.testFile(Self.directory + testCase.name + ".y4m"))
        let planes = try Fixtures.bytes(atPath: Fixtures.testFile(Self.directory + testCase.name + ".planes"))
        var stream = try Y4MStream(source: Y4MMemorySource(clip))
        #expect(stream.header.width == testCase.width && stream.header.height == testCase.height)
        #expect(stream.header.frameRateNumerator == testCase.frameRate[0])
        #expect(stream.header.frameRateDenominator == testCase.frameRate[1])
        let frameBytes = stream.header.frameByteCount
        #expect(frameBytes * testCase.frames == planes.count)
        var frames: [Y4MFrame] = []
        while let frame = try stream.nextFrame() { frames.append(frame) }
        try #require(frames.count == testCase.frames)
        for (index, frame) in frames.enumerated() {
            #expect(frame.index == index)
            let decoded = frame.y + frame.u + frame.v
            #expect(decoded == Array(planes[(index * frameBytes)..<((index + 1) * frameBytes)]), "frame \(index)")
        }
    }

    /// 4:2:0 frames converted to RGB equal OpenCV's `cvtColor(COLOR_YUV2RGB_I420)`.
    @Test(arguments: cases.filter { $0.rgb != nil })
    func rgbFramesEqualOpenCV(_ testCase: Case) throws {
        let clip = try Fixtures.bytes(atPath: Fixtures.testFile(Self.directory + testCase.name + ".y4m"))
        let golden = try Fixtures.bytes(atPath: Fixtures.testFile(Self.directory + (testCase.rgb ?? "")))
        var stream = try Y4MStream(source: Y4MMemorySource(clip))
        let frameBytes = testCase.width * testCase.height * 3
        var index = 0
        while let frame = try stream.nextFrame() {
            let image = try PixelImage(y4mFrame: frame)
            #expect(image.format == .rgb8)
            let pixels = image.withUnsafePixels { Array($0) }
            let expected = golden[(index * frameBytes)..<((index + 1) * frameBytes)]
            let worst = zip(pixels, expected).map { abs(Int($0) - Int($1)) }.max() ?? 255
            #expect(pixels.count == frameBytes && worst == 0, "frame \(index): max difference \(worst)")
            index += 1
        }
        #expect(index == testCase.frames)
    }

    @Test func timestampsFollowTheFrameRate() throws {
        let header = try Y4MStream(source: Y4MMemorySource(Array("YUV4MPEG2 W2 H2 F30000:1001\n".utf8))).header
        #expect((0..<4).map(header.timestampInMilliseconds(ofFrame:)) == [0, 33, 66, 100])
    }

    @Test func aStreamThatEndsInsideAFrameIsRefused() throws {
        let clip = try Fixtures.bytes(atPath: Fixtures.testFile(Self.directory + "yuv420_34x26_ntsc.y4m"))
        var stream = try Y4MStream(source: Y4MMemorySource(Array(clip.dropLast(10))))
        _ = try stream.nextFrame()
        _ = try stream.nextFrame()
        #expect(throws: Y4MError.truncatedFrame(index: 2, expectedBytes: 1326, readBytes: 1316)) {
            try stream.nextFrame()
        }
    }

    @Test(arguments: [
        ("", Y4MError.notY4M),
        ("P6 34 26 255\n", .notY4M),
        ("YUV4MPEG2 W34\n", .badHeader("W and H are required")),
        ("YUV4MPEG2 W0 H2\n", .badHeader("W0 is not a positive size")),
        ("YUV4MPEG2 W-4 H2\n", .badHeader("W-4 is not a positive size")),
        ("YUV4MPEG2 W99999999999999 H2\n", .badHeader("W99999999999999 is not a positive size")),
        ("YUV4MPEG2 W20000 H2\n", .tooLarge(width: 20000, height: 2)),
        ("YUV4MPEG2 W2 H16385\n", .tooLarge(width: 2, height: 16385)),
        ("YUV4MPEG2 W2 H2 F0:1\n", .badHeader("frame rate 'F0:1' is not a positive ratio")),
        ("YUV4MPEG2 W2 H2 C422\n", .unsupported("chroma 'C422' (4:2:0, 4:4:4 and mono 8-bit are read)")),
        ("YUV4MPEG2 W2 H2 C420p10\n", .unsupported("chroma 'C420p10' (4:2:0, 4:4:4 and mono 8-bit are read)")),
        ("YUV4MPEG2 W2 H2 Iq\n", .badHeader("interlacing 'Iq'")),
        ("YUV4MPEG2 W2 H2 Z7\n", .badHeader("unknown parameter 'Z7'")),
        ("YUV4MPEG2 W2 H2", .badHeader("the stream ends inside a header line")),
    ])
    func badHeadersAreTypedErrors(_ text: String, _ expected: Y4MError) {
        #expect(throws: expected) { try Y4MStream(source: Y4MMemorySource(Array(text.utf8))) }
    }

    @Test func aHeaderLineWithoutEndIsBounded() {
        let endless = "YUV4MPEG2 W2 H2 " + String(repeating: "X", count: 10_000)
        #expect(throws: Y4MError.badHeader("line too long")) {
            try Y4MStream(source: Y4MMemorySource(Array(endless.utf8)))
        }
    }

    @Test func aFrameWithoutItsMarkerIsRefused() throws {
        var stream = try Y4MStream(source: Y4MMemorySource(Array("YUV4MPEG2 W2 H2 Cmono\nFRAMX\n0000".utf8)))
        #expect(throws: Y4MError.badHeader("frame 0 does not start with 'FRAME'")) { try stream.nextFrame() }
    }
}
