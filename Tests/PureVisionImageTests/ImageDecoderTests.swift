import Foundation
import PureVisionImage
import PureVisionTestSupport
import Testing

/// The fixtures made by `tools/make_image_fixtures.py`: encoded file, expected pixel mode, PIL's pixels.
struct DecodeCase: CustomTestStringConvertible, Sendable {
    var file: String
    var format: PixelFormat
    /// The largest per-channel difference from PIL's pixels the case accepts (0 unless documented otherwise).
    var tolerance: Int = 0
    var testDescription: String { file }

    static let all: [DecodeCase] = [
        DecodeCase(file: "rgb_baseline.jpg", format: .rgb8),
        DecodeCase(file: "rgb_progressive.jpg", format: .rgb8),
        DecodeCase(file: "rgb_444.jpg", format: .rgb8),
        DecodeCase(file: "rgb_422.jpg", format: .rgb8),
        DecodeCase(file: "gray.jpg", format: .gray8),
        DecodeCase(file: "rgb.png", format: .rgb8),
        DecodeCase(file: "rgba.png", format: .rgba8),
        DecodeCase(file: "gray.png", format: .gray8),
        DecodeCase(file: "gray_alpha.png", format: .rgba8),
        DecodeCase(file: "palette.png", format: .rgb8),
        DecodeCase(file: "palette_trns.png", format: .rgba8),
        DecodeCase(file: "gray_trns.png", format: .rgba8),
        DecodeCase(file: "rgb_interlaced.png", format: .rgb8),
        // 16-bit: libpng rounds v · 255 / 65535, PIL keeps the high byte (PNGDecoder's documentation).
        DecodeCase(file: "rgb16.png", format: .rgb8, tolerance: 1),
        DecodeCase(file: "rgba16.png", format: .rgba8, tolerance: 1),
        DecodeCase(file: "gray16.png", format: .gray8, tolerance: 1),
        // Un-premultiplied (PNGDecoder.readInterlacedSixteenBit): see the dedicated test below.
        DecodeCase(file: "rgba16_interlaced.png", format: .rgba8, tolerance: 255),
    ]
}

func fixturePath(_ name: String) -> String { Fixtures.testFile("PureVisionImageTests/Fixtures/\(name)") }

/// The image's pixels, tightly packed, row-major.
func packedPixels(_ image: PixelImage) -> [UInt8] {
    image.ownedCopy().withUnsafePixels { Array($0) }
}

/// The largest per-byte difference, or nil when the lengths differ.
func maximumDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
    guard a.count == b.count else { return nil }
    return zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
}

/// Checks `image` against a uint8 `.npy` of shape (H, W) or (H, W, C).
func expectPixels(
    _ image: PixelImage, equalTo npyPath: String, format: PixelFormat, tolerance: Int = 0,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let expected = try Fixtures.numpy(atPath: npyPath)
    let dims = expected.shape.dimensions
    #expect(expected.elementType == .uint8, sourceLocation: sourceLocation)
    #expect(image.format == format, sourceLocation: sourceLocation)
    #expect(dims.count >= 2 && image.height == dims[0] && image.width == dims[1], sourceLocation: sourceLocation)
    let difference = maximumDifference(packedPixels(image), expected.bytes)
    #expect(difference != nil, "pixel count differs", sourceLocation: sourceLocation)
    if let difference {
        #expect(difference <= tolerance, "max difference \(difference) from PIL", sourceLocation: sourceLocation)
    }
}

@Suite struct ImageDecoderTests {
    @Test(arguments: DecodeCase.all)
    func decodesLikePIL(_ fixture: DecodeCase) throws {
        let path = fixturePath(fixture.file)
        let fromFile = try PixelImage(contentsOfFile: path)
        let expected = fixturePath(fixture.file + ".npy")
        try expectPixels(fromFile, equalTo: expected, format: fixture.format, tolerance: fixture.tolerance)
        #expect(fromFile.orientation == .up)
        #expect(!fromFile.isBorrowed)
        let fromMemory = try PixelImage(encoded: Fixtures.bytes(atPath: path))
        #expect(packedPixels(fromMemory) == packedPixels(fromFile))
    }

