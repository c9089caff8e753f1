import PureVisionImage
import PureVisionTestSupport
import Testing

/// `width × height` pixels of `format` with every byte distinct-ish: byte (x, y, c) = 7x + 31y + 101c (mod 256).
func patternPixel(x: Int, y: Int, channel: Int) -> UInt8 { UInt8(truncatingIfNeeded: 7 * x + 31 * y + 101 * channel) }

func packedPattern(width: Int, height: Int, format: PixelFormat) -> [UInt8] {
    var bytes: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            for c in 0..<format.channelCount { bytes.append(patternPixel(x: x, y: y, channel: c)) }
        }
    }
    return bytes
}

@Suite struct ImageTests {
    @Test(arguments: PixelFormat.allCases.filter { !$0.isYUV })
    func wrapsPaddedCallerBufferWithoutCopying(_ format: PixelFormat) throws {
        let width = 5
        let height = 3
        let padding = 3
        let stride = width * format.channelCount + padding
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: stride * height, alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0xEE)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<format.channelCount {
                    buffer[y * stride + x * format.channelCount + c] = patternPixel(x: x, y: y, channel: c)
                }
            }
        }
        let base = try #require(buffer.baseAddress)
        let image = try PixelImage.wrapping(
            unsafePixels: base, width: width, height: height, format: format, bytesPerRow: stride)
        #expect(image.isBorrowed)
        #expect(image.byteCount == stride * (height - 1) + width * format.channelCount)
        #expect(image.withUnsafePixels { $0.baseAddress } == UnsafeRawPointer(base))
        #expect(packedPixels(image) == packedPattern(width: width, height: height, format: format))
        // The image sees the caller's later writes: nothing was copied.
        buffer[stride + format.channelCount] = 0x42
        #expect(image.withUnsafePixels { $0[stride + format.channelCount] } == 0x42)
        let copy = image.ownedCopy()
        #expect(!copy.isBorrowed && copy.bytesPerRow == width * format.channelCount)
    }

    @Test func ownedImageWithPaddedStride() throws {
        let pixels: [UInt8] = [1, 2, 3, 0xEE, 4, 5, 6, 0xEE, 7, 8, 9]
        let image = try PixelImage(width: 1, height: 3, format: .rgb8, pixels: pixels, bytesPerRow: 4)
        #expect(!image.isBorrowed && image.byteCount == 11)
        #expect(packedPixels(image) == [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test func imageRejectsShortStride() {
        let pixels = [UInt8](repeating: 0, count: 24)
        #expect(throws: ImageError.strideTooShort(bytesPerRow: 8, rowBytes: 12)) {
            try PixelImage(width: 4, height: 2, format: .rgb8, pixels: pixels, bytesPerRow: 8)
        }
        _ = pixels.withUnsafeBytes { raw in
            #expect(throws: ImageError.strideTooShort(bytesPerRow: 15, rowBytes: 16)) {
                let base = try #require(raw.baseAddress)
                return try PixelImage.wrapping(unsafePixels: base, width: 4, height: 1, format: .bgra8, bytesPerRow: 15)
            }
        }
    }

    @Test(arguments: [(0, 1), (1, 0), (-3, 4), (4, -1)])
    func imageRejectsEmptySizes(_ size: (Int, Int)) {
        #expect(throws: ImageError.invalidDimensions(width: size.0, height: size.1)) {
            try PixelImage(width: size.0, height: size.1, format: .gray8, pixels: [0, 0, 0, 0])
        }
    }

    @Test func imageRejectsSizesPastTheLimits() throws {
        let anywhere = try #require(UnsafeRawPointer(bitPattern: 0x1000))
        let side = ImageLimits.maximumDimension + 1
        #expect(throws: ImageError.tooLarge(width: side, height: 1)) {
            try PixelImage(width: side, height: 1, format: .gray8, pixels: [])
        }
        // Three rows of a 2⁶² stride span more bytes than Int can count.
        #expect(throws: ImageError.tooLarge(width: 1, height: 3)) {
            try PixelImage.wrapping(
                unsafePixels: anywhere, width: 1, height: 3, format: .gray8,
                bytesPerRow: Int.max / 2 + 1)
        }
    }

    @Test func imageRejectsTooFewPixels() {
        #expect(throws: ImageError.truncated("5 bytes for 6 needed")) {
            try PixelImage(width: 3, height: 2, format: .gray8, pixels: [1, 2, 3, 4, 5])
        }
    }
}
