/// How the pixels of a `PixelImage` are laid out: interleaved 8-bit channels, or YUV 4:2:0 planes.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
    /// One 8-bit luminance channel.
    case gray8
    /// Red, green, blue.
    case rgb8
    /// Red, green, blue, alpha.
    case rgba8
    /// Blue, green, red, alpha (the usual camera / CoreVideo layout, `kCVPixelFormatType_32BGRA`).
    case bgra8
    /// Alpha, red, green, blue (`kCVPixelFormatType_32ARGB`).
    case argb8
    /// YUV 4:2:0, two planes: full-size Y, then interleaved U, V at half width and height (iOS `420v` / `420f`,
    /// Android `YUV_420_888` with a chroma pixel stride of 2 and U first).
    case nv12
    /// YUV 4:2:0, two planes: full-size Y, then interleaved V, U at half width and height (Android's camera NV21).
    case nv21
    /// YUV 4:2:0, three planes: full-size Y, then U, then V, each at half width and height (`YUV_420_888` with a
    /// chroma pixel stride of 1, most V4L2 webcams' YU12).
    case i420

    /// Bytes per pixel of the interleaved formats; for the YUV formats, of the luma plane (1).
    public var channelCount: Int {
        switch self {
        case .gray8, .nv12, .nv21, .i420: 1
        case .rgb8: 3
        case .rgba8, .bgra8, .argb8: 4
        }
    }

    /// Whether the format is one of the planar YUV 4:2:0 formats (`.nv12`, `.nv21`, `.i420`).
    public var isYUV: Bool {
        switch self {
        case .nv12, .nv21, .i420: true
        default: false
        }
    }
}

/// The orientation of an image's pixels, with `UIImage.Orientation`'s meaning: how the stored pixels must be
/// rotated to appear upright. The mirrored cases exist so that camera metadata can be represented, but vision tasks
/// reject them (as MediaPipe does) with `ImageError.mirroredOrientation`.
public enum ImageOrientation: String, Sendable, Hashable, CaseIterable {
    /// The pixels are upright.
    case up
    /// Rotated 180°.
    case down
    /// The upright image is the stored one rotated 90° counter-clockwise.
    case left
    /// The upright image is the stored one rotated 90° clockwise.
    case right
    /// `.up`, flipped horizontally.
    case upMirrored
    /// `.down`, flipped horizontally.
    case downMirrored
    /// `.left`, flipped horizontally.
    case leftMirrored
    /// `.right`, flipped horizontally.
    case rightMirrored

    /// Whether the orientation mirrors the image.
    public var isMirrored: Bool {
        switch self {
        case .up, .down, .left, .right: false
        default: true
        }
    }
}

/// The sizes an `PixelImage` may have; larger images are refused with `ImageError.tooLarge`.
public enum ImageLimits {
    /// The largest width or height, in pixels.
    public static let maximumDimension = 16_384
    /// The largest number of pixels (width × height): 2²⁸, about 268 megapixels.
    public static let maximumPixelCount = 1 << 28
}

/// An 8-bit image: decoded from a file, built from bytes, or wrapping pixels the caller owns.
///
/// Rows are `bytesPerRow` bytes apart (at least `width · format.channelCount`); the first row is the top of the
/// stored image. `orientation` says how the stored pixels are meant to be displayed.
public struct PixelImage: @unchecked Sendable {
    /// Width in pixels (> 0).
    public let width: Int
    /// Height in pixels (> 0).
    public let height: Int
    /// The pixel layout.
    public let format: PixelFormat
    /// Distance in bytes between the starts of consecutive rows.
    public let bytesPerRow: Int
    /// How the stored pixels are meant to be displayed.
    public var orientation: ImageOrientation

    /// Bytes of one plane (the interleaved pixels, or one YUV plane): owned, or caller memory.
    enum Storage {
        case owned([UInt8])
        case borrowed(UnsafeRawPointer)
    }
    /// The interleaved pixels, or a YUV image's luma plane.
    let storage: Storage
    /// A YUV image's chroma planes; nil for the interleaved formats.
    let chroma: ChromaPlanes?

