import PureVisionImage
import Testing

/// The camera's YUV 4:2:0 conversion (used by `MPImage(pixelBuffer:)` and `VisionImage(buffer:)` on Apple
/// platforms), checked on the colours the BT.601 / BT.709 definitions fix exactly and on chroma placement.
@Suite struct YCbCrConversionTests {
    /// Converts a frame whose every pixel has `y` and whose every chroma sample is (`cb`, `cr`).
    static func uniform(
        y: UInt8, cb: UInt8, cr: UInt8, width: Int = 3, height: Int = 3, fullRange: Bool,
        matrix: YCbCrConversion.Matrix = .bt601
    ) -> [UInt8] {
        let luma = [UInt8](repeating: y, count: width * height)
        let chromaRow = 2 * ((width + 1) / 2)
        let chroma = (0..<(chromaRow * ((height + 1) / 2))).map { $0 % 2 == 0 ? cb : cr }
        return luma.withUnsafeBufferPointer { l in
            chroma.withUnsafeBufferPointer { c in
                YCbCrConversion.rgb(
                    luma: l.baseAddress!, lumaBytesPerRow: width, chroma: c.baseAddress!, chromaBytesPerRow: chromaRow,
                    width: width, height: height, fullRange: fullRange, matrix: matrix)
            }
        }
    }

    @Test func greysAreExact() {
        #expect(Self.uniform(y: 16, cb: 128, cr: 128, fullRange: false) == [UInt8](repeating: 0, count: 27))
        #expect(Self.uniform(y: 235, cb: 128, cr: 128, fullRange: false) == [UInt8](repeating: 255, count: 27))
        #expect(Self.uniform(y: 0, cb: 128, cr: 128, fullRange: true) == [UInt8](repeating: 0, count: 27))
        #expect(
            Self.uniform(y: 200, cb: 128, cr: 128, fullRange: true, matrix: .bt709)
                == [UInt8](repeating: 200, count: 27))
    }

    @Test func chromaMovesTheRightChannels() {
        // Cr above neutral: more red, less green, blue unchanged; Cb above neutral: more blue, less green.
        let red = Self.uniform(y: 128, cb: 128, cr: 200, width: 1, height: 1, fullRange: true)
        #expect(red[0] > 200 && red[1] < 128 && red[2] == 128)
        let blue = Self.uniform(y: 128, cb: 200, cr: 128, width: 1, height: 1, fullRange: true)
        #expect(blue[2] > 200 && blue[1] < 128 && blue[0] == 128)
    }

    @Test func eachChromaSampleCoversTwoByTwoPixels() {
        // 3×3 luma (odd: the last column and row share the second chroma column / row), chroma 2×2 with a red sample
        // at (1, 0) only.
        let luma = [UInt8](repeating: 128, count: 9)
        let chroma: [UInt8] = [128, 128, 128, 220, 128, 128, 128, 128]
        let rgb = luma.withUnsafeBufferPointer { l in
            chroma.withUnsafeBufferPointer { c in
                YCbCrConversion.rgb(
                    luma: l.baseAddress!, lumaBytesPerRow: 3, chroma: c.baseAddress!, chromaBytesPerRow: 4, width: 3,
                    height: 3, fullRange: true, matrix: .bt601)
            }
        }
        let reddened = (0..<9).filter { rgb[$0 * 3] > 128 }
        #expect(reddened == [2, 5], "pixel column 2 of rows 0 and 1")
    }
}
