/// The range of a YUV image's levels.
public enum YUVRange: String, Sendable, Hashable, CaseIterable {
    /// Video ("limited", "studio") range: Y in 16…235, U and V in 16…240 (iOS `420v`, most Android cameras,
    /// what OpenCV's `cvtColor` assumes).
    case video
    /// Full range: Y, U and V in 0…255 (iOS `420f`, JPEG).
    case full
}

/// The matrix that relates a YUV image's levels to RGB.
public enum YUVMatrix: String, Sendable, Hashable, CaseIterable {
    /// ITU-R BT.601 (Kr = 0.299, Kb = 0.114): standard-definition video, most phone cameras' preview frames.
    case bt601
    /// ITU-R BT.709 (Kr = 0.2126, Kb = 0.0722): HD video.
    case bt709
}

/// How a YUV image's levels become RGB: the range and the matrix.
///
/// `.videoBT601` is what OpenCV's `cvtColor(COLOR_YUV2RGB_NV12 / _NV21 / _I420)` computes, and MediaPipe with it; it
/// uses OpenCV's own fixed-point coefficients (1.164, 1.596, −0.813, −0.391, 2.018 in 20-bit fixed point, and
/// Y − 16 clamped at 0), so the RGB levels are the same as OpenCV's. The other encodings follow the standard
/// equations, R = c·(Y − y₀) + 2(1 − Kr)·s·(V − 128), B = c·(Y − y₀) + 2(1 − Kb)·s·(U − 128),
/// G = (c·(Y − y₀) − Kr·R′ − Kb·B′) / Kg expanded the same way, with c = 255/219, s = 255/224, y₀ = 16 for video
/// range and c = s = 1, y₀ = 0 for full range, in 20-bit fixed point, rounded half up and saturated to 0…255.
public struct YUVEncoding: Sendable, Hashable {
    /// The range of the levels.
    public var range: YUVRange
    /// The matrix.
    public var matrix: YUVMatrix

    /// Creates an encoding.
    public init(range: YUVRange, matrix: YUVMatrix) {
        self.range = range
        self.matrix = matrix
    }

    /// Video range, BT.601: OpenCV's `cvtColor` (iOS `420v`, Android camera frames).
    public static let videoBT601 = YUVEncoding(range: .video, matrix: .bt601)
    /// Full range, BT.601 (iOS `420f`).
    public static let fullBT601 = YUVEncoding(range: .full, matrix: .bt601)
    /// Video range, BT.709 (HD video).
    public static let videoBT709 = YUVEncoding(range: .video, matrix: .bt709)
    /// Full range, BT.709.
    public static let fullBT709 = YUVEncoding(range: .full, matrix: .bt709)
}

/// A YUV image's chroma planes and how to read them.
struct ChromaPlanes {
    /// NV12 / NV21: the interleaved chroma plane; I420: the U plane.
    var first: PixelImage.Storage
    var firstBytesPerRow: Int
    /// I420: the V plane; nil for NV12 / NV21.
    var second: PixelImage.Storage?
    var secondBytesPerRow: Int
    var encoding: YUVEncoding
}

