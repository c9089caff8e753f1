import CPNG

/// PNG decoding through libpng's simplified `png_image` API, which reports errors by return code (no longjmp
/// escapes into Swift).
///
/// Every PNG variant is read as 8-bit channels: palettes are expanded, bit depths below 8 scaled up, interlaced
/// images de-interlaced, and a tRNS chunk becomes an alpha channel. 16-bit samples are taken as sRGB-encoded
/// (`PNG_IMAGE_FLAG_16BIT_sRGB`, so no gamma conversion) and rounded to 8 bits, `(v · 255 + 32895) >> 16`;
/// PIL keeps the high byte instead, so the two can differ by 1. An 8-bit file with a gAMA chunk far from sRGB's is
/// converted to sRGB by libpng, which PIL does not do.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8]) throws(ImageError) -> Image {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { data in
            png_image_begin_read_from_memory(&png, data.baseAddress, data.count)
        }
        guard began != 0 else { throw error(from: &png) }
        // Until png_image_finish_read runs (it frees on success and failure), the image owns libpng state.
        var finished = false
        defer { if !finished { png_image_free(&png) } }

        let width = Int(png.width), height = Int(png.height)
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        guard width <= ImageLimits.maximumDimension, height <= ImageLimits.maximumDimension,
            width * height <= ImageLimits.maximumPixelCount
        else { throw .tooLarge(width: width, height: height) }

        let format: PixelFormat
        if png.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0 {
            format = .rgba8
            png.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        } else if png.format & UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_COLORMAP) != 0 {
            format = .rgb8
            png.format = UInt32(PNG_FORMAT_FLAG_COLOR)
        } else {
            format = .gray8
            png.format = 0
        }
        png.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)

        let rowBytes = width * format.channelCount
        var pixels = [UInt8](repeating: 0, count: rowBytes * height)
        finished = true
        let status = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&png, nil, buffer.baseAddress, Int32(rowBytes), nil)
        }
        guard status != 0, png.warning_or_error & UInt32(PNG_IMAGE_ERROR) == 0 else {
            throw error(from: &png)
        }
        return try Image(width: width, height: height, format: format, pixels: pixels)
    }

    /// The typed error for a failed read, from the message libpng left in `png.message`.
    private static func error(from png: inout png_image) -> ImageError {
        let message = withUnsafeBytes(of: &png.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if message.contains("end of data") || message.contains("Not enough image data")
            || message.contains("unexpected end")
        {
            return .truncated("PNG: \(message)")
        }
        if message.contains("too large") || message.contains("exceeds") {
            return .tooLarge(width: Int(png.width), height: Int(png.height))
        }
        return .corrupt("PNG: \(message)")
    }
}
