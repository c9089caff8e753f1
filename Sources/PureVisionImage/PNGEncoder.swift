import CPureVisionPNG
import Foundation

/// PNG encoding through libpng's simplified `png_image` write API (8-bit, not interlaced, no ancillary chunks).
public enum PNGEncoder {
    /// Encodes the stored pixels of `image` as a PNG: gray8 → gray, rgb8 → RGB, rgba8 and bgra8 → RGBA.
    ///
    /// Orientation is not applied (PNG has no orientation field): call `applyingOrientation()` first to write the
    /// upright image.
    /// - Throws: `ImageError.corrupt` when libpng fails to encode.
    public static func encode(_ image: PixelImage) throws(ImageError) -> [UInt8] {
        // libpng takes the row stride (in bytes for 8-bit data) as an Int32; wider strides are packed first.
        let source = image.bytesPerRow <= Int(Int32.max) ? image : image.ownedCopy()
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(source.width)
        png.height = UInt32(source.height)
        png.format = switch source.format {
        case .gray8: UInt32(PNG_FORMAT_GRAY)
        case .rgb8: UInt32(PNG_FORMAT_FLAG_COLOR)
        case .rgba8: UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        case .bgra8: UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_BGR)
        }
        let rowStride = Int32(source.bytesPerRow)
        let result: Result<[UInt8], ImageError> = source.withUnsafePixels { pixels in
            var size = 0
            guard png_image_write_to_memory(&png, nil, &size, 0, pixels.baseAddress, rowStride, nil) != 0,
                size > 0
            else { return .failure(error(from: &png)) }
            var output = [UInt8](repeating: 0, count: size)
            let written = output.withUnsafeMutableBytes { buffer in
                png_image_write_to_memory(&png, buffer.baseAddress, &size, 0, pixels.baseAddress, rowStride, nil)
            }
            guard written != 0 else { return .failure(error(from: &png)) }
            return .success(Array(output.prefix(size)))
        }
        return try result.get()
    }

    private static func error(from png: inout png_image) -> ImageError {
        let message = withUnsafeBytes(of: &png.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        png_image_free(&png)
        return .corrupt("PNG encoding failed: \(message)")
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