/// YUV → RGB for one encoding, in OpenCV's 20-bit fixed point: each channel is
/// `(max(lumaFloor, Y − lumaOffset)·cy + Σ chroma terms + 2¹⁹) >> 20`, saturated to 0…255.
package struct YUVToRGB: Sendable, Hashable {
    let lumaOffset: Int32
    /// 0 for OpenCV's video-range BT.601 (it clamps Y − 16 at 0), Int32.min (no clamp) otherwise.
    let lumaFloor: Int32
    let cy: Int32
    let crv: Int32
    let cgu: Int32
    let cgv: Int32
    let cbu: Int32

    private static let shift: Int32 = 20

    /// The fixed-point coefficients of `encoding`.
    package init(_ encoding: YUVEncoding) {
        if encoding == .videoBT601 {
            // OpenCV's ITUR_BT_601_* constants (imgproc, color_yuv): its coefficients rounded to 3 digits.
            (lumaOffset, lumaFloor) = (16, 0)
            (cy, crv, cgu, cgv, cbu) = (1_220_542, 1_673_527, -409_993, -852_492, 2_116_026)
            return
        }
        let (kr, kb): (Double, Double) = encoding.matrix == .bt601 ? (0.299, 0.114) : (0.2126, 0.0722)
        let kg = 1 - kr - kb
        let video = encoding.range == .video
        let lumaScale = video ? 255.0 / 219.0 : 1
        let chromaScale = video ? 255.0 / 224.0 : 1
        let one = Double(1 << Self.shift)
        func fixed(_ value: Double) -> Int32 { Int32((value * one).rounded()) }
        lumaOffset = video ? 16 : 0
        lumaFloor = Int32.min
        cy = fixed(lumaScale)
        crv = fixed(2 * (1 - kr) * chromaScale)
        cbu = fixed(2 * (1 - kb) * chromaScale)
        cgu = fixed(-2 * (1 - kb) * kb / kg * chromaScale)
        cgv = fixed(-2 * (1 - kr) * kr / kg * chromaScale)
    }

    /// The RGB levels (0…255) of one pixel.
    @inline(__always)
    package func rgb(y: UInt8, u: UInt8, v: UInt8) -> SIMD3<Int32> {
        let luma = max(lumaFloor, Int32(y) - lumaOffset) &* cy &+ (1 << (Self.shift - 1))
        let uu = Int32(u) - 128
        let vv = Int32(v) - 128
        let sums = SIMD3<Int32>(
            luma &+ crv &* vv, luma &+ cgu &* uu &+ cgv &* vv, luma &+ cbu &* uu)
        let levels = sums &>> Self.shift
        return levels.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 255))
    }
}

/// RGB → YUV for one encoding: the inverse of its standard equations (see `YUVEncoding`) in floating point, each
/// level rounded half up and saturated to 0…255. The one RGB → YUV conversion: YUV images and YUV4MPEG2 frames use it.
package struct RGBToYUV: Sendable, Hashable {
    let kr: Double
    let kb: Double
    let lumaScale: Double
    let lumaOffset: Double
    let chromaScale: Double

    /// The coefficients of `encoding`.
    package init(_ encoding: YUVEncoding) {
        (kr, kb) = encoding.matrix == .bt601 ? (0.299, 0.114) : (0.2126, 0.0722)
        (lumaScale, lumaOffset, chromaScale) =
            encoding.range == .video ? (219.0 / 255, 16.0, 224.0 / 255) : (1.0, 0.0, 1.0)
    }

    /// The luma level of RGB levels (0…255).
    @inline(__always)
    package func luma(r: Double, g: Double, b: Double) -> UInt8 {
        Self.level(lumaOffset + lumaScale * (kr * r + (1 - kr - kb) * g + kb * b))
    }

    /// The chroma levels (U, V) of RGB levels; a subsampled chroma sample takes the mean RGB of the pixels it covers.
    @inline(__always)
    package func chroma(r: Double, g: Double, b: Double) -> (u: UInt8, v: UInt8) {
        let y = kr * r + (1 - kr - kb) * g + kb * b
        return (
            Self.level(128 + chromaScale * (b - y) / (2 * (1 - kb))),
            Self.level(128 + chromaScale * (r - y) / (2 * (1 - kr)))
        )
    }

    @inline(__always)
    private static func level(_ value: Double) -> UInt8 { UInt8(min(max((value + 0.5).rounded(.down), 0), 255)) }
}

/// Read access to a YUV 4:2:0 image's planes, valid inside `PixelImage.withUnsafeYUVPlanes`.
///
/// Pixel (x, y) has luma `luma[y · lumaBytesPerRow + x]` and chroma `u[(y/2) · uBytesPerRow + (x/2) ·
/// chromaPixelStride]`, likewise `v`: NV12 and NV21 are the interleaved case (stride 2, V one byte after U or
/// before it), I420 the planar one (stride 1).
package struct YUVPlanes {
    package let luma: UnsafePointer<UInt8>
    package let lumaBytesPerRow: Int
    package let u: UnsafePointer<UInt8>
    package let uBytesPerRow: Int
    package let v: UnsafePointer<UInt8>
    package let vBytesPerRow: Int
    package let chromaPixelStride: Int
    package let conversion: YUVToRGB

    /// The RGB levels of pixel (x, y), which must be inside the image.
    @inline(__always)
    package func rgb(x: Int, y: Int) -> SIMD3<Int32> {
        let chromaX = (x >> 1) * chromaPixelStride
        let chromaY = y >> 1
        return conversion.rgb(
            y: luma[y * lumaBytesPerRow + x], u: u[chromaY * uBytesPerRow + chromaX],
            v: v[chromaY * vBytesPerRow + chromaX])
    }
}

