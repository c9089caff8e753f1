import Foundation

/// PNG encoding (8-bit, not interlaced, no ancillary chunks): libpng's simplified write API on Linux, ImageIO's
/// `CGImageDestination` on Apple platforms.
public enum PNGEncoder {
    /// Encodes the stored pixels of `image` as a PNG: gray8 → gray, rgb8 and the YUV formats → RGB, rgba8, bgra8
    /// and argb8 → RGBA.
    ///
    /// Orientation is not applied (PNG has no orientation field): call `applyingOrientation()` first to write the
    /// upright image.
    /// - Throws: `ImageError.corrupt` when the platform's encoder fails, `.unsupportedFormat` on a platform without
    ///   one.
    public static func encode(_ image: PixelImage) throws(ImageError) -> [UInt8] {
        switch image.format {
        case .gray8, .rgb8, .rgba8: return try PNGWriter.encode(image)
        case .bgra8, .argb8: return try PNGWriter.encode(image.converted(to: .rgba8))
        case .nv12, .nv21, .i420: return try PNGWriter.encode(image.converted(to: .rgb8))
        }
    }
}

extension PixelImage {
    /// Writes the image as a PNG file (see `PNGEncoder.encode(_:)`), replacing any existing file.
    /// - Throws: `ImageError.fileAccess` when the file cannot be written, or the encoder's error.
    public func writePNG(toFile path: String) throws(ImageError) {
        let bytes = try PNGEncoder.encode(self)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw .fileAccess("cannot write PNG file \(path)")
        }
    }
}
