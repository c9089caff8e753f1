import Testing
import ImageIO

@Test func imageRejectsShortStride() {
    #expect(throws: ImageError.self) { try Image(width: 4, height: 2, format: .rgb8, pixels: [UInt8](repeating: 0, count: 24), bytesPerRow: 8) }
}