    @Test func interlacedSixteenBitWithAlphaIsCloseWhereNotTransparent() throws {
        // PNGDecoder.readInterlacedSixteenBit un-premultiplies libpng's linear samples.
        let image = try PixelImage(contentsOfFile: fixturePath("rgba16_interlaced.png"))
        let pil = try Fixtures.numpy(atPath: fixturePath("rgba16_interlaced.png.npy")).bytes
        let ours = packedPixels(image)
        try #require(ours.count == pil.count)
        var worst = 0
        for pixel in stride(from: 0, to: ours.count, by: 4) {
            #expect(ours[pixel + 3] == pil[pixel + 3], "alpha is exact")
            let alpha = Int(pil[pixel + 3])
            for c in 0..<3 {
                let difference = abs(Int(ours[pixel + c]) - Int(pil[pixel + c]))
                // Where the 8-bit alpha is 0 the 16-bit alpha is below 256 and color may be lost.
                if alpha > 0 { worst = max(worst, difference) }
            }
        }
        #expect(worst <= 1, "max difference where alpha > 0: \(worst)")
    }

    @Test(arguments: ["rgb16.png", "rgba16.png", "gray16.png"])
    func sixteenBitDiffersFromPILOnlyByRounding(_ file: String) throws {
        let ours = packedPixels(try PixelImage(contentsOfFile: fixturePath(file)))
        let pil = try Fixtures.numpy(atPath: fixturePath(file + ".npy")).bytes
        #expect(zip(ours, pil).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        #expect(zip(ours, pil).contains { $0 != $1 }, "the fixture's low bytes exercise the rounding")
    }

    @Test func sniffsFormats() {
        #expect(EncodedImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(EncodedImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(EncodedImageFormat.sniff([0xFF, 0xD8]) == nil)
        #expect(EncodedImageFormat.sniff(Array("GIF89a".utf8)) == nil)
        #expect(EncodedImageFormat.sniff([]) == nil)
    }
}

/// One of the photos committed under `Fixtures/photos/`, as `photos.json` describes it.
struct PhotoCase: Decodable, CustomTestStringConvertible, Sendable {
    var file: String
    var width: Int
    var height: Int
    var mode: String
    var sha256: String
    var rows: String
    var testDescription: String { file }

    struct Manifest: Decodable {
        /// The photos' folder, relative to the fixtures.
        var root: String
        var photos: [PhotoCase]
    }

    static let manifest: Manifest? = {
        guard let data = FileManager.default.contents(atPath: fixturePath("photos.json")) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }()
}

@Suite struct PhotoDecodingTests {
    @Test func manifestListsThePhotos() throws {
        let manifest = try #require(PhotoCase.manifest)
        #expect(manifest.photos.count >= 10)
        #expect(manifest.photos.contains { $0.file.hasSuffix(".png") })
        #expect(manifest.photos.contains { $0.file.hasSuffix(".jpg") })
    }

    @Test(arguments: PhotoCase.manifest?.photos ?? [])
    func decodesLikePIL(_ photo: PhotoCase) throws {
        let root = try #require(PhotoCase.manifest).root
        let image = try PixelImage(contentsOfFile: fixturePath("\(root)/\(photo.file)"))
        #expect(image.width == photo.width && image.height == photo.height)
        let format: PixelFormat =
            switch photo.mode {
            case "L": .gray8
            case "RGBA": .rgba8
            default: .rgb8
            }
        #expect(image.format == format)
        let pixels = packedPixels(image)
        let rowBytes = photo.width * format.channelCount
        let sampled = [0, photo.height / 2, photo.height - 1].flatMap { y in
            pixels[(y * rowBytes)..<((y + 1) * rowBytes)]
        }
        let expectedRows = try Fixtures.numpy(atPath: fixturePath(photo.rows)).bytes
        let rowDifference = maximumDifference(sampled, expectedRows)
        #expect(rowDifference == 0, "max difference on the sampled rows: \(String(describing: rowDifference))")
        #expect(SHA256.hexDigest(pixels) == photo.sha256)
    }
}
