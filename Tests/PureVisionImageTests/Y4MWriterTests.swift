import Foundation
import PureVisionImage
import PureVisionTestSupport
import Testing

/// The YUV4MPEG2 writer on the committed clips (tools/make_y4m_fixtures.py): a stream written back is the stream
/// read, byte for byte, and a picture drawn over a frame changes only the levels of the pixels it changed.
@Suite struct Y4MWriterTests {
    static func clip(_ name: String) throws -> [UInt8] {
        try Fixtures.bytes(atPath: Fixtures.testFile(Y4MStreamTests.directory + name + ".y4m"))
    }

    /// Writes `frames` after `header` through a pipe and returns the bytes.
    static func written(_ header: Y4MHeader, _ frames: [Y4MFrame]) throws -> [UInt8] {
        let pipe = Pipe()
        var writer = try Y4MWriter(header: header, descriptor: pipe.fileHandleForWriting.fileDescriptor)
        for frame in frames { try writer.write(frame) }
        #expect(writer.framesWritten == frames.count)
        try pipe.fileHandleForWriting.close()
        return [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
    }

    static func frames(_ bytes: [UInt8]) throws -> (Y4MHeader, [Y4MFrame]) {
        var stream = try Y4MStream(source: Y4MMemorySource(bytes))
        var frames: [Y4MFrame] = []
        while let frame = try stream.nextFrame() { frames.append(frame) }
        return (stream.header, frames)
    }

    @Test(arguments: Y4MStreamTests.cases)
    func aStreamWrittenBackIsTheStreamRead(_ testCase: Y4MStreamTests.Case) throws {
        let bytes = try Self.clip(testCase.name)
        let (header, frames) = try Self.frames(bytes)
        // ffmpeg writes bare `FRAME` lines, so the copy is the file itself.
        #expect(try Self.written(header, frames) == bytes)
        // A frame overdrawn with its own picture is unchanged.
        for frame in frames {
            let same = try frame.overlaid(with: PixelImage(y4mFrame: frame))
            #expect(same.y == frame.y && same.u == frame.u && same.v == frame.v)
        }
    }

    @Test func aHeaderMadeInCodeReadsBack() throws {
        let header = Y4MHeader(
            width: 6, height: 4, frameRateNumerator: 30000, frameRateDenominator: 1001, chroma: .yuv444,
            interlacing: .progressive, isFullRange: true)
        let line = String(decoding: header.encodedLine, as: UTF8.self)
        #expect(line == "YUV4MPEG2 W6 H4 F30000:1001 Ip C444 XCOLORRANGE=FULL\n")
        let (read, _) = try Self.frames(header.encodedLine)
        #expect(read.width == 6 && read.height == 4 && read.chroma == .yuv444 && read.isFullRange)
    }

    /// One white pixel drawn on each clip: its luma (and the chroma sample covering it) change, nothing else.
    @Test(arguments: Y4MStreamTests.cases)
    func onlyTheDrawnPixelChanges(_ testCase: Y4MStreamTests.Case) throws {
        let (header, frames) = try Self.frames(try Self.clip(testCase.name))
        let frame = try #require(frames.first)
        var canvas = ImageCanvas(image: try PixelImage(y4mFrame: frame).converted(to: .rgb8))
        let (x, y) = (3, 2)
        canvas.drawRectangle(x: x, y: y, width: 1, height: 1, color: RGBColor(255, 255, 255), thickness: 1)
        let drawn = try frame.overlaid(with: canvas.image)
        let pixel = y * header.width + x
        let whiteLuma: UInt8 = header.chroma == .mono || header.isFullRange ? 255 : 235
        #expect(drawn.y[pixel] == whiteLuma)
        #expect(drawn.y.enumerated().allSatisfy { $0.offset == pixel || $0.element == frame.y[$0.offset] })
        let chromaWidth = header.chroma.chromaSize(width: header.width, height: header.height).width
        let sample = header.chroma == .yuv420 ? (y / 2) * chromaWidth + x / 2 : pixel
        for (after, before) in [(drawn.u, frame.u), (drawn.v, frame.v)] {
            #expect(after.enumerated().allSatisfy { $0.offset == sample || $0.element == before[$0.offset] })
        }
        if header.chroma == .yuv444 { #expect(drawn.u[pixel] == 128 && drawn.v[pixel] == 128) }
        #expect(throws: Y4MError.self) {
            try frame.overlaid(
                with: try PixelImage(width: 2, height: 2, format: .rgb8, pixels: [UInt8](repeating: 0, count: 12)))
        }
    }
}
