#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// The chroma layout of a YUV4MPEG2 stream (its `C` header parameter).
public enum Y4MChroma: Sendable, Hashable {
    /// 4:2:0: one U and one V sample per 2×2 pixels (`420jpeg`, `420paldv`, `420mpeg2`, `420`; they differ only in
    /// where the chroma samples sit, which decoders such as ffmpeg's ignore, and so does this one).
    case yuv420
    /// 4:4:4: full-resolution U and V.
    case yuv444
    /// Luma only (`mono`).
    case mono

    /// Width and height of each chroma plane for a `width × height` frame (0 × 0 for mono).
    public func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
        switch self {
        case .yuv420: ((width + 1) / 2, (height + 1) / 2)
        case .yuv444: (width, height)
        case .mono: (0, 0)
        }
    }
}

/// How a YUV4MPEG2 stream's frames are interlaced (its `I` parameter); informational: frames are returned whole.
public enum Y4MInterlacing: Sendable, Hashable {
    /// `Ip`: progressive frames.
    case progressive
    /// `It`: interlaced, top field first.
    case topFieldFirst
    /// `Ib`: interlaced, bottom field first.
    case bottomFieldFirst
    /// `Im`: mixed, given per frame.
    case mixed
    /// `I?` or absent.
    case unknown
}

/// The header of a YUV4MPEG2 stream, as `ffmpeg -f yuv4mpegpipe` writes it.
public struct Y4MHeader: Sendable, Hashable {
    /// Frame width in pixels.
    public var width: Int
    /// Frame height in pixels.
    public var height: Int
    /// Frames per second as the fraction `frameRateNumerator / frameRateDenominator` (`F` parameter; 25:1 when
    /// absent, as ffmpeg assumes).
    public var frameRateNumerator: Int
    /// See `frameRateNumerator`.
    public var frameRateDenominator: Int
    /// The chroma layout (`C`; 4:2:0 when absent).
    public var chroma: Y4MChroma
    /// The interlacing flag (`I`).
    public var interlacing: Y4MInterlacing
    /// Whether the stream declares full-range samples (ffmpeg's `XCOLORRANGE=FULL` extension); video range if not.
    public var isFullRange: Bool
    /// The header's parameters as the stream gave them, in order (`W640`, `H480`, `F30000:1001`, `C420jpeg`, `A1:1`,
    /// `XYSCSS=420JPEG`, …), so that a writer can repeat the header unchanged; empty for a header made in code.
    public var parameters: [String] = []

    /// Bytes of one frame's planes.
    public var frameByteCount: Int {
        let chromaSize = chroma.chromaSize(width: width, height: height)
        return width * height + 2 * chromaSize.width * chromaSize.height
    }

    /// The presentation time of frame `index` in whole milliseconds (rounded down), from the frame rate.
    public func timestampInMilliseconds(ofFrame index: Int) -> Int {
        index * 1000 * frameRateDenominator / frameRateNumerator
    }
}

/// One decoded YUV4MPEG2 frame: its planes, tightly packed (rows `width` bytes, chroma rows the chroma width).
public struct Y4MFrame: Sendable {
    /// The stream's header (size, chroma layout, range).
    public let header: Y4MHeader
    /// The frame's position in the stream, from 0.
    public let index: Int
    /// The luma plane, `width × height` bytes.
    public let y: [UInt8]
    /// The U (Cb) plane; empty for mono.
    public let u: [UInt8]
    /// The V (Cr) plane; empty for mono.
    public let v: [UInt8]
}