extension PixelImage {
    /// The range and matrix of a YUV image's levels; nil for the interleaved formats.
    public var yuvEncoding: YUVEncoding? { chroma?.encoding }

    /// A YUV 4:2:0 image with two planes (`.nv12` or `.nv21`) that owns its planes.
    ///
    /// - Parameters:
    ///   - width: width in pixels (even).
    ///   - height: height in pixels (even).
    ///   - format: `.nv12` (U before V) or `.nv21` (V before U).
    ///   - luma: the Y plane, `height` rows of `width` bytes, `lumaBytesPerRow` apart (default `width`).
    ///   - lumaBytesPerRow: the Y plane's row stride.
    ///   - chroma: the interleaved chroma plane, `height / 2` rows of `width` bytes (`width / 2` pairs),
    ///     `chromaBytesPerRow` apart (default `width`).
    ///   - chromaBytesPerRow: the chroma plane's row stride.
    ///   - encoding: the levels' range and matrix (default BT.601 video range, OpenCV's `cvtColor`).
    ///   - orientation: how the stored pixels are meant to be displayed.
    /// - Throws: `ImageError.formatMismatch` for another format, `.oddYUVDimensions` for an odd width or height,
    ///   `.strideTooShort` or `.truncated` for a plane that cannot hold its rows, `.invalidDimensions` /
    ///   `.tooLarge` as for any image.
    public init(
        width: Int, height: Int, biPlanarFormat format: PixelFormat, luma: [UInt8], lumaBytesPerRow: Int? = nil,
        chroma: [UInt8], chromaBytesPerRow: Int? = nil, encoding: YUVEncoding = .videoBT601,
        orientation: ImageOrientation = .up
    ) throws(ImageError) {
        guard format == .nv12 || format == .nv21 else { throw .formatMismatch(format, expected: "nv12 or nv21") }
        let lumaStride = lumaBytesPerRow ?? width
        let chromaStride = chromaBytesPerRow ?? width
        try Self.validateYUV(
            width: width, height: height, format: format, luma: (lumaStride, luma.count),
            first: (chromaStride, chroma.count), second: nil)
        self.init(
            width: width, height: height, format: format, bytesPerRow: lumaStride, orientation: orientation,
            storage: .owned(luma),
            chroma: ChromaPlanes(
                first: .owned(chroma), firstBytesPerRow: chromaStride, second: nil, secondBytesPerRow: 0,
                encoding: encoding))
    }

    /// A YUV 4:2:0 image with three planes (`.i420`) that owns its planes.
    ///
    /// - Parameters:
    ///   - width: width in pixels (even).
    ///   - height: height in pixels (even).
    ///   - luma: the Y plane, `height` rows of `width` bytes, `lumaBytesPerRow` apart (default `width`).
    ///   - lumaBytesPerRow: the Y plane's row stride.
    ///   - u: the U plane, `height / 2` rows of `width / 2` bytes, `uBytesPerRow` apart (default `width / 2`).
    ///   - uBytesPerRow: the U plane's row stride.
    ///   - v: the V plane, likewise.
    ///   - vBytesPerRow: the V plane's row stride.
    ///   - encoding: the levels' range and matrix (default BT.601 video range, OpenCV's `cvtColor`).
    ///   - orientation: how the stored pixels are meant to be displayed.
    /// - Throws: as `init(width:height:biPlanarFormat:luma:lumaBytesPerRow:chroma:chromaBytesPerRow:encoding:orientation:)`.
    public init(
        width: Int, height: Int, i420Luma luma: [UInt8], lumaBytesPerRow: Int? = nil, u: [UInt8],
        uBytesPerRow: Int? = nil, v: [UInt8], vBytesPerRow: Int? = nil, encoding: YUVEncoding = .videoBT601,
        orientation: ImageOrientation = .up
    ) throws(ImageError) {
        let lumaStride = lumaBytesPerRow ?? width
        let uStride = uBytesPerRow ?? width / 2
        let vStride = vBytesPerRow ?? width / 2
        try Self.validateYUV(
            width: width, height: height, format: .i420, luma: (lumaStride, luma.count), first: (uStride, u.count),
            second: (vStride, v.count))
        self.init(
            width: width, height: height, format: .i420, bytesPerRow: lumaStride, orientation: orientation,
            storage: .owned(luma),
            chroma: ChromaPlanes(
                first: .owned(u), firstBytesPerRow: uStride, second: .owned(v), secondBytesPerRow: vStride,
                encoding: encoding))
    }

