extension PixelImage {
    /// A tightly packed copy of the image in `format` (same size and orientation).
    ///
    /// Gray → color replicates the gray value; adding alpha sets it to 255; dropping alpha discards it (no
    /// compositing); color → gray is PIL's ITU-R 601-2 luma, `(19595 R + 38470 G + 7471 B + 2¹⁵) >> 16`.
    /// rgba8, bgra8 and argb8 reorder the channels. A YUV image is decoded with its `yuvEncoding` (see
    /// `YUVEncoding`; alpha 255). A YUV target is encoded with `.videoBT601` (see
    /// `converted(toYUV:encoding:)`).
    public func converted(to format: PixelFormat) -> PixelImage {
        if format.isYUV { return encodedAsYUV(format, encoding: .videoBT601) }
        if self.format.isYUV {
            let channels = format.channelCount
            let width = width
            var output = [UInt8](repeating: 0, count: width * height * channels)
            output.withUnsafeMutableBufferPointer { out in
                forEachYUVPixel { x, y, r, g, b in
                    let q = (y * width + x) * channels
                    Self.store(r, g, b, 255, to: out, at: q, format)
                }
            }
            return PixelImage(
                validatedWidth: width, height: height, format: format, packedPixels: output, orientation: orientation)
        }
        let sourceChannels = self.format.channelCount
        let targetChannels = format.channelCount
        let source = self.format
        let target = format
        let width = width
        let height = height
        let stride = bytesPerRow
        return mappingPixels(width: width, height: height, format: target, orientation: orientation) { input, output in
            for y in 0..<height {
                let row = input + y * stride
                let outRow = output + y * width * targetChannels
                for x in 0..<width {
                    let p = row + x * sourceChannels
                    let (r, g, b, a) = Self.rgba(p, source)
                    let q = outRow + x * targetChannels
                    if target == .gray8, source == .gray8 {
                        q[0] = r
                    } else {
                        Self.store(r, g, b, a, to: q, target)
                    }
                }
            }
        }
    }

    /// A new packed `width × height` image in `format`: `fill` reads this image's stored bytes (`input`, rows
    /// `bytesPerRow` apart) and writes the new one's, zeroed (`output`, rows `width · channels` apart).
    func mappingPixels(
        width: Int, height: Int, format: PixelFormat, orientation: ImageOrientation,
        _ fill: (_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>) -> Void
    ) -> PixelImage {
        var output = [UInt8](repeating: 0, count: width * height * format.channelCount)
        withUnsafePixels { raw in
            output.withUnsafeMutableBufferPointer { out in
                guard let input = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    let destination = out.baseAddress
                else { return }
                fill(input, destination)
            }
        }
        return PixelImage(
            validatedWidth: width, height: height, format: format, packedPixels: output, orientation: orientation)
    }

    /// The image as YUV 4:2:0 in `format` (`.nv12`, `.nv21` or `.i420`) with `encoding`, by the inverse of
    /// `encoding`'s standard equations, each chroma sample from the mean RGB of its 2 × 2 block, rounded half up. An
    /// odd width or height is first padded by repeating the last column or row (4:2:0 needs even sizes).
    /// - Throws: `ImageError.formatMismatch` when `format` is not a YUV format.
    public func converted(toYUV format: PixelFormat, encoding: YUVEncoding) throws(ImageError) -> PixelImage {
        guard format.isYUV else { throw .formatMismatch(format, expected: "nv12, nv21 or i420") }
        return encodedAsYUV(format, encoding: encoding)
    }

    /// Writes one pixel in the interleaved `format` at `q` (color → gray by `luma`).
    @inline(__always)
    static func store(
        _ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8, to q: UnsafeMutablePointer<UInt8>, _ format: PixelFormat
    ) {
        switch format {
        case .gray8, .nv12, .nv21, .i420: q[0] = luma(r, g, b)
        case .rgb8: (q[0], q[1], q[2]) = (r, g, b)
        case .rgba8: (q[0], q[1], q[2], q[3]) = (r, g, b, a)
        case .bgra8: (q[0], q[1], q[2], q[3]) = (b, g, r, a)
        case .argb8: (q[0], q[1], q[2], q[3]) = (a, r, g, b)
        }
    }

    /// `store(_:_:_:_:to:_:)` at element `offset` of `buffer`.
    @inline(__always)
    static func store(
        _ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8, to buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int,
        _ format: PixelFormat
    ) {
        guard let base = buffer.baseAddress else { return }
        store(r, g, b, a, to: base + offset, format)
    }

    /// PIL's ITU-R 601-2 luma in 16-bit fixed point, rounded.
    @inline(__always)
    static func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let sum: UInt32 = 19595 * UInt32(r) + 38470 * UInt32(g) + 7471 * UInt32(b) + 0x8000
        return UInt8(truncatingIfNeeded: sum >> 16)
    }

    /// The pixel at `p` in `format` as red, green, blue, alpha (alpha 255 when the format has none).
    @inline(__always)
    static func rgba(_ p: UnsafePointer<UInt8>, _ format: PixelFormat) -> (UInt8, UInt8, UInt8, UInt8) {
        switch format {
        // The YUV formats never reach here (their pixels are not interleaved); their luma reads as gray.
        case .gray8, .nv12, .nv21, .i420: (p[0], p[0], p[0], 255)
        case .rgb8: (p[0], p[1], p[2], 255)
        case .rgba8: (p[0], p[1], p[2], p[3])
        case .bgra8: (p[2], p[1], p[0], p[3])
        case .argb8: (p[1], p[2], p[3], p[0])
        }
    }
}
