extension PixelImage {
    /// A tightly packed copy whose pixels are upright, with orientation `.up`.
    ///
    /// `.right` rotates the stored pixels 90° clockwise and `.left` 90° counter-clockwise (both swap width and
    /// height); `.down` rotates 180°; `.up` copies.
    /// A YUV image is converted to `.rgb8` first.
    /// - Throws: `ImageError.mirroredOrientation` for the mirrored orientations, which MediaPipe rejects too.
    public func applyingOrientation() throws(ImageError) -> PixelImage {
        if orientation.isMirrored { throw .mirroredOrientation(orientation) }
        if format.isYUV { return try converted(to: .rgb8).applyingOrientation() }
        let channels = format.channelCount
        let width = width, height = height, stride = bytesPerRow, orientation = orientation
        let (outWidth, outHeight) = orientation == .left || orientation == .right ? (height, width) : (width, height)
        var output = [UInt8](repeating: 0, count: outWidth * outHeight * channels)
        withUnsafePixels { raw in
            output.withUnsafeMutableBufferPointer { out in
                guard let input = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    let destination = out.baseAddress
                else { return }
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // The stored pixel that lands at upright (x, y).
                        let (sx, sy): (Int, Int) = switch orientation {
                        case .right: (y, height - 1 - x)
                        case .left: (width - 1 - y, x)
                        case .down: (width - 1 - x, height - 1 - y)
                        default: (x, y)
                        }
                        let p = input + sy * stride + sx * channels
                        let q = destination + (y * outWidth + x) * channels
                        for c in 0..<channels { q[c] = p[c] }
                    }
                }
            }
        }
        return PixelImage(
            validatedWidth: outWidth, height: outHeight, format: format, packedPixels: output, orientation: .up)
    }
}
