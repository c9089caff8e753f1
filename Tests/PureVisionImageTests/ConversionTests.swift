import PureVisionImage
import PureVisionTestSupport
import Testing

@Suite struct ConversionTests {
    /// One pixel per row of: red, green, blue, a gray, as rgba8 with alpha 200.
    func colors() throws -> PixelImage {
        try PixelImage(
            width: 1, height: 4, format: .rgba8,
            pixels: [255, 0, 0, 200, 0, 255, 0, 200, 0, 0, 255, 200, 90, 90, 90, 200])
    }

    @Test func colorToGrayIsPILLuma() throws {
        // PIL: L = R·299/1000 + G·587/1000 + B·114/1000 in 16-bit fixed point: 76, 150, 29; gray stays gray.
        #expect(packedPixels(try colors().converted(to: .gray8)) == [76, 150, 29, 90])
    }

    @Test func colorToGrayMatchesPIL() throws {
        let rgb = try PixelImage(contentsOfFile: fixturePath("rgb.png"))
        try expectPixels(rgb.converted(to: .gray8), equalTo: fixturePath("rgb.png.L.npy"), format: .gray8)
    }

    @Test func dropsAndAddsAlpha() throws {
        let rgb = try colors().converted(to: .rgb8)
        #expect(packedPixels(rgb) == [255, 0, 0, 0, 255, 0, 0, 0, 255, 90, 90, 90])
        let opaque: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 90, 90, 90, 255]
        #expect(packedPixels(rgb.converted(to: .rgba8)) == opaque)
    }

    @Test func swapsRedAndBlue() throws {
        let bgra = try colors().converted(to: .bgra8)
        #expect(packedPixels(bgra) == [0, 0, 255, 200, 0, 255, 0, 200, 255, 0, 0, 200, 90, 90, 90, 200])
        #expect(packedPixels(bgra.converted(to: .rgba8)) == packedPixels(try colors()))
    }

    @Test func grayToColorReplicates() throws {
        let gray = try PixelImage(width: 2, height: 1, format: .gray8, pixels: [7, 250], orientation: .left)
        let rgb = gray.converted(to: .rgb8)
        #expect(packedPixels(rgb) == [7, 7, 7, 250, 250, 250])
        #expect(rgb.orientation == .left)
        #expect(packedPixels(gray.converted(to: .bgra8)) == [7, 7, 7, 255, 250, 250, 250, 255])
    }
}