    /// Creates an image that owns `pixels`.
    /// - Parameters:
    ///   - width: width in pixels.
    ///   - height: height in pixels.
    ///   - format: the pixels' layout.
    ///   - pixels: `height` rows, `bytesPerRow` bytes apart.
    ///   - bytesPerRow: the row stride; defaults to `width · format.channelCount`.
    ///   - orientation: how the stored pixels are meant to be displayed.
    /// - Throws: `ImageError` when the dimensions are invalid or too large, the stride is shorter than a row, or
    ///   `pixels` is too short for `height` rows.
    public init(
        width: Int, height: Int, format: PixelFormat, pixels: [UInt8], bytesPerRow: Int? = nil,
        orientation: ImageOrientation = .up
    ) throws(ImageError) {
        let stride = bytesPerRow ?? width * format.channelCount
        try Self.validate(width: width, height: height, format: format, bytesPerRow: stride, byteCount: pixels.count)
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.orientation = orientation
        self.storage = .owned(pixels)
        self.chroma = nil
    }

    /// Wraps pixels the caller owns, without copying.
    ///
    /// The memory must stay valid and unchanged for as long as the returned image (or any copy of the value) is
    /// used; a task that keeps an image beyond the call that received it (live-stream mode) copies it first.
    /// - Throws: `ImageError` as for `init(width:height:format:pixels:bytesPerRow:orientation:)`.
    public static func wrapping(
        unsafePixels pixels: UnsafeRawPointer, width: Int, height: Int, format: PixelFormat, bytesPerRow: Int,
        orientation: ImageOrientation = .up
    ) throws(ImageError) -> PixelImage {
        try validate(width: width, height: height, format: format, bytesPerRow: bytesPerRow, byteCount: nil)
        return PixelImage(
            width: width, height: height, format: format, bytesPerRow: bytesPerRow, orientation: orientation,
            storage: .borrowed(pixels))
    }

    /// An image owning tightly packed `pixels` whose size the caller has already validated (a copy or conversion
    /// of a valid image): `pixels.count == width · height · format.channelCount`.
    init(
        validatedWidth width: Int, height: Int, format: PixelFormat, packedPixels pixels: [UInt8],
        orientation: ImageOrientation
    ) {
        assert(pixels.count == width * height * format.channelCount)
        self.init(
            width: width, height: height, format: format, bytesPerRow: width * format.channelCount,
            orientation: orientation, storage: .owned(pixels))
    }

    /// The memberwise initializer; the caller has validated everything.
    init(
        width: Int, height: Int, format: PixelFormat, bytesPerRow: Int, orientation: ImageOrientation,
        storage: Storage, chroma: ChromaPlanes? = nil
    ) {
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = bytesPerRow
        self.orientation = orientation
        self.storage = storage
        self.chroma = chroma
    }

    /// The number of bytes the pixel rows span: `(height − 1) · bytesPerRow + width · channelCount`.
    public var byteCount: Int { (height - 1) * bytesPerRow + width * format.channelCount }

    /// Whether the image wraps memory it does not own.
    public var isBorrowed: Bool {
        if case .borrowed = storage { return true }
        return false
    }