/// What is wrong with a YUV4MPEG2 stream.
public enum Y4MError: Error, Equatable, CustomStringConvertible {
    /// The stream does not start with `YUV4MPEG2 `.
    case notY4M
    /// A header or frame-header parameter is malformed or missing.
    case badHeader(String)
    /// A valid parameter this reader does not support (4:2:2, 4:1:1, high bit depth, alpha).
    case unsupported(String)
    /// The frame size is beyond `ImageLimits`.
    case tooLarge(width: Int, height: Int)
    /// The stream ends inside a frame.
    case truncatedFrame(index: Int, expectedBytes: Int, readBytes: Int)
    /// Reading the underlying file failed.
    case readFailed(String)
    /// Writing the stream failed (for example, the reader at the other end of a pipe went away).
    case writeFailed(String)
    /// A picture to write over a frame has another size than the stream's.
    case sizeMismatch(expectedWidth: Int, expectedHeight: Int, width: Int, height: Int)

    public var description: String {
        switch self {
        case .notY4M: "not a YUV4MPEG2 stream (it must start with 'YUV4MPEG2 ')"
        case .badHeader(let detail): "malformed YUV4MPEG2 header: \(detail)"
        case .unsupported(let detail): "unsupported YUV4MPEG2 stream: \(detail)"
        case .tooLarge(let width, let height):
            "YUV4MPEG2 frame \(width)×\(height) is beyond the limits (\(ImageLimits.maximumDimension) px per side, "
                + "\(ImageLimits.maximumPixelCount) pixels)"
        case .truncatedFrame(let index, let expected, let read):
            "YUV4MPEG2 frame \(index) is truncated: \(read) of \(expected) bytes"
        case .readFailed(let detail): "cannot read the YUV4MPEG2 stream: \(detail)"
        case .writeFailed(let detail): "cannot write the YUV4MPEG2 stream: \(detail)"
        case .sizeMismatch(let expectedWidth, let expectedHeight, let width, let height):
            "a \(width)×\(height) picture cannot be written over a \(expectedWidth)×\(expectedHeight) frame"
        }
    }
}

/// A source of bytes for `Y4MStream`: a file descriptor (a file or standard input) or bytes in memory.
public protocol Y4MByteSource {
    /// Reads up to `buffer.count` bytes; returns how many (0 at the end of the stream).
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(Y4MError) -> Int
}

/// Bytes in memory as a `Y4MByteSource`.
public struct Y4MMemorySource: Y4MByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    /// Reads from `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(Y4MError) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            guard let base = source.baseAddress, let destination = buffer.baseAddress else { return }
            destination.copyMemory(from: base + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// A file descriptor as a `Y4MByteSource`; it does not close the descriptor.
public struct Y4MFileDescriptorSource: Y4MByteSource {
    private let descriptor: Int32

    /// Reads from `descriptor` (for example `STDIN_FILENO`).
    public init(descriptor: Int32) { self.descriptor = descriptor }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(Y4MError) -> Int {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .readFailed(String(cString: strerror(errno)))
        }
    }
}

@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// Reads a YUV4MPEG2 stream frame by frame (`ffmpeg -i clip.mp4 -f yuv4mpegpipe -` writes one), never holding more
/// than one frame. Every size comes from the header and is checked against `ImageLimits` before a frame buffer is
/// allocated; a stream that ends inside a frame is an error, one that ends between frames is the end.
public struct Y4MStream<Source: Y4MByteSource> {
    /// The longest header or frame-header line accepted, in bytes.
    public static var maximumHeaderLength: Int { 4096 }

    /// The stream's header.
    public private(set) var header: Y4MHeader
    private var source: Source
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var nextIndex = 0

    /// Reads and validates the stream header.
    public init(source: Source) throws(Y4MError) {
        self.source = source
        // Placeholder until the header is read (a stored property must be set before `self` is used).
        header = Y4MHeader(
            width: 0, height: 0, frameRateNumerator: 25, frameRateDenominator: 1, chroma: .yuv420,
            interlacing: .unknown, isFullRange: false)
        guard let line = try readLine() else { throw .notY4M }
        header = try Self.parseHeader(line)
    }

