import PureVisionImage
import PureVisionTestSupport
import Testing

/// Every encoded fixture, for the truncation and mutation sweeps.
let encodedFixtures = DecodeCase.all.map(\.file)

/// CRC-32 (ISO 3309, as PNG uses), to build chunks the decoder accepts up to the point under test.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

/// A PNG chunk: length, type, data, CRC.
func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
}

/// A PNG of one 8-bit RGB IHDR (any claimed size) followed by `rest`.
func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        + pngChunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0])
}

/// Decodes `bytes`, which must fail with a typed error.
func expectDecodeFailure(
    _ bytes: [UInt8], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(throws: ImageError.self, comment, sourceLocation: sourceLocation) { try PixelImage(encoded: bytes) }
}

@Suite struct MalformedImageTests {
    @Test(arguments: encodedFixtures)
    func truncatedFilesThrow(_ file: String) throws {
        let bytes = try Fixtures.bytes(atPath: fixturePath(file))
        // Every length near the start and the end, and a stride through the middle.
        let lengths = Set(
            Array(0..<64) + Array(stride(from: 64, to: bytes.count, by: 7))
                + Array(max(0, bytes.count - 40)..<bytes.count))
        // A PNG cut inside its final 12-byte IEND chunk still holds every pixel; libpng accepts it.
        let complete = file.hasSuffix(".png") ? bytes.count - 12 : bytes.count
        let full = packedPixels(try PixelImage(encoded: bytes))
        for length in lengths.sorted() {
            let cut = Array(bytes.prefix(length))
            if length < complete {
                expectDecodeFailure(cut, "\(file) cut to \(length) of \(bytes.count) bytes")
            } else {
                let image = try PixelImage(encoded: cut)
                #expect(packedPixels(image) == full, "\(file) cut to \(length) of \(bytes.count) bytes")
            }
        }
    }

    @Test(arguments: encodedFixtures)
    func bitFlipsNeverCrash(_ file: String) throws {
        let bytes = try Fixtures.bytes(atPath: fixturePath(file))
        var random = SplitMix64(seed: UInt64(bytes.count))
        var failures = 0
        for _ in 0..<300 {
            var mutated = bytes
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let index = Int(random.next() % UInt64(mutated.count))
                mutated[index] ^= UInt8(1) << UInt8(random.next() % 8)
            }
            do {
                let image = try PixelImage(encoded: mutated)
                #expect(image.width > 0 && image.height > 0 && image.width <= ImageLimits.maximumDimension)
                #expect(image.withUnsafePixels { $0.count } == image.byteCount)
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0, "some of 300 mutations of \(file) must be refused")
    }

    @Test func randomBytesThrow() {
        var random = SplitMix64(seed: 7)
        for length in [1, 2, 3, 8, 100, 5000] {
            let noise = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            expectDecodeFailure(noise)
            expectDecodeFailure([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noise, "PNG signature + noise")
            expectDecodeFailure([0xFF, 0xD8, 0xFF] + noise, "JPEG signature + noise")
        }
    }

    @Test func unknownAndEmptyData() {
        #expect(throws: ImageError.truncated("no image data")) { try PixelImage(encoded: []) }
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20)
        #expect {
            try PixelImage(encoded: gif)
        } throws: { error in
            guard case ImageError.unsupportedFormat = error else { return false }
            return true
        }
    }

    @Test func pngClaimingHugeDimensionsIsRefusedBeforeAllocating() {
        // libpng reads the header up to the first IDAT before the decoder sees the size; the data is a bare zlib
        // header, so a decoder that did allocate and inflate would fail with a different error.
        let idat = pngChunk("IDAT", [0x78, 0x9C]) + pngChunk("IEND", [])
        let bytes = pngHeader(width: 100_000, height: 100_000) + idat
        #expect(throws: ImageError.tooLarge(width: 100_000, height: 100_000)) { try PixelImage(encoded: bytes) }
        let wide = pngHeader(width: 20_000, height: 1) + idat
        #expect(throws: ImageError.tooLarge(width: 20_000, height: 1)) { try PixelImage(encoded: wide) }
    }

    @Test func pngWithZeroSizeThrows() {
        expectDecodeFailure(pngHeader(width: 0, height: 10) + pngChunk("IEND", []))
        expectDecodeFailure(pngHeader(width: 10, height: 0) + pngChunk("IEND", []))
    }

    /// Rewrites the baseline JPEG's SOF0 height and width.
    func jpegClaiming(width: UInt16, height: UInt16) throws -> [UInt8] {
        var bytes = try Fixtures.bytes(atPath: fixturePath("rgb_baseline.jpg"))
        let sof = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = UInt8(height >> 8)
        bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8)
        bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    @Test func jpegClaimingHugeDimensionsIsRefusedBeforeAllocating() throws {
        let bytes = try jpegClaiming(width: 60_000, height: 60_000)
        #expect(throws: ImageError.tooLarge(width: 60_000, height: 60_000)) { try PixelImage(encoded: bytes) }
    }

    @Test func jpegWithZeroSizeThrows() throws {
        expectDecodeFailure(try jpegClaiming(width: 0, height: 23))
        expectDecodeFailure(try jpegClaiming(width: 37, height: 0))
    }

    @Test func cmykJpegIsUnsupported() throws {
        let bytes = try Fixtures.bytes(atPath: fixturePath("cmyk.jpg"))
        #expect {
            try PixelImage(encoded: bytes)
        } throws: { error in
            guard case ImageError.unsupportedFormat = error else { return false }
            return true
        }
    }

    @Test func missingFileThrows() {
        #expect {
            try PixelImage(contentsOfFile: "/nonexistent/image.png")
        } throws: { error in
            guard case ImageError.fileAccess = error else { return false }
            return true
        }
    }

    @Test func errorsDescribeThemselves() {
        #expect(ImageError.tooLarge(width: 1, height: 2).description.contains("1×2"))
        #expect(ImageError.mirroredOrientation(.leftMirrored).description.contains("leftMirrored"))
    }
}