    /// Wraps a two-plane YUV 4:2:0 frame (`.nv12` or `.nv21`) the caller owns, without copying: for example the
    /// two planes of a locked `CVPixelBuffer` (`420v` is `.nv12` with `.videoBT601`, `420f` `.nv12` with
    /// `.fullBT601`), or Android's `YUV_420_888` planes when the chroma pixel stride is 2.
    ///
    /// The memory must stay valid and unchanged while the image (or a copy of the value) is used; a task that keeps
    /// the image beyond the call (live-stream mode) copies it first. Plane sizes are as in the owning initializer.
    /// - Throws: as `init(width:height:biPlanarFormat:luma:lumaBytesPerRow:chroma:chromaBytesPerRow:encoding:orientation:)`.
    public static func wrapping(
        unsafeLuma luma: UnsafeRawBufferPointer, lumaBytesPerRow: Int, chroma: UnsafeRawBufferPointer,
        chromaBytesPerRow: Int, width: Int, height: Int, format: PixelFormat, encoding: YUVEncoding = .videoBT601,
        orientation: ImageOrientation = .up
    ) throws(ImageError) -> PixelImage {
        guard format == .nv12 || format == .nv21 else { throw .formatMismatch(format, expected: "nv12 or nv21") }
        try validateYUV(
            width: width, height: height, format: format, luma: (lumaBytesPerRow, luma.count),
            first: (chromaBytesPerRow, chroma.count), second: nil)
        guard let lumaBase = luma.baseAddress, let chromaBase = chroma.baseAddress else {
            throw .truncated("empty plane")
        }
        return PixelImage(
            width: width, height: height, format: format, bytesPerRow: lumaBytesPerRow, orientation: orientation,
            storage: .borrowed(lumaBase),
            chroma: ChromaPlanes(
                first: .borrowed(chromaBase), firstBytesPerRow: chromaBytesPerRow, second: nil, secondBytesPerRow: 0,
                encoding: encoding))
    }

    /// Wraps a three-plane YUV 4:2:0 frame (`.i420`) the caller owns, without copying (Android's `YUV_420_888`
    /// when the chroma pixel stride is 1, V4L2 `YU12`). Lifetime rules as for the two-plane `wrapping`.
    /// - Throws: as `init(width:height:i420Luma:lumaBytesPerRow:u:uBytesPerRow:v:vBytesPerRow:encoding:orientation:)`.
    public static func wrapping(
        unsafeLuma luma: UnsafeRawBufferPointer, lumaBytesPerRow: Int, u: UnsafeRawBufferPointer, uBytesPerRow: Int,
        v: UnsafeRawBufferPointer, vBytesPerRow: Int, width: Int, height: Int, encoding: YUVEncoding = .videoBT601,
        orientation: ImageOrientation = .up
    ) throws(ImageError) -> PixelImage {
        try validateYUV(
            width: width, height: height, format: .i420, luma: (lumaBytesPerRow, luma.count),
            first: (uBytesPerRow, u.count), second: (vBytesPerRow, v.count))
        guard let lumaBase = luma.baseAddress, let uBase = u.baseAddress, let vBase = v.baseAddress else {
            throw .truncated("empty plane")
        }
        return PixelImage(
            width: width, height: height, format: .i420, bytesPerRow: lumaBytesPerRow, orientation: orientation,
            storage: .borrowed(lumaBase),
            chroma: ChromaPlanes(
                first: .borrowed(uBase), firstBytesPerRow: uBytesPerRow, second: .borrowed(vBase),
                secondBytesPerRow: vBytesPerRow, encoding: encoding))
    }