    /// The next frame, or nil at the end of the stream.
    public mutating func nextFrame() throws(Y4MError) -> Y4MFrame? {
        guard let line = try readLine() else { return nil }
        guard line.starts(with: Array("FRAME".utf8)), line.count == 5 || line[5] == UInt8(ascii: " ") else {
            throw .badHeader("frame \(nextIndex) does not start with 'FRAME'")
        }
        let chromaSize = header.chroma.chromaSize(width: header.width, height: header.height)
        let lumaCount = header.width * header.height
        let chromaCount = chromaSize.width * chromaSize.height
        let y = try readPlane(count: lumaCount, readSoFar: 0)
        let u = try readPlane(count: chromaCount, readSoFar: lumaCount)
        let v = try readPlane(count: chromaCount, readSoFar: lumaCount + chromaCount)
        defer { nextIndex += 1 }
        return Y4MFrame(header: header, index: nextIndex, y: y, u: u, v: v)
    }

    // MARK: Header

    static func parseHeader(_ line: [UInt8]) throws(Y4MError) -> Y4MHeader {
        let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard let magic = fields.first, Array(magic) == Array("YUV4MPEG2".utf8) else { throw .notY4M }
        var width: Int?
        var height: Int?
        var frameRate = (numerator: 25, denominator: 1)
        var chroma = Y4MChroma.yuv420
        var interlacing = Y4MInterlacing.unknown
        var isFullRange = false
        for field in fields.dropFirst() {
            guard let tag = field.first else { continue }
            let value = String(decoding: field.dropFirst(), as: UTF8.self)
            switch tag {
            case UInt8(ascii: "W"): width = try dimension(value, "W")
            case UInt8(ascii: "H"): height = try dimension(value, "H")
            case UInt8(ascii: "F"):
                guard let ratio = ratio(value), ratio.0 > 0, ratio.1 > 0 else {
                    throw .badHeader("frame rate 'F\(value)' is not a positive ratio")
                }
                frameRate = ratio
            case UInt8(ascii: "C"):
                switch value {
                case "420jpeg", "420paldv", "420mpeg2", "420": chroma = .yuv420
                case "444": chroma = .yuv444
                case "mono": chroma = .mono
                default: throw .unsupported("chroma 'C\(value)' (4:2:0, 4:4:4 and mono 8-bit are read)")
                }
            case UInt8(ascii: "I"):
                switch value {
                case "p": interlacing = .progressive
                case "t": interlacing = .topFieldFirst
                case "b": interlacing = .bottomFieldFirst
                case "m": interlacing = .mixed
                case "?": interlacing = .unknown
                default: throw .badHeader("interlacing 'I\(value)'")
                }
            case UInt8(ascii: "X"):
                if value == "COLORRANGE=FULL" { isFullRange = true }
            case UInt8(ascii: "A"):
                guard ratio(value) != nil || value == "0:0" else { throw .badHeader("aspect 'A\(value)'") }
            default:
                throw .badHeader("unknown parameter '\(String(decoding: field, as: UTF8.self))'")
            }
        }
        guard let width, let height else { throw .badHeader("W and H are required") }
        guard width <= ImageLimits.maximumDimension, height <= ImageLimits.maximumDimension,
            width * height <= ImageLimits.maximumPixelCount
        else { throw .tooLarge(width: width, height: height) }
        return Y4MHeader(
            width: width, height: height, frameRateNumerator: frameRate.numerator,
            frameRateDenominator: frameRate.denominator, chroma: chroma, interlacing: interlacing,
            isFullRange: isFullRange, parameters: fields.dropFirst().map { String(decoding: $0, as: UTF8.self) })
    }

    private static func dimension(_ text: String, _ name: String) throws(Y4MError) -> Int {
        // At most 9 digits, so the value cannot overflow before the limit check.
        guard text.count <= 9, let value = Int(text), value > 0 else {
            throw .badHeader("\(name)\(text) is not a positive size")
        }
        return value
    }