    /// Calls `body` with the pixel bytes (`byteCount` bytes, rows `bytesPerRow` apart): the interleaved pixels, or
    /// for the YUV formats the luma plane only (`withUnsafeYUVPlanes` gives all three).
    public func withUnsafePixels<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .owned(let bytes):
            let count = byteCount
            return try bytes.withUnsafeBytes { buffer in
                try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
        case .borrowed(let pointer):
            return try body(UnsafeRawBufferPointer(start: pointer, count: byteCount))
        }
    }

    /// An image that owns a tightly packed copy of the pixels (same format and orientation; a YUV image's planes
    /// are each packed to their row length).
    public func ownedCopy() -> PixelImage {
        if format.isYUV { return yuvOwnedCopy() }
        let rowBytes = width * format.channelCount
        var packed = [UInt8](repeating: 0, count: rowBytes * height)
        withUnsafePixels { source in
            packed.withUnsafeMutableBytes { destination in
                guard let from = source.baseAddress, let to = destination.baseAddress else { return }
                for row in 0..<height {
                    (to + row * rowBytes).copyMemory(from: from + row * bytesPerRow, byteCount: rowBytes)
                }
            }
        }
        return PixelImage(
            width: width, height: height, format: format, bytesPerRow: rowBytes, orientation: orientation,
            storage: .owned(packed))
    }

    /// Throws the error `init(width:height:format:pixels:bytesPerRow:orientation:)` would for these values
    /// (`byteCount` nil: no pixel-count check).
    static func validate(
        width: Int, height: Int, format: PixelFormat, bytesPerRow: Int, byteCount: Int?
    ) throws(ImageError) {
        guard !format.isYUV else { throw .formatMismatch(format, expected: "an interleaved format") }
        try validateSize(width: width, height: height)
        try validatePlane(
            rowBytes: width * format.channelCount, rows: height, bytesPerRow: bytesPerRow,
            byteCount: byteCount, what: nil, width: width, height: height)
    }

    /// Throws `.invalidDimensions` or `.tooLarge` unless the size is within `ImageLimits`.
    static func validateSize(width: Int, height: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        guard width <= ImageLimits.maximumDimension, height <= ImageLimits.maximumDimension,
            width * height <= ImageLimits.maximumPixelCount
        else { throw .tooLarge(width: width, height: height) }
    }

    /// Throws unless `rows` rows of `rowBytes` bytes, `bytesPerRow` apart, fit in `byteCount` bytes (nil: not
    /// checked) without overflow. `what` names the plane in the error (nil: the pixels).
    static func validatePlane(
        rowBytes: Int, rows: Int, bytesPerRow: Int, byteCount: Int?, what: String?, width: Int, height: Int
    ) throws(ImageError) {
        guard bytesPerRow >= rowBytes else { throw .strideTooShort(bytesPerRow: bytesPerRow, rowBytes: rowBytes) }
        let (rowStarts, overflow) = (rows - 1).multipliedReportingOverflow(by: bytesPerRow)
        guard !overflow, rowStarts <= Int.max - rowBytes else {
            throw .tooLarge(width: width, height: height)
        }
        let needed = rowStarts + rowBytes
        if let byteCount, byteCount < needed {
            throw .truncated((what.map { "\($0): " } ?? "") + "\(byteCount) bytes for \(needed) needed")
        }
    }
}

extension PixelImage: CustomStringConvertible {
    /// A one-line summary (never the pixels): size, format, stride, orientation, owned or borrowed.
    public var description: String {
        "PixelImage(\(width)×\(height) \(format.rawValue), bytesPerRow \(bytesPerRow), \(orientation.rawValue), "
            + (isBorrowed ? "borrowed)" : "owned)")
    }
}

/// Why an image could not be built, decoded or written.
public enum ImageError: Error, Equatable, CustomStringConvertible {
    /// Width or height is zero or negative.
    case invalidDimensions(width: Int, height: Int)
    /// The image is beyond `ImageLimits`.
    case tooLarge(width: Int, height: Int)
    /// The row stride is shorter than one row of pixels.
    case strideTooShort(bytesPerRow: Int, rowBytes: Int)
    /// The data ends before the image does.
    case truncated(String)
    /// The data is not a valid image of its format.
    case corrupt(String)
    /// The data is in a format (or variant) the decoder does not read.
    case unsupportedFormat(String)
    /// A YUV 4:2:0 image has an odd width or height (its chroma covers 2 × 2 blocks of pixels).
    case oddYUVDimensions(width: Int, height: Int)
    /// A YUV constructor was given a format that is not a YUV format of its kind (`expected` names the kinds).
    case formatMismatch(PixelFormat, expected: String)
    /// A mirrored orientation was given to a task, which cannot process it.
    case mirroredOrientation(ImageOrientation)
    /// A file could not be read or written.
    case fileAccess(String)

    /// A one-line, human-readable reason.
    public var description: String {
        switch self {
        case .invalidDimensions(let w, let h): "invalid image size \(w)×\(h)"
        case .tooLarge(let w, let h):
            "image \(w)×\(h) exceeds the limits (\(ImageLimits.maximumDimension) per side, "
                + "\(ImageLimits.maximumPixelCount) pixels)"
        case .strideTooShort(let stride, let row): "row stride \(stride) is shorter than a row of \(row) bytes"
        case .truncated(let what): "image data is truncated: \(what)"
        case .corrupt(let what): "corrupt image: \(what)"
        case .unsupportedFormat(let what): "unsupported image format: \(what)"
        case .oddYUVDimensions(let w, let h): "YUV 4:2:0 image \(w)×\(h) must have an even width and height"
        case .formatMismatch(let format, let expected): "format \(format.rawValue) given where \(expected) is needed"
        case .mirroredOrientation(let o): "mirrored orientation \(o) is not supported"
        case .fileAccess(let what): what
        }
    }
}
