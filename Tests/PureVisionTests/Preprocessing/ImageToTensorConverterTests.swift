import Foundation
import PureVision
import PureVisionCore
import PureVisionImage
import PureVisionKernels
import PureVisionTestSupport
import Testing

/// Warp goldens: `tools/warp_reference.py` (a NumPy restatement of the OpenCV 3.4.10 recipe) and MediaPipe
/// 0.10.14's own ImageToTensorCalculator tensors (`Fixtures/warp_mediapipe`, made by another tool). Both must match
/// bit for bit.
@Suite struct ImageToTensorConverterTests {
    static let referenceCases = [
        "face_letterbox_128", "palm_letterbox_192", "hand_rotated_roi_224", "rotated_letterbox_zero_192",
        "options_roi_rot90_224", "gray_letterbox_128", "gray_rotated_replicate_192",
        "options_roi_rot270_letterbox_128", "options_rot180_outside_zero_128", "flat_150x12_blocks",
    ]
    static let mediaPipeCases = [
        "face_letterbox_tall", "face_letterbox_wide", "face_letterbox_rot90", "face_letterbox_rot180",
        "hand_rotated_replicate", "hand_rotated_zero", "hand_off_edge_replicate", "hand_off_edge_zero_letterbox",
        "classifier_stretch_replicate",
    ]

    // MARK: Goldens

