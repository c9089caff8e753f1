extension PixelImage {
    /// A tightly packed copy whose pixels are upright, with orientation `.up`.
    ///
    /// `.right` rotates the stored pixels 90° clockwise and `.left` 90° counter-clockwise (both swap width and
    /// height); `.down` rotates 180°; `.up` copies. A YUV image is converted to `.rgb8` first.
    /// - Throws: `ImageError.mirroredOrientation` for the mirrored orientations, which MediaPipe rejects too
    ///   (`uprightImage()` applies those as well).
    public func applyingOrientation() throws(ImageError) -> PixelImage {
        if orientation.isMirrored { throw .mirroredOrientation(orientation) }
        return uprightImage()
    }

    /// A tightly packed copy as the orientation says the image is displayed, with orientation `.up`: every
    /// orientation, the mirrored ones included, as EXIF defines them (Pillow's `ImageOps.exif_transpose`).
    ///
    /// Besides `applyingOrientation()`'s four turns: `.upMirrored` flips left–right, `.downMirrored` top–bottom,
    /// `.leftMirrored` transposes (mirrors across the main diagonal) and `.rightMirrored` transverses (across the
    /// other diagonal). A YUV image is converted to `.rgb8` first.
    public func uprightImage() -> PixelImage {
        if format.isYUV { return converted(to: .rgb8).uprightImage() }
        let channels = format.channelCount
        let width = width
        let height = height
        let stride = bytesPerRow
        let orientation = orientation
        let swapsSides: Bool =
            switch orientation {
            case .left, .right, .leftMirrored, .rightMirrored: true
            default: false
            }
        let (outWidth, outHeight) = swapsSides ? (height, width) : (width, height)
        return mappingPixels(width: outWidth, height: outHeight, format: format, orientation: .up) { input, output in
            for y in 0..<outHeight {
                for x in 0..<outWidth {
                    // The stored pixel that lands at upright (x, y).
                    let (sx, sy): (Int, Int) =
                        switch orientation {
                        case .up: (x, y)
                        case .right: (y, height - 1 - x)
                        case .left: (width - 1 - y, x)
                        case .down: (width - 1 - x, height - 1 - y)
                        case .upMirrored: (width - 1 - x, y)
                        case .downMirrored: (x, height - 1 - y)
                        case .leftMirrored: (y, x)
                        case .rightMirrored: (width - 1 - y, height - 1 - x)
                        }
                    let p = input + sy * stride + sx * channels
                    let q = output + (y * outWidth + x) * channels
                    for c in 0..<channels { q[c] = p[c] }
                }
            }
        }
    }
}
