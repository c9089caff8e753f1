import PureVisionImage
import Testing

/// `ImageLimits` at its edge: the largest side decodes, one pixel more is `.tooLarge` from both decoders and from
/// `PixelImage.init`, before any pixel buffer is allocated.
@Suite struct ImageLimitsTests {
    static let side = ImageLimits.maximumDimension

    @Test func largestSideDecodes() throws {
        let row = try PixelImage(
            width: Self.side, height: 1, format: .gray8, pixels: (0..<Self.side).map { UInt8(truncatingIfNeeded: $0) })
        let decoded = try PixelImage(encoded: try PNGEncoder.encode(row))
        #expect(decoded.width == Self.side && decoded.height == 1)
        #expect(Self.side * Self.side <= ImageLimits.maximumPixelCount, "a square of the largest side is accepted")
    }

    @Test func oneMorePixelIsTooLarge() throws {
        let over = Self.side + 1
        let idat = pngChunk("IDAT", [0x78, 0x9C]) + pngChunk("IEND", [])
        #expect(throws: ImageError.tooLarge(width: over, height: 1)) {
            try PixelImage(encoded: pngHeader(width: UInt32(over), height: 1) + idat)
        }
        #expect(throws: ImageError.tooLarge(width: 1, height: over)) {
            try PixelImage(encoded: pngHeader(width: 1, height: UInt32(over)) + idat)
        }
        #expect(throws: ImageError.tooLarge(width: over, height: 8)) {
            try PixelImage(encoded: MalformedImageTests().jpegClaiming(width: UInt16(over), height: 8))
        }
        #expect(throws: ImageError.tooLarge(width: over, height: 1)) {
            try PixelImage(width: over, height: 1, format: .gray8, pixels: [UInt8](repeating: 0, count: over))
        }
    }
}