    @Test(arguments: referenceCases)
    func matchesNumPyReference(_ name: String) throws {
        let manifest = try Self.json("PureVisionTests/Fixtures/warp/cases.json")
        let cases = try #require(manifest["cases"] as? [[String: Any]])
        let entry = try #require(cases.first { $0["name"] as? String == name }, "case \(name) not in cases.json")
        let sourceName = try #require(entry["source"] as? String)
        let image = try Self.npyImage("PureVisionTests/Fixtures/warp/source_\(sourceName).npy")
        let width = try #require(entry["width"] as? Int)
        let height = try #require(entry["height"] as? Int)
        let rangeValues = try #require(entry["range"] as? [Double])
        let options = ImageToTensorOptions(
            outputWidth: width, outputHeight: height, keepAspectRatio: try #require(entry["keep"] as? Bool),
            border: entry["border"] as? String == "zero" ? .zero : .replicate,
            range: (Float(rangeValues[0]), Float(rangeValues[1])))
        let expectedRect = (entry["rect"] as? [Double]).map {
            NormalizedRect(
                xCenter: Float($0[0]), yCenter: Float($0[1]), width: Float($0[2]), height: Float($0[3]),
                rotation: Float($0[4]))
        }
        var rect = expectedRect
        if let processing = entry["options"] as? [String: Any] {
            let roi = (processing["roi"] as? [Double]).map {
                RectF(left: Float($0[0]), top: Float($0[1]), right: Float($0[2]), bottom: Float($0[3]))
            }
            let ipo = ImageProcessingOptions(
                regionOfInterest: roi, rotationDegrees: try #require(processing["rotationDegrees"] as? Int))
            rect = try ipo.normalizedRect(imageWidth: image.width, imageHeight: image.height)
            #expect(rect == expectedRect, "ImageProcessingOptions conversion differs from the reference")
        }

        let golden = try Fixtures.numpy(atPath: Fixtures.testFile("PureVisionTests/Fixtures/warp/case_\(name).npy"))
        let goldenChannels = golden.shape.dimensions[2]
        #expect(golden.shape.dimensions == [height, width, goldenChannels])
        let converter = try ImageToTensorConverter(options: options)
        var bytes = [UInt8](repeating: 0, count: converter.elementCount)
        let result = try bytes.withUnsafeMutableBufferPointer { buffer in
            try converter.convert(image, rect: rect, into: try #require(buffer.baseAddress))
        }
        var mismatches = 0
        for pixel in 0..<(width * height) {
            for channel in 0..<3 {
                let expected = golden.bytes[pixel * goldenChannels + (goldenChannels == 1 ? 0 : channel)]
                if bytes[pixel * 3 + channel] != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(bytes.count) levels differ from the NumPy reference")

        let padding = try #require(entry["padding"] as? [Double]).map(Float.init)
        let got = result.letterboxPadding
        #expect([got.left, got.top, got.right, got.bottom] == padding)
        #expect(result.matrix == (try #require(entry["matrix"] as? [Double])).map(Float.init))

        var floats = [Float](repeating: .nan, count: converter.elementCount)
        try floats.withUnsafeMutableBufferPointer { buffer in
            _ = try converter.convert(image, rect: rect, into: try #require(buffer.baseAddress))
        }
        let scale = options.scale
        let badFloats = zip(floats, bytes).filter { $0.0 != options.range.min.addingProduct(Float($0.1), scale) }
        #expect(badFloats.isEmpty, "float tensor is not fma(level, scale, min) at \(badFloats.count) elements")
    }

    @Test(arguments: mediaPipeCases)
    func matchesMediaPipeTensors(_ name: String) throws {
        let manifest = try Self.json("PureVisionTests/Fixtures/warp_mediapipe/cases.json")
        let cases = try #require(manifest["cases"] as? [[String: Any]])
        let entry = try #require(cases.first { $0["case"] as? String == name }, "case \(name) not in cases.json")
        let imagePath = Fixtures.testFile("PureVisionTests/Fixtures/" + (try #require(entry["image"] as? String)))
        let image = try PixelImage(contentsOfFile: imagePath)
        let r = try #require(entry["norm_rect"] as? [String: Double])
        let rect = NormalizedRect(
            xCenter: Float(try #require(r["x_center"])), yCenter: Float(try #require(r["y_center"])),
            width: Float(try #require(r["width"])), height: Float(try #require(r["height"])),
            rotation: Float(try #require(r["rotation"])))
        let o = try #require(entry["options"] as? [String: Any])
        let range = try #require(o["output_tensor_float_range"] as? [Double])
        let options = ImageToTensorOptions(
            outputWidth: try #require(o["output_tensor_width"] as? Int),
            outputHeight: try #require(o["output_tensor_height"] as? Int),
            keepAspectRatio: try #require(o["keep_aspect_ratio"] as? Bool),
            border: o["border_mode"] as? String == "BORDER_ZERO" ? .zero : .replicate,
            range: (Float(range[0]), Float(range[1])))
        let converter = try ImageToTensorConverter(options: options)
        var floats = [Float](repeating: .nan, count: converter.elementCount)
        let result = try floats.withUnsafeMutableBufferPointer { buffer in
            try converter.convert(image, rect: rect, into: try #require(buffer.baseAddress))
        }
        var levels = [UInt8](repeating: 0, count: converter.elementCount)
        try levels.withUnsafeMutableBufferPointer { buffer in
            _ = try converter.convert(image, rect: rect, into: try #require(buffer.baseAddress))
        }
        // Rows split over a pool's threads (as the tasks do at 2 threads and more) give the same tensors.
        let pool = ThreadPool(threadCount: 3)
        var pooledFloats = [Float](repeating: .nan, count: converter.elementCount)
        var pooledLevels = [UInt8](repeating: 0, count: converter.elementCount)
        try pooledFloats.withUnsafeMutableBufferPointer { buffer in
            _ = try converter.convert(image, rect: rect, into: try #require(buffer.baseAddress), pool: pool)
        }
        try pooledLevels.withUnsafeMutableBufferPointer { buffer in
            _ = try converter.convert(image, rect: rect, into: try #require(buffer.baseAddress), pool: pool)
        }
        #expect(pooledFloats.map(\.bitPattern) == floats.map(\.bitPattern))
        #expect(pooledLevels == levels)
        let tensorFile = try #require(entry["tensor"] as? String)
        let golden = try Fixtures.numpy(
            atPath: Fixtures.testFile("PureVisionTests/Fixtures/warp_mediapipe/\(tensorFile)"))
        #expect(golden.shape.dimensions.reduce(1, *) == floats.count)
        if golden.elementType == .uint8 {
            let differing = zip(levels, golden.bytes).filter { $0.0 != $0.1 }.count
            #expect(differing == 0, "\(differing) of \(levels.count) levels differ from MediaPipe's tensor")
        } else {
            let differing = zip(floats, golden.floats).filter { $0.0.bitPattern != $0.1.bitPattern }.count
            #expect(differing == 0, "\(differing) of \(floats.count) floats differ from MediaPipe's tensor")
        }
        if let digest = entry["tensor_sha256"] as? String {
            let bytes = floats.withUnsafeBytes { [UInt8]($0) }
            #expect(SHA256.hexDigest(bytes) == digest, "float tensor differs from MediaPipe's (SHA-256)")
        }
        #expect(result.matrix == (try #require(entry["matrix"] as? [Double])).map(Float.init))
    }

    // MARK: Geometry and layout

    @Test(arguments: [PixelFormat.gray8, .rgb8, .rgba8, .bgra8, .argb8], [BorderMode.zero, .replicate])
    func identityReproducesPixels(_ format: PixelFormat, _ border: BorderMode) throws {
        let (width, height) = (37, 23)
        var random = SplitMix64(seed: 7)
        let pixels = (0..<(width * height * format.channelCount)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let image = try PixelImage(width: width, height: height, format: format, pixels: pixels)
        let converter = try ImageToTensorConverter(
            options: ImageToTensorOptions(outputWidth: width, outputHeight: height, border: border))
        var out = [UInt8](repeating: 0, count: converter.elementCount)
        let result = try out.withUnsafeMutableBufferPointer { try converter.convert(image, into: $0.baseAddress!) }
        let rgbOffsets: [Int] =
            switch format {
            case .gray8, .nv12, .nv21, .i420: [0, 0, 0]
            case .rgb8, .rgba8: [0, 1, 2]
            case .bgra8: [2, 1, 0]
            case .argb8: [1, 2, 3]
            }
        var expected = [UInt8]()
        for pixel in 0..<(width * height) {
            for offset in rgbOffsets { expected.append(pixels[pixel * format.channelCount + offset]) }
        }
        #expect(out == expected)
        #expect(result.matrix == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    }

    @Test func rowStrideIsHonoured() throws {
        let (width, height, stride) = (5, 4, 19)
        let pixels = (0..<(stride * height)).map { UInt8($0 % 251) }
        let strided = try PixelImage(width: width, height: height, format: .rgb8, pixels: pixels, bytesPerRow: stride)
        let packed = strided.ownedCopy()
        let converter = try ImageToTensorConverter(
            options: ImageToTensorOptions(outputWidth: 7, outputHeight: 6, keepAspectRatio: true, border: .zero))
        var a = [UInt8](repeating: 0, count: converter.elementCount)
        var b = a
        let rect = NormalizedRect(xCenter: 0.4, yCenter: 0.6, width: 0.9, height: 0.7, rotation: 0.3)
        try a.withUnsafeMutableBufferPointer { _ = try converter.convert(strided, rect: rect, into: $0.baseAddress!) }
        try b.withUnsafeMutableBufferPointer { _ = try converter.convert(packed, rect: rect, into: $0.baseAddress!) }
        #expect(a == b)
    }

    struct LetterboxCase: Sendable, CustomTestStringConvertible {
        var imageWidth: Int
        var imageHeight: Int
        var tensorWidth: Int
        var tensorHeight: Int
        var padding: [Float]
        var testDescription: String { "\(imageWidth)×\(imageHeight) into \(tensorWidth)×\(tensorHeight)" }
    }

    @Test(arguments: [
        LetterboxCase(
            imageWidth: 200, imageHeight: 100, tensorWidth: 128, tensorHeight: 128, padding: [0, 0.25, 0, 0.25]),
        LetterboxCase(
            imageWidth: 100, imageHeight: 200, tensorWidth: 128, tensorHeight: 128, padding: [0.25, 0, 0.25, 0]),
        LetterboxCase(
            imageWidth: 64, imageHeight: 64, tensorWidth: 128, tensorHeight: 64, padding: [0.25, 0, 0.25, 0]),
        LetterboxCase(imageWidth: 90, imageHeight: 90, tensorWidth: 96, tensorHeight: 96, padding: [0, 0, 0, 0]),
    ])
    func letterboxPadding(_ c: LetterboxCase) throws {
        let image = try PixelImage(
            width: c.imageWidth, height: c.imageHeight, format: .gray8,
            pixels: [UInt8](repeating: 200, count: c.imageWidth * c.imageHeight))
        let converter = try ImageToTensorConverter(
            options: ImageToTensorOptions(
                outputWidth: c.tensorWidth, outputHeight: c.tensorHeight, keepAspectRatio: true, border: .zero,
                range: (-1, 1)))
        var out = [Float](repeating: .nan, count: converter.elementCount)
        let result = try out.withUnsafeMutableBufferPointer { try converter.convert(image, into: $0.baseAddress!) }
        let p = result.letterboxPadding
        #expect([p.left, p.top, p.right, p.bottom] == c.padding)
        // The band is black (−1), the middle of the tensor is the image (200 → 200·2/255 − 1).
        let centre = ((c.tensorHeight / 2) * c.tensorWidth + c.tensorWidth / 2) * 3
        #expect(out[centre] == Float(-1).addingProduct(200, Float(2) / 255))
        if p.top > 0 { #expect(out[0] == -1 && out[out.count - 1] == -1) }
        if p.left > 0 { #expect(out[0] == -1 && out[(c.tensorWidth - 1) * 3] == -1) }
    }

    @Test(arguments: [Float(0), 0.4, -1.9, Float.pi / 2])
    func matrixMapsTensorCornersToRoiCorners(_ rotation: Float) throws {
        let (imageWidth, imageHeight) = (320, 240)
        let rect = NormalizedRect(xCenter: 0.45, yCenter: 0.55, width: 0.3, height: 0.5, rotation: rotation)
        let converter = try ImageToTensorConverter(options: ImageToTensorOptions(outputWidth: 64, outputHeight: 64))
        let image = try PixelImage(
            width: imageWidth, height: imageHeight, format: .gray8,
            pixels: [UInt8](repeating: 0, count: imageWidth * imageHeight))
        var out = [Float](repeating: 0, count: converter.elementCount)
        let result = try out.withUnsafeMutableBufferPointer {
            try converter.convert(image, rect: rect, into: $0.baseAddress!)
        }
        // ROI corners in pixels, rotated about the centre (y down, positive rotation as in MediaPipe), normalized.
        let (cx, cy) = (0.45 * Double(imageWidth), 0.55 * Double(imageHeight))
        let (w, h) = (0.3 * Double(imageWidth), 0.5 * Double(imageHeight))
        let (c, s) = (cos(Double(rotation)), sin(Double(rotation)))
        for (u, v) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)] {
            let (dx, dy) = ((u - 0.5) * w, (v - 0.5) * h)
            let expectedX = (cx + dx * c - dy * s) / Double(imageWidth)
            let expectedY = (cy + dx * s + dy * c) / Double(imageHeight)
            let got = result.projectToImage(x: Float(u), y: Float(v))
            #expect(
                abs(Double(got.x) - expectedX) < 1e-6 && abs(Double(got.y) - expectedY) < 1e-6,
                "tensor corner (\(u), \(v)) → \(got), expected (\(expectedX), \(expectedY))")
        }
    }

    @Test(arguments: [BorderMode.zero, .replicate])
    func rotation90OfSmallAsymmetricImage(_ border: BorderMode) throws {
        // 3 wide, 2 tall: a b c / d e f. Turned 90° clockwise it is 2 wide, 3 tall: d a / e b / f c.
        let (width, height) = (3, 2)
        let pixels: [UInt8] = [10, 20, 30, 40, 50, 60]
        let image = try PixelImage(width: width, height: height, format: .gray8, pixels: pixels)
        let rect = try ImageProcessingOptions(rotationDegrees: 90)
            .normalizedRect(imageWidth: width, imageHeight: height)
        let converter = try ImageToTensorConverter(
            options: ImageToTensorOptions(outputWidth: height, outputHeight: width, border: border))
        var out = [UInt8](repeating: 0, count: converter.elementCount)
        try out.withUnsafeMutableBufferPointer { _ = try converter.convert(image, rect: rect, into: $0.baseAddress!) }
        // Tensor pixel (x, y) samples the source at column y, row H − x: indices are coordinates, so column 0 of
        // the tensor lies on the image's bottom edge (row 2) and is border.
        var expected = [UInt8]()
        for y in 0..<width {
            for x in 0..<height {
                let row = height - x
                let edge: UInt8 = border == .zero ? 0 : pixels[(height - 1) * width + y]
                let value = row < height ? pixels[row * width + y] : edge
                expected += [value, value, value]
            }
        }
        #expect(out == expected)
    }

    // MARK: Errors and helpers

    @Test(arguments: [
        NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0, height: 0),
        NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: -0.2, height: 0.5),
        NormalizedRect(xCenter: .nan, yCenter: 0.5, width: 0.2, height: 0.5),
        NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: .infinity, height: 0.5),
        NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.5, rotation: .nan),
    ])
    func invalidRectThrows(_ rect: NormalizedRect) throws {
        let image = try PixelImage(width: 4, height: 4, format: .gray8, pixels: [UInt8](repeating: 1, count: 16))
        let converter = try ImageToTensorConverter(
            options: ImageToTensorOptions(outputWidth: 8, outputHeight: 8, keepAspectRatio: true))
        var out = [Float](repeating: 0, count: converter.elementCount)
        out.withUnsafeMutableBufferPointer { buffer in
            let error = #expect(throws: PreprocessingError.self) {
                try converter.convert(image, rect: rect, into: buffer.baseAddress!)
            }
            guard case .invalidRect = error else {
                Issue.record("expected invalidRect, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func extremeRectsDoNotCrash() throws {
        let image = try PixelImage(width: 5, height: 3, format: .rgb8, pixels: [UInt8](repeating: 9, count: 45))
        let converter = try ImageToTensorConverter(options: ImageToTensorOptions(outputWidth: 16, outputHeight: 16))
        var out = [UInt8](repeating: 0, count: converter.elementCount)
        for rect in [
            NormalizedRect(xCenter: 1e6, yCenter: -1e6, width: 1e-9, height: 1e-9, rotation: 1),
            NormalizedRect(xCenter: 0.5, yCenter: 0.5, width: 1e30, height: 1e30, rotation: 3),
        ] {
            try out.withUnsafeMutableBufferPointer {
                _ = try converter.convert(image, rect: rect, into: $0.baseAddress!)
            }
            #expect(out.allSatisfy { $0 == 9 })
        }
    }

    @Test(arguments: [
        ImageToTensorOptions(outputWidth: 0, outputHeight: 8),
        ImageToTensorOptions(outputWidth: 8, outputHeight: 100_000),
        ImageToTensorOptions(outputWidth: 8, outputHeight: 8, range: (1, 1)),
        ImageToTensorOptions(outputWidth: 8, outputHeight: 8, range: (0, .nan)),
    ])
    func invalidOptionsThrow(_ options: ImageToTensorOptions) {
        #expect(throws: PreprocessingError.self) { try ImageToTensorConverter(options: options) }
    }

    @Test func letterboxRemovalAndBoxProjection() throws {
        let image = try PixelImage(
            width: 200, height: 100, format: .gray8, pixels: [UInt8](repeating: 0, count: 20_000))
        let converter = try ImageToTensorConverter(
            options: ImageToTensorOptions(outputWidth: 32, outputHeight: 32, keepAspectRatio: true))
        var out = [Float](repeating: 0, count: converter.elementCount)
        let result = try out.withUnsafeMutableBufferPointer { try converter.convert(image, into: $0.baseAddress!) }
        // Padding 0.25 top and bottom: tensor y 0.25 … 0.75 is the image.
        let landmark = result.removingLetterbox(x: 0.5, y: 0.25, z: 0.1)
        #expect(landmark.x == 0.5 && landmark.y == 0 && landmark.z == 0.1)
        #expect(result.removingLetterbox(x: 0.2, y: 0.75).y == 1)
        // Without rotation the matrix maps the padded tensor onto the image: y' = 2y − 0.5.
        let box = result.projectBoxToImage(xMin: 0.25, yMin: 0.25, width: 0.5, height: 0.5)
        #expect(box.xMin == 0.25 && box.yMin == 0 && box.width == 0.5 && box.height == 1)
    }

    // MARK: Fixture helpers

    static func json(_ relativePath: String) throws -> [String: Any] {
        let data = try Fixtures.bytes(atPath: Fixtures.testFile(relativePath))
        return try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
    }

    /// A `[H, W, C]` uint8 `.npy` as an image (C = 1 gray, 3 RGB).
    static func npyImage(_ relativePath: String) throws -> PixelImage {
        let tensor = try Fixtures.numpy(atPath: Fixtures.testFile(relativePath))
        let dims = tensor.shape.dimensions
        let format: PixelFormat = dims[2] == 1 ? .gray8 : .rgb8
        return try PixelImage(width: dims[1], height: dims[0], format: format, pixels: tensor.bytes)
    }
}
