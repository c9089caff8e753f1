#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

extension Y4MHeader {
    /// A header for a stream made in code (it has no `parameters`; `encodedLine` writes the values).
    public init(
        width: Int, height: Int, frameRateNumerator: Int, frameRateDenominator: Int, chroma: Y4MChroma,
        interlacing: Y4MInterlacing = .progressive, isFullRange: Bool = false
    ) {
        self.width = width
        self.height = height
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.chroma = chroma
        self.interlacing = interlacing
        self.isFullRange = isFullRange
    }

    /// The header line, newline included: the stream's own parameters when it was read (`parameters`), else
    /// `W`, `H`, `F`, `I`, `C` (`420jpeg`, `444` or `mono`) and, for full range, `XCOLORRANGE=FULL`.
    public var encodedLine: [UInt8] {
        var fields = parameters
        if fields.isEmpty {
            let interlacing =
                switch interlacing {
                case .progressive: "p"
                case .topFieldFirst: "t"
                case .bottomFieldFirst: "b"
                case .mixed: "m"
                case .unknown: "?"
                }
            let chroma =
                switch chroma {
                case .yuv420: "420jpeg"
                case .yuv444: "444"
                case .mono: "mono"
                }
            fields = [
                "W\(width)", "H\(height)", "F\(frameRateNumerator):\(frameRateDenominator)", "I\(interlacing)",
                "C\(chroma)",
            ]
            if isFullRange { fields.append("XCOLORRANGE=FULL") }
        }
        return Array(("YUV4MPEG2 " + fields.joined(separator: " ") + "\n").utf8)
    }
}

extension Y4MFrame {
    /// The frame with `picture` written over it: only the pixels whose RGB differs from the frame's own
    /// (`PixelImage(y4mFrame:)`) get new levels, by the inverse conversion (`RGBToYUV`, the stream's range, BT.601);
    /// a 4:2:0 chroma sample is recomputed, from the mean RGB of the pixels it covers, only when one of them changed.
    /// Everything else keeps the frame's bytes, so an unchanged picture gives the frame back exactly. A mono frame
    /// takes the picture's gray levels (`PixelImage.converted(to: .gray8)`), as the reader gives them.
    /// - Throws: `Y4MError.sizeMismatch` when `picture` is not the frame's size.
    public func overlaid(with picture: PixelImage) throws(Y4MError) -> Y4MFrame {
        let width = header.width
        let height = header.height
        guard picture.width == width, picture.height == height else {
            throw .sizeMismatch(
                expectedWidth: width, expectedHeight: height, width: picture.width, height: picture.height)
        }
        let original: PixelImage
        do { original = try PixelImage(y4mFrame: self) } catch { throw .badHeader("\(error)") }
        var y = self.y
        if header.chroma == .mono {
            let before = Self.packed(original, .gray8)
            let after = Self.packed(picture, .gray8)
            for index in 0..<(width * height) where after[index] != before[index] { y[index] = after[index] }
            return Y4MFrame(header: header, index: index, y: y, u: u, v: v)
        }
        let before = Self.packed(original, .rgb8)
        let after = Self.packed(picture, .rgb8)
        let conversion = RGBToYUV(header.isFullRange ? .fullBT601 : .videoBT601)
        var changed = [Bool](repeating: false, count: width * height)
        for pixel in 0..<(width * height) {
            let offset = pixel * 3
            guard
                after[offset] != before[offset] || after[offset + 1] != before[offset + 1]
                    || after[offset + 2] != before[offset + 2]
            else { continue }
            changed[pixel] = true
            y[pixel] = conversion.luma(
                r: Double(after[offset]), g: Double(after[offset + 1]), b: Double(after[offset + 2]))
        }
        var u = self.u
        var v = self.v
        // Each chroma sample covers a `block × block` square of pixels (cut at the right and bottom edges).
        let block = header.chroma == .yuv420 ? 2 : 1
        let chromaWidth = header.chroma.chromaSize(width: width, height: height).width
        for chromaRow in 0..<((height + block - 1) / block) {
            for chromaColumn in 0..<chromaWidth {
                let rows = (chromaRow * block)..<min(chromaRow * block + block, height)
                let columns = (chromaColumn * block)..<min(chromaColumn * block + block, width)
                guard rows.contains(where: { row in columns.contains { changed[row * width + $0] } }) else { continue }
                var (r, g, b, count) = (0.0, 0.0, 0.0, 0.0)
                for row in rows {
                    for column in columns {
                        let offset = (row * width + column) * 3
                        (r, g, b) = (
                            r + Double(after[offset]), g + Double(after[offset + 1]), b + Double(after[offset + 2])
                        )
                        count += 1
                    }
                }
                let sample = chromaRow * chromaWidth + chromaColumn
                (u[sample], v[sample]) = conversion.chroma(r: r / count, g: g / count, b: b / count)
            }
        }
        return Y4MFrame(header: header, index: index, y: y, u: u, v: v)
    }

    /// The frame as a stream carries it: `FRAME`, a newline, then the Y, U and V planes.
    public var encoded: [UInt8] { Array("FRAME\n".utf8) + y + u + v }

    /// The picture's pixels in `format` (`.rgb8` or `.gray8`), tightly packed.
    private static func packed(_ picture: PixelImage, _ format: PixelFormat) -> [UInt8] {
        let image = picture.converted(to: format)
        let rowBytes = image.width * format.channelCount
        var out = [UInt8](repeating: 0, count: rowBytes * image.height)
        image.withUnsafePixels { raw in
            for row in 0..<image.height {
                for column in 0..<rowBytes { out[row * rowBytes + column] = raw[row * image.bytesPerRow + column] }
            }
        }
        return out
    }
}

/// Writes a YUV4MPEG2 stream to a file descriptor (a file, or standard output into a pipe) one frame at a time:
/// the header when created, then each frame as soon as it is given (nothing is buffered, so a reader at the other end
/// of a pipe sees every frame at once). It does not close the descriptor.
public struct Y4MWriter {
    /// The stream's header, as written.
    public let header: Y4MHeader
    private let descriptor: Int32
    /// How many frames have been written.
    public private(set) var framesWritten = 0

    /// Writes `header` (`Y4MHeader.encodedLine`) to `descriptor`.
    /// - Throws: `Y4MError.writeFailed` when the write fails.
    public init(header: Y4MHeader, descriptor: Int32) throws(Y4MError) {
        self.header = header
        self.descriptor = descriptor
        try writeAll(header.encodedLine)
    }

    /// Writes one frame (`Y4MFrame.encoded`).
    /// - Throws: `Y4MError.sizeMismatch` when the frame's planes do not have the header's sizes,
    ///   `Y4MError.writeFailed` when the write fails.
    public mutating func write(_ frame: Y4MFrame) throws(Y4MError) {
        let chromaSize = header.chroma.chromaSize(width: header.width, height: header.height)
        guard frame.y.count == header.width * header.height, frame.u.count == chromaSize.width * chromaSize.height,
            frame.v.count == frame.u.count
        else {
            throw .sizeMismatch(
                expectedWidth: header.width, expectedHeight: header.height, width: frame.header.width,
                height: frame.header.height)
        }
        try writeAll(frame.encoded)
        framesWritten += 1
    }

    private func writeAll(_ bytes: [UInt8]) throws(Y4MError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return systemWrite(descriptor, base + offset, raw.count - offset)
            }
            if count > 0 {
                offset += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                throw .writeFailed(count < 0 ? String(cString: strerror(errno)) : "nothing written")
            }
        }
    }
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
