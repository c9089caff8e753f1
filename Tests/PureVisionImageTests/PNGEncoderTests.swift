import Foundation
import PureVisionImage
import PureVisionTestSupport
import Testing

@Suite struct PNGEncoderTests {
    /// Round trip of every interleaved format, packed and with a stride that is not a whole number of pixels.
    @Test(arguments: PixelFormat.allCases.filter { !$0.isYUV }, [0, 1, 5])
    func roundTrip(_ format: PixelFormat, padding: Int) throws {
        let width = 7
        let height = 4
        let channels = format.channelCount
        let stride = width * channels + padding
        var bytes = [UInt8](repeating: 0xAB, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels { bytes[y * stride + x * channels + c] = patternPixel(x: x, y: y, channel: c) }
            }
        }
        let image = try PixelImage(width: width, height: height, format: format, pixels: bytes, bytesPerRow: stride)
        let encoded = try PNGEncoder.encode(image)
        #expect(EncodedImageFormat.sniff(encoded) == .png)
        let decoded = try PixelImage(encoded: encoded)
        // bgra8 and argb8 are written as RGBA; everything else keeps its format.
        let expectedFormat: PixelFormat = format == .bgra8 || format == .argb8 ? .rgba8 : format
        #expect(decoded.format == expectedFormat)
        #expect(decoded.width == width && decoded.height == height)
        #expect(packedPixels(decoded) == packedPixels(image.converted(to: expectedFormat)))
    }

    @Test func bgraIsWrittenAsRGBA() throws {
        let image = try PixelImage(width: 1, height: 1, format: .bgra8, pixels: [10, 20, 30, 40])
        let decoded = try PixelImage(encoded: PNGEncoder.encode(image))
        #expect(packedPixels(decoded) == [30, 20, 10, 40])
    }

    @Test func yuvIsWrittenAsRGB() throws {
        let image = try PixelImage(
            width: 2, height: 2, biPlanarFormat: .nv12, luma: [16, 100, 180, 235], chroma: [90, 240])
        let decoded = try PixelImage(encoded: PNGEncoder.encode(image))
        #expect(decoded.format == .rgb8)
        #expect(packedPixels(decoded) == packedPixels(image.converted(to: .rgb8)))
    }

    @Test func encodesWrappedImages() throws {
        var buffer: [UInt8] = [1, 2, 3, 4, 5, 6]
        let decoded = try buffer.withUnsafeMutableBytes { raw in
            let base = try #require(raw.baseAddress)
            let image = try PixelImage.wrapping(unsafePixels: base, width: 2, height: 2, format: .gray8, bytesPerRow: 3)
            return try PixelImage(encoded: PNGEncoder.encode(image))
        }
        #expect(packedPixels(decoded) == [1, 2, 4, 5])
    }

    @Test func writesFiles() throws {
        let name = "imageio-\(UUID().uuidString).png"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let image = try PixelImage(contentsOfFile: fixturePath("rgba.png"))
        try image.writePNG(toFile: path)
        #expect(packedPixels(try PixelImage(contentsOfFile: path)) == packedPixels(image))
        #expect {
            try image.writePNG(toFile: "/nonexistent-directory/out.png")
        } throws: { error in
            guard case ImageError.fileAccess = error else { return false }
            return true
        }
    }
}
