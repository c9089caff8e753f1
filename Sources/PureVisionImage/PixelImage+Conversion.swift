extension PixelImage {
    /// A tightly packed copy of the image in `format` (same size and orientation).
    ///
    /// Gray → color replicates the gray value; adding alpha sets it to 255; dropping alpha discards it (no
    /// compositing); color → gray is PIL's ITU-R 601-2 luma, `(19595 R + 38470 G + 7471 B + 2¹⁵) >> 16`.
    /// rgba8 ↔ bgra8 swaps red and blue.
    public func converted(to format: PixelFormat) -> PixelImage {
        let sourceChannels = self.format.channelCount, targetChannels = format.channelCount
        let source = self.format, target = format
        let width = width, height = height, stride = bytesPerRow
        var output = [UInt8](repeating: 0, count: width * height * targetChannels)
        withUnsafePixels { raw in
            output.withUnsafeMutableBufferPointer { out in
                guard let input = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    let destination = out.baseAddress
                else { return }
                for y in 0..<height {
                    let row = input + y * stride
                    let outRow = destination + y * width * targetChannels
                    for x in 0..<width {
                        let p = row + x * sourceChannels
                        let (r, g, b, a) = Self.rgba(p, source)
                        let q = outRow + x * targetChannels
                        switch target {
                        case .gray8:
                            q[0] = source == .gray8 ? r : Self.luma(r, g, b)
                        case .rgb8: (q[0], q[1], q[2]) = (r, g, b)
                        case .rgba8: (q[0], q[1], q[2], q[3]) = (r, g, b, a)
                        case .bgra8: (q[0], q[1], q[2], q[3]) = (b, g, r, a)
                        }
                    }
                }
            }
        }
        return PixelImage(
            validatedWidth: width, height: height, format: target, packedPixels: output, orientation: orientation)
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
        case .gray8: (p[0], p[0], p[0], 255)
        case .rgb8: (p[0], p[1], p[2], 255)
        case .rgba8: (p[0], p[1], p[2], p[3])
        case .bgra8: (p[2], p[1], p[0], p[3])
        }
    }
}
