import PureVisionImage
import PureVisionTestSupport
import Testing

/// A golden case's frame as a `PixelImage`, owning copies of the planes or wrapping them.
func yuvImage(_ golden: YUVGoldenCase, planes: [[UInt8]]) throws -> PixelImage {
    let encoding = YUVEncoding(
        range: golden.range == "full" ? .full : .video, matrix: golden.matrix == "bt709" ? .bt709 : .bt601)
    if golden.layout == "i420" {
        return try PixelImage(
            width: golden.width, height: golden.height, i420Luma: planes[0], lumaBytesPerRow: golden.strides[0],
            u: planes[1], uBytesPerRow: golden.strides[1], v: planes[2], vBytesPerRow: golden.strides[2],
            encoding: encoding)
    }
    return try PixelImage(
        width: golden.width, height: golden.height, biPlanarFormat: golden.layout == "nv12" ? .nv12 : .nv21,
        luma: planes[0], lumaBytesPerRow: golden.strides[0], chroma: planes[1], chromaBytesPerRow: golden.strides[1],
        encoding: encoding)
}

/// YUV 4:2:0 frames against `tools/make_yuv_goldens.py`: OpenCV's `cvtColor` for video-range BT.601, the
/// standard equations for the other encodings. The tolerance is the (1 level); video BT.601 uses OpenCV's
/// own fixed-point arithmetic and is expected to be exact.
@Suite struct YUVImageTests {
    static let cases = (try? YUVGoldenCase.all()) ?? []

    @Test func everyLayoutRangeAndMatrixHasGoldens() {
        #expect(Self.cases.count == 24)
        let kinds = Set(Self.cases.map { "\($0.layout) \($0.range) \($0.matrix)" })
        #expect(kinds.count == 12)
    }

    @Test(arguments: cases)
    func convertsLikeTheReference(_ golden: YUVGoldenCase) throws {
        let planes = try (0..<(golden.layout == "i420" ? 3 : 2)).map { try golden.plane($0) }
        let expected = try golden.rgb()
        #expect(expected.count == golden.width * golden.height * 3)
        let owned = try yuvImage(golden, planes: planes)
        #expect(owned.format.isYUV && owned.width == golden.width && owned.height == golden.height)
        let converted = owned.converted(to: .rgb8)
        let difference = try #require(maximumDifference(packedPixels(converted), expected))
        let exact = golden.range == "video" && golden.matrix == "bt601"
        #expect(difference <= (exact ? 0 : 1), "largest difference \(difference) levels")

        // The same planes wrapped without a copy, and a packed copy of them, convert to the same levels.
        let wrappedLevels = try planes[0].withUnsafeBytes { luma in
            try planes[1].withUnsafeBytes { first in
                try planes[planes.count - 1].withUnsafeBytes { last in
                    let image =
                        golden.layout == "i420"
                        ? try PixelImage.wrapping(
                            unsafeLuma: luma, lumaBytesPerRow: golden.strides[0], u: first,
                            uBytesPerRow: golden.strides[1], v: last, vBytesPerRow: golden.strides[2],
                            width: golden.width, height: golden.height, encoding: owned.yuvEncoding ?? .videoBT601)
                        : try PixelImage.wrapping(
                            unsafeLuma: luma, lumaBytesPerRow: golden.strides[0], chroma: first,
                            chromaBytesPerRow: golden.strides[1], width: golden.width, height: golden.height,
                            format: owned.format, encoding: owned.yuvEncoding ?? .videoBT601)
                    #expect(image.isBorrowed)
                    let copy = image.ownedCopy()
                    #expect(!copy.isBorrowed && copy.format == owned.format)
                    #expect(packedPixels(copy.converted(to: .rgb8)) == packedPixels(converted))
                    return packedPixels(image.converted(to: .rgb8))
                }
            }
        }
        #expect(wrappedLevels == packedPixels(converted))
    }