    /// Throws unless the size suits YUV 4:2:0 and each plane (stride, byte count) holds its rows.
    static func validateYUV(
        width: Int, height: Int, format: PixelFormat, luma: (Int, Int), first: (Int, Int), second: (Int, Int)?
    ) throws(ImageError) {
        try validateSize(width: width, height: height)
        guard width % 2 == 0, height % 2 == 0 else { throw .oddYUVDimensions(width: width, height: height) }
        try validatePlane(
            rowBytes: width, rows: height, bytesPerRow: luma.0, byteCount: luma.1, what: "Y plane", width: width,
            height: height)
        let chromaRowBytes = format == .i420 ? width / 2 : width
        try validatePlane(
            rowBytes: chromaRowBytes, rows: height / 2, bytesPerRow: first.0, byteCount: first.1,
            what: format == .i420 ? "U plane" : "chroma plane", width: width, height: height)
        if let second {
            try validatePlane(
                rowBytes: chromaRowBytes, rows: height / 2, bytesPerRow: second.0, byteCount: second.1,
                what: "V plane", width: width, height: height)
        }
    }

    /// Calls `body` with the planes of a YUV image; nil for the interleaved formats.
    package func withUnsafeYUVPlanes<R>(_ body: (YUVPlanes) throws -> R) rethrows -> R? {
        guard let chroma else { return nil }
        return try Self.withPointer(storage) { luma in
            try Self.withPointer(chroma.first) { first in
                try Self.withPointer(chroma.second ?? chroma.first) { second in
                    let conversion = YUVToRGB(chroma.encoding)
                    let planes: YUVPlanes
                    switch format {
                    case .nv21:
                        planes = YUVPlanes(
                            luma: luma, lumaBytesPerRow: bytesPerRow, u: first + 1,
                            uBytesPerRow: chroma.firstBytesPerRow, v: first, vBytesPerRow: chroma.firstBytesPerRow,
                            chromaPixelStride: 2, conversion: conversion)
                    case .i420:
                        planes = YUVPlanes(
                            luma: luma, lumaBytesPerRow: bytesPerRow, u: first, uBytesPerRow: chroma.firstBytesPerRow,
                            v: second, vBytesPerRow: chroma.secondBytesPerRow, chromaPixelStride: 1,
                            conversion: conversion)
                    default:
                        planes = YUVPlanes(
                            luma: luma, lumaBytesPerRow: bytesPerRow, u: first, uBytesPerRow: chroma.firstBytesPerRow,
                            v: first + 1, vBytesPerRow: chroma.firstBytesPerRow, chromaPixelStride: 2,
                            conversion: conversion)
                    }
                    return try body(planes)
                }
            }
        }
    }

