import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// YUV 4:2:0 frames through the preprocessing: crops of the goldens of `tools/make_yuv_goldens.py`, the warp of a
/// YUV frame against the warp of its RGB conversion, and a whole pipeline fed NV12 against the same frame as RGB.
@Suite struct YUVPreprocessingTests {
    static let cases = (try? YUVGoldenCase.all()) ?? []

    static func image(_ golden: YUVGoldenCase) throws -> PixelImage {
        let encoding = YUVEncoding(
            range: golden.range == "full" ? .full : .video, matrix: golden.matrix == "bt709" ? .bt709 : .bt601)
        if golden.layout == "i420" {
            return try PixelImage(
                width: golden.width, height: golden.height, i420Luma: golden.plane(0),
                lumaBytesPerRow: golden.strides[0], u: golden.plane(1), uBytesPerRow: golden.strides[1],
                v: golden.plane(2), vBytesPerRow: golden.strides[2], encoding: encoding)
        }
        return try PixelImage(
            width: golden.width, height: golden.height, biPlanarFormat: golden.layout == "nv12" ? .nv12 : .nv21,
            luma: golden.plane(0), lumaBytesPerRow: golden.strides[0], chroma: golden.plane(1),
            chromaBytesPerRow: golden.strides[1], encoding: encoding)
    }

    /// The 8-bit RGB tensor of `rect` at the given output size.
    static func levels(
        _ image: PixelImage, rect: NormalizedRect?, width: Int, height: Int, border: BorderMode = .zero
    ) throws -> [UInt8] {
        let converter = try ImageToTensorConverter(
            options: ImageToTensorOptions(outputWidth: width, outputHeight: height, border: border))
        var out = [UInt8](repeating: 0, count: converter.elementCount)
        try out.withUnsafeMutableBufferPointer { buffer in
            _ = try converter.convert(image, rect: rect, into: try #require(buffer.baseAddress))
        }
        return out
    }

    @Test func goldensArePresent() {
        #expect(Self.cases.count == 24)
    }

    /// A pixel-aligned crop at scale 1 samples whole pixels: the tensor is the golden RGB's slice, within the
    /// issue's 1 level (0 for video-range BT.601, which uses OpenCV's own arithmetic).
    @Test(arguments: cases)
    func regionOfInterestCropsMatchTheGoldens(_ golden: YUVGoldenCase) throws {
        let image = try Self.image(golden)
        let rgb = try golden.rgb()
        let exact = golden.range == "video" && golden.matrix == "bt601"
        #expect(golden.regions.count == 3)
        for region in golden.regions {
            let (x, y, w, h) = (region[0], region[1], region[2], region[3])
            let rect = NormalizedRect(
                xCenter: (Float(x) + Float(w) / 2) / Float(golden.width),
                yCenter: (Float(y) + Float(h) / 2) / Float(golden.height), width: Float(w) / Float(golden.width),
                height: Float(h) / Float(golden.height), rotation: 0)
            let out = try Self.levels(image, rect: rect, width: w, height: h)
            var expected: [UInt8] = []
            for row in y..<(y + h) {
                expected += rgb[((row * golden.width + x) * 3)..<((row * golden.width + x + w) * 3)]
            }
            let largest = zip(out, expected).map { abs(Int($0) - Int($1)) }.max() ?? -1
            #expect(out.count == expected.count)
            #expect(largest >= 0 && largest <= (exact ? 0 : 1), "\(golden.name) region \(region): \(largest)")
        }
    }

    /// Rotated, scaled, partly outside the frame: the warp of the YUV frame is the warp of its RGB conversion, bit
    /// for bit, with either border.
    @Test(arguments: [BorderMode.zero, .replicate])
    func warpOfYUVIsWarpOfItsRGB(_ border: BorderMode) throws {
        for golden in Self.cases where golden.width == 38 {
            let image = try Self.image(golden)
            let rgb = image.converted(to: .rgb8)
            for rect in [
                NormalizedRect(xCenter: 0.45, yCenter: 0.55, width: 0.7, height: 0.9, rotation: 0.6),
                NormalizedRect(xCenter: 0.9, yCenter: 0.1, width: 0.8, height: 0.8, rotation: -2.1),
                NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1, rotation: 0),
            ] {
                let fromYUV = try Self.levels(image, rect: rect, width: 29, height: 17, border: border)
                let fromRGB = try Self.levels(rgb, rect: rect, width: 29, height: 17, border: border)
                #expect(fromYUV == fromRGB, "\(golden.name) \(rect)")
            }
        }
    }

    /// HandLandmarker on a hand photo as an NV12 frame (video range BT.601, wrapped without a copy, odd strides)
    /// and on the same frame converted to RGB: the same landmarks, within 1e-3 (the bound).
    @Test func handLandmarkerOnNV12MatchesRGB() throws {
        let photo = try PixelImage(contentsOfFile: Fixtures.testFile("PureVisionTests/Fixtures/hands/hand_src.jpg"))
        let packed = try photo.converted(toYUV: .nv12, encoding: .videoBT601)
        let (width, height) = (packed.width, packed.height)
        let rgbFrame = packed.converted(to: .rgb8)
        let planes = try #require(packed.packedYUVPlanes())
        #expect(planes.count == 2 && planes[0].count == width * height && planes[1].count == width * height / 2)
        // The planes re-laid with odd strides, as a camera buffer might have them.
        let lumaStride = width + 13
        let chromaStride = width + 7
        var luma = [UInt8](repeating: 0xEE, count: lumaStride * height)
        var chroma = [UInt8](repeating: 0xEE, count: chromaStride * height / 2)
        for row in 0..<height {
            luma.replaceSubrange(
                row * lumaStride..<row * lumaStride + width, with: planes[0][row * width..<(row + 1) * width])
        }
        for row in 0..<height / 2 {
            chroma.replaceSubrange(
                row * chromaStride..<row * chromaStride + width, with: planes[1][row * width..<(row + 1) * width])
        }
        let landmarker = try HandLandmarker(
            options: HandLandmarkerOptions(
                baseOptions: BaseOptions(modelAssetPath: Fixtures.model("hand_landmarker.task")), numHands: 2))
        let fromRGB = try landmarker.detect(image: rgbFrame)
        let fromNV12 = try luma.withUnsafeBytes { lumaBytes in
            try chroma.withUnsafeBytes { chromaBytes in
                let frame = try PixelImage.wrapping(
                    unsafeLuma: lumaBytes, lumaBytesPerRow: lumaStride, chroma: chromaBytes,
                    chromaBytesPerRow: chromaStride, width: width, height: height, format: .nv12)
                #expect(frame.isBorrowed)
                #expect(
                    frame.converted(to: .rgb8).withUnsafePixels { Array($0) }
                        == rgbFrame.withUnsafePixels { Array($0) })
                return try landmarker.detect(image: frame)
            }
        }
        #expect(fromRGB.landmarks.count >= 1)
        #expect(fromNV12.landmarks.count == fromRGB.landmarks.count)
        var largest: Float = 0
        for (a, b) in zip(fromNV12.landmarks, fromRGB.landmarks) {
            #expect(a.count == 21 && b.count == 21)
            for (p, q) in zip(a, b) { largest = max(largest, abs(p.x - q.x), abs(p.y - q.y), abs(p.z - q.z)) }
        }
        #expect(largest <= 1e-3, "largest landmark difference \(largest)")
    }
}