    @Test func otherFormatsOfAYUVFrameFollowItsRGB() throws {
        let golden = try #require(Self.cases.first { $0.layout == "nv12" })
        let image = try yuvImage(golden, planes: [golden.plane(0), golden.plane(1)])
        let rgb = image.converted(to: .rgb8)
        #expect(packedPixels(image.converted(to: .bgra8)) == packedPixels(rgb.converted(to: .bgra8)))
        #expect(packedPixels(image.converted(to: .argb8)) == packedPixels(rgb.converted(to: .argb8)))
        #expect(packedPixels(image.converted(to: .gray8)) == packedPixels(rgb.converted(to: .gray8)))
        var turned = image
        turned.orientation = .right
        let rotated = try turned.applyingOrientation()
        #expect(rotated.format == .rgb8 && rotated.width == image.height && rotated.height == image.width)
    }

    @Test func rgbEncodedAsYUVDecodesBackClosely() throws {
        // A smooth gradient: 4:2:0 loses chroma detail, so only a smooth image can come back close.
        var pixels: [UInt8] = []
        for y in 0..<15 {
            for x in 0..<21 { pixels += [UInt8(40 + 8 * x), UInt8(30 + 10 * y), UInt8(200 - 4 * x - 3 * y)] }
        }
        let rgb = try PixelImage(width: 21, height: 15, format: .rgb8, pixels: pixels)
        for format in [PixelFormat.nv12, .nv21, .i420] {
            for encoding in [YUVEncoding.videoBT601, .fullBT601, .videoBT709, .fullBT709] {
                let yuv = try rgb.converted(toYUV: format, encoding: encoding)
                // Odd sizes are padded to even ones by repeating the last column and row.
                #expect(yuv.width == 22 && yuv.height == 16 && yuv.format == format && yuv.yuvEncoding == encoding)
                let back = yuv.converted(to: .rgb8)
                var largest = 0
                back.withUnsafePixels { decoded in
                    for y in 0..<15 {
                        for x in 0..<21 {
                            for c in 0..<3 {
                                let difference = Int(decoded[(y * 22 + x) * 3 + c]) - Int(pixels[(y * 21 + x) * 3 + c])
                                largest = max(largest, abs(difference))
                            }
                        }
                    }
                }
                // Chroma averaged over 2 × 2 blocks of a gradient moving ≤ 10 levels a pixel, plus rounding twice
                // (and OpenCV's 3-digit coefficients for video BT.601).
                #expect(largest <= 12, "\(format) \(encoding): \(largest)")
            }
        }
        #expect(throws: ImageError.formatMismatch(.rgb8, expected: "nv12, nv21 or i420")) {
            try rgb.converted(toYUV: .rgb8, encoding: .videoBT601)
        }
    }

    @Test func malformedPlanesAreTypedErrors() throws {
        let luma = [UInt8](repeating: 100, count: 8 * 6)
        let chroma = [UInt8](repeating: 128, count: 8 * 3)
        #expect(throws: ImageError.oddYUVDimensions(width: 7, height: 6)) {
            try PixelImage(width: 7, height: 6, biPlanarFormat: .nv12, luma: luma, chroma: chroma)
        }
        #expect(throws: ImageError.oddYUVDimensions(width: 8, height: 5)) {
            try PixelImage(width: 8, height: 5, i420Luma: luma, u: chroma, v: chroma)
        }
        #expect(throws: ImageError.strideTooShort(bytesPerRow: 7, rowBytes: 8)) {
            try PixelImage(width: 8, height: 6, biPlanarFormat: .nv12, luma: luma, lumaBytesPerRow: 7, chroma: chroma)
        }
        #expect(throws: ImageError.strideTooShort(bytesPerRow: 6, rowBytes: 8)) {
            try PixelImage(
                width: 8, height: 6, biPlanarFormat: .nv21, luma: luma, chroma: chroma, chromaBytesPerRow: 6)
        }
        #expect(throws: ImageError.strideTooShort(bytesPerRow: 3, rowBytes: 4)) {
            try PixelImage(width: 8, height: 6, i420Luma: luma, u: chroma, v: chroma, vBytesPerRow: 3)
        }
        #expect(throws: ImageError.truncated("Y plane: 47 bytes for 48 needed")) {
            try PixelImage(width: 8, height: 6, biPlanarFormat: .nv12, luma: Array(luma.dropLast()), chroma: chroma)
        }
        #expect(throws: ImageError.truncated("chroma plane: 23 bytes for 24 needed")) {
            try PixelImage(width: 8, height: 6, biPlanarFormat: .nv12, luma: luma, chroma: Array(chroma.dropLast()))
        }
        #expect(throws: ImageError.truncated("V plane: 11 bytes for 12 needed")) {
            try PixelImage(width: 8, height: 6, i420Luma: luma, u: chroma, v: Array(chroma.prefix(11)))
        }
        #expect(throws: ImageError.formatMismatch(.i420, expected: "nv12 or nv21")) {
            try PixelImage(width: 8, height: 6, biPlanarFormat: .i420, luma: luma, chroma: chroma)
        }
        #expect(throws: ImageError.formatMismatch(.nv12, expected: "an interleaved format")) {
            try PixelImage(width: 8, height: 6, format: .nv12, pixels: luma)
        }
        #expect(throws: ImageError.invalidDimensions(width: 0, height: 6)) {
            try PixelImage(width: 0, height: 6, biPlanarFormat: .nv12, luma: luma, chroma: chroma)
        }
        #expect(throws: ImageError.tooLarge(width: 1 << 20, height: 2)) {
            try PixelImage(width: 1 << 20, height: 2, biPlanarFormat: .nv12, luma: luma, chroma: chroma)
        }
        // A stride so large that the plane's extent overflows is refused, not computed.
        #expect(throws: ImageError.tooLarge(width: 8, height: 6)) {
            try PixelImage(
                width: 8, height: 6, biPlanarFormat: .nv12, luma: luma, lumaBytesPerRow: Int.max / 2, chroma: chroma)
        }
        luma.withUnsafeBytes { lumaBytes in
            #expect(throws: ImageError.truncated("U plane: 0 bytes for 12 needed")) {
                try PixelImage.wrapping(
                    unsafeLuma: lumaBytes, lumaBytesPerRow: 8, u: UnsafeRawBufferPointer(start: nil, count: 0),
                    uBytesPerRow: 4, v: UnsafeRawBufferPointer(start: nil, count: 0), vBytesPerRow: 4, width: 8,
                    height: 6)
            }
            return
        }
    }

    @Test func paddedInterleavedRowsInEveryChannelOrder() throws {
        // Two pixels per row, 3 bytes of padding: (10, 20, 30, 255) and (40, 50, 60, 128) in RGBA order.
        let rgba: [UInt8] = [10, 20, 30, 255, 40, 50, 60, 128, 9, 9, 9]
        let bgra: [UInt8] = [30, 20, 10, 255, 60, 50, 40, 128, 9, 9, 9]
        let argb: [UInt8] = [255, 10, 20, 30, 128, 40, 50, 60, 9, 9, 9]
        let rows = 3
        for (format, row) in [(PixelFormat.rgba8, rgba), (.bgra8, bgra), (.argb8, argb)] {
            let bytes = Array([[UInt8]](repeating: row, count: rows).joined())
            let image = try bytes.withUnsafeBytes { raw in
                try PixelImage.wrapping(
                    unsafePixels: try #require(raw.baseAddress), width: 2, height: rows, format: format,
                    bytesPerRow: 11
                ).converted(to: .rgba8)
            }
            #expect(packedPixels(image) == Array([[UInt8]](repeating: Array(rgba.prefix(8)), count: rows).joined()))
        }
    }
}
