import PureVisionCore

extension PixelImage {
    /// Decodes a PNG or JPEG file; see `init(encoded:)` for the formats produced.
    /// - Throws: `ImageError.fileAccess` when the file cannot be read, otherwise as `init(encoded:)`.
    public init(contentsOfFile path: String) throws(ImageError) {
        let bytes: [UInt8]
        do { bytes = try readFileContents(atPath: path) } catch {
            throw .fileAccess("cannot read image file \(path): \(error.reason)")
        }
        try self.init(encoded: bytes)
    }

    /// Decodes PNG or JPEG data, recognised by its signature (`EncodedImageFormat.sniff`).
    ///
    /// The result owns tightly packed pixels, as stored in the file. A JPEG's EXIF orientation becomes the image's
    /// `orientation` (not applied to the pixels): tasks then rotate as MediaPipe does for an oriented `MPImage`, and
    /// `applyingOrientation()` gives the upright pixels. PNG images are `.up`. Decoding uses libpng / libjpeg on
    /// Linux and ImageIO on Apple platforms, into the same layouts:
    /// - PNG: `.gray8` for gray, `.rgb8` for RGB and palette, `.rgba8` whenever the file has alpha (an alpha
    ///   channel or a tRNS chunk, gray + alpha included); see `PNGDecoder` for bit depths and gamma.
    /// - JPEG: `.gray8` for grayscale, `.rgb8` for YCbCr and RGB; CMYK and YCCK are `.unsupportedFormat`.
    ///
    /// The header's dimensions are checked against `ImageLimits` before any pixel buffer is allocated.
    /// - Throws: `ImageError.unsupportedFormat` for other data; `.truncated`, `.corrupt`, `.tooLarge` or
    ///   `.invalidDimensions` for bad images.
    public init(encoded bytes: [UInt8]) throws(ImageError) {
        switch EncodedImageFormat.sniff(bytes) {
        case .png: self = try PNGDecoder.decode(bytes)
        case .jpeg: self = try JPEGDecoder.decode(bytes)
        case nil:
            if bytes.isEmpty { throw .truncated("no image data") }
            let head = bytes.prefix(4).map { String($0, radix: 16) }.joined(separator: " ")
            throw .unsupportedFormat("neither a PNG nor a JPEG signature (starts \(head))")
        }
    }
}