    private static func withPointer<R>(
        _ storage: Storage, _ body: (UnsafePointer<UInt8>) throws -> R
    ) rethrows -> R {
        switch storage {
        case .borrowed(let pointer): return try body(pointer.assumingMemoryBound(to: UInt8.self))
        case .owned(let bytes):
            // Validation guarantees a non-empty plane; the substitute byte only keeps this total.
            return try (bytes.isEmpty ? [0] : bytes).withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { preconditionFailure("a non-empty array has storage") }
                return try body(base)
            }
        }
    }

    /// The planes packed to their row lengths, owned.
    func yuvOwnedCopy() -> PixelImage {
        guard let chroma else { return self }
        func packed(_ storage: Storage, rowBytes: Int, rows: Int, stride: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: rowBytes * rows)
            Self.withPointer(storage) { source in
                out.withUnsafeMutableBufferPointer { target in
                    for row in 0..<rows {
                        for x in 0..<rowBytes { target[row * rowBytes + x] = source[row * stride + x] }
                    }
                }
            }
            return out
        }
        let chromaRowBytes = format == .i420 ? width / 2 : width
        let luma = packed(storage, rowBytes: width, rows: height, stride: bytesPerRow)
        let first = packed(chroma.first, rowBytes: chromaRowBytes, rows: height / 2, stride: chroma.firstBytesPerRow)
        let second = chroma.second.map {
            packed($0, rowBytes: chromaRowBytes, rows: height / 2, stride: chroma.secondBytesPerRow)
        }
        return PixelImage(
            width: width, height: height, format: format, bytesPerRow: width, orientation: orientation,
            storage: .owned(luma),
            chroma: ChromaPlanes(
                first: .owned(first), firstBytesPerRow: chromaRowBytes, second: second.map { .owned($0) },
                secondBytesPerRow: second == nil ? 0 : chromaRowBytes, encoding: chroma.encoding))
    }

    /// A YUV image's planes, each packed to its row length: `[Y, chroma]` for `.nv12` / `.nv21` (the chroma plane
    /// interleaved as stored), `[Y, U, V]` for `.i420`; nil for the interleaved formats.
    public func packedYUVPlanes() -> [[UInt8]]? {
        guard format.isYUV else { return nil }
        let copy = yuvOwnedCopy()
        guard let chroma = copy.chroma else { return nil }
        return [copy.storage, chroma.first, chroma.second].compactMap { storage in
            guard case .owned(let bytes) = storage else { return nil }
            return bytes
        }
    }

    /// Every pixel of a YUV image as RGBA levels (alpha 255), row by row: `body(x, y, r, g, b)`.
    func forEachYUVPixel(_ body: (Int, Int, UInt8, UInt8, UInt8) -> Void) {
        _ = withUnsafeYUVPlanes { planes in
            for y in 0..<height {
                for x in 0..<width {
                    let rgb = planes.rgb(x: x, y: y)
                    body(
                        x, y, UInt8(truncatingIfNeeded: rgb.x), UInt8(truncatingIfNeeded: rgb.y),
                        UInt8(truncatingIfNeeded: rgb.z))
                }
            }
        }
    }

    /// The image encoded as YUV 4:2:0 in `format` with `encoding`, by the inverse of the standard equations
    /// (`YUVEncoding`), each chroma sample from the mean RGB of its 2 × 2 block, rounded half up. An odd width or
    /// height is first padded by repeating the last column or row.
    func encodedAsYUV(_ format: PixelFormat, encoding: YUVEncoding) -> PixelImage {
        let rgb = self.format == .rgb8 ? self : converted(to: .rgb8)
        let outWidth = width + width % 2
        let outHeight = height + height % 2
        let conversion = RGBToYUV(encoding)
        var luma = [UInt8](repeating: 0, count: outWidth * outHeight)
        var u = [UInt8](repeating: 0, count: outWidth / 2 * outHeight / 2)
        var v = u
        rgb.withUnsafePixels { raw in
            let width = width
            let height = height
            let stride = rgb.bytesPerRow
            func pixel(_ x: Int, _ y: Int) -> (Double, Double, Double) {
                let offset = min(y, height - 1) * stride + min(x, width - 1) * 3
                return (Double(raw[offset]), Double(raw[offset + 1]), Double(raw[offset + 2]))
            }
            for y in 0..<outHeight {
                for x in 0..<outWidth {
                    let (r, g, b) = pixel(x, y)
                    luma[y * outWidth + x] = conversion.luma(r: r, g: g, b: b)
                }
            }
            for cy in 0..<outHeight / 2 {
                for cx in 0..<outWidth / 2 {
                    var (r, g, b) = (0.0, 0.0, 0.0)
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let p = pixel(2 * cx + dx, 2 * cy + dy)
                        (r, g, b) = (r + p.0 / 4, g + p.1 / 4, b + p.2 / 4)
                    }
                    (u[cy * outWidth / 2 + cx], v[cy * outWidth / 2 + cx]) = conversion.chroma(r: r, g: g, b: b)
                }
            }
        }
        let first: [UInt8]
        var second: [UInt8]? = nil
        switch format {
        case .i420:
            first = u
            second = v
        default:
            var interleaved = [UInt8](repeating: 0, count: outWidth * outHeight / 2)
            for index in u.indices {
                interleaved[2 * index] = format == .nv21 ? v[index] : u[index]
                interleaved[2 * index + 1] = format == .nv21 ? u[index] : v[index]
            }
            first = interleaved
        }
        let chromaRowBytes = format == .i420 ? outWidth / 2 : outWidth
        return PixelImage(
            width: outWidth, height: outHeight, format: format, bytesPerRow: outWidth, orientation: orientation,
            storage: .owned(luma),
            chroma: ChromaPlanes(
                first: .owned(first), firstBytesPerRow: chromaRowBytes, second: second.map { .owned($0) },
                secondBytesPerRow: second == nil ? 0 : chromaRowBytes, encoding: encoding))
    }
}