    private static func ratio(_ text: String) -> (numerator: Int, denominator: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count <= 9 }), let numerator = Int(parts[0]),
            let denominator = Int(parts[1]), numerator >= 0, denominator >= 0
        else { return nil }
        return (numerator, denominator)
    }

    // MARK: Buffered reading

    /// The bytes up to the next `\n` (not included), or nil when the stream ends before any byte.
    private mutating func readLine() throws(Y4MError) -> [UInt8]? {
        var line: [UInt8] = []
        while true {
            if bufferStart < buffer.count {
                if let newline = buffer[bufferStart...].firstIndex(of: UInt8(ascii: "\n")) {
                    line += buffer[bufferStart..<newline]
                    bufferStart = newline + 1
                    guard line.count <= Self.maximumHeaderLength else { throw .badHeader("line too long") }
                    return line
                }
                line += buffer[bufferStart...]
                bufferStart = buffer.count
                guard line.count <= Self.maximumHeaderLength else { throw .badHeader("line too long") }
            }
            guard try refill() else {
                if line.isEmpty { return nil }
                throw .badHeader("the stream ends inside a header line")
            }
        }
    }

    private mutating func readPlane(count: Int, readSoFar: Int) throws(Y4MError) -> [UInt8] {
        guard count > 0 else { return [] }
        var plane = [UInt8]()
        plane.reserveCapacity(count)
        while plane.count < count {
            if bufferStart == buffer.count {
                guard try refill() else {
                    throw .truncatedFrame(
                        index: nextIndex, expectedBytes: header.frameByteCount, readBytes: readSoFar + plane.count)
                }
            }
            let take = min(count - plane.count, buffer.count - bufferStart)
            plane += buffer[bufferStart..<(bufferStart + take)]
            bufferStart += take
        }
        return plane
    }

    /// Replaces the consumed buffer with the next chunk of the source; false at the end.
    private mutating func refill() throws(Y4MError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var source = self.source
        var outcome: Result<Int, Y4MError> = .success(0)
        chunk.withUnsafeMutableBytes { raw in
            outcome = Result { () throws(Y4MError) -> Int in try source.read(into: raw) }
        }
        self.source = source
        let count = try outcome.get()
        buffer = Array(chunk[0..<count])
        bufferStart = 0
        return count > 0
    }
}

extension Y4MStream {
    /// How many frames have been returned so far.
    public var framesRead: Int { nextIndex }
}

extension PixelImage {
    /// Converts a YUV4MPEG2 frame: mono to `.gray8`, 4:2:0 and 4:4:4 to `.rgb8` with the same arithmetic as the
    /// `.i420` images (`YUVToRGB`: OpenCV's `cvtColor` `COLOR_YUV2RGB_I420` for video range, BT.601 in 20-bit fixed
    /// point, each 4:2:0 chroma sample covering its 2×2 block); a full-range stream (`XCOLORRANGE=FULL`) uses
    /// `.fullBT601`.
    public init(y4mFrame frame: Y4MFrame) throws(ImageError) {
        let header = frame.header
        let width = header.width
        let height = header.height
        guard header.chroma != .mono else {
            try self.init(width: width, height: height, format: .gray8, pixels: frame.y)
            return
        }
        let chromaWidth = header.chroma.chromaSize(width: width, height: height).width
        let subsampled = header.chroma == .yuv420
        let conversion = YUVToRGB(header.isFullRange ? .fullBT601 : .videoBT601)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for row in 0..<height {
            let chromaRow = (subsampled ? row / 2 : row) * chromaWidth
            for column in 0..<width {
                let chromaIndex = chromaRow + (subsampled ? column / 2 : column)
                let levels = conversion.rgb(
                    y: frame.y[row * width + column], u: frame.u[chromaIndex], v: frame.v[chromaIndex])
                let out = (row * width + column) * 3
                rgb[out] = UInt8(truncatingIfNeeded: levels.x)
                rgb[out + 1] = UInt8(truncatingIfNeeded: levels.y)
                rgb[out + 2] = UInt8(truncatingIfNeeded: levels.z)
            }
        }
        try self.init(width: width, height: height, format: .rgb8, pixels: rgb)
    }
}
