// libpng exists on Linux only; Apple platforms decode with ImageIO (AppleImageCodec.swift).
#if canImport(CPureVisionPNG)

    import CPureVisionPNG

    /// PNG decoding through libpng's simplified `png_image` API, which reports errors by return code (no longjmp
    /// escapes into Swift).
    ///
    /// Every PNG variant is read as 8-bit channels: palettes are expanded, bit depths below 8 scaled up, interlaced
    /// images de-interlaced, and a tRNS chunk becomes an alpha channel. 16-bit samples are taken as sRGB-encoded
    /// (`PNG_IMAGE_FLAG_16BIT_sRGB`, so no gamma conversion) and scaled to 8 bits by libpng,
    /// `round(v · 255 / 65535)`, where PIL keeps the high byte `v >> 8`: the two differ by at most 1, either way.
    /// Interlaced 16-bit images take a separate path, see `readInterlacedSixteenBit`. A file with a gAMA chunk far from
    /// sRGB's is gamma-converted by libpng, which PIL does not do.
    enum PNGDecoder {
        static func decode(_ bytes: [UInt8]) throws(ImageError) -> PixelImage {
            var png = png_image()
            png.version = UInt32(PNG_IMAGE_VERSION)
            let began = bytes.withUnsafeBytes { data in
                png_image_begin_read_from_memory(&png, data.baseAddress, data.count)
            }
            guard began != 0 else { throw error(from: &png) }
            // Until png_image_finish_read runs (it frees on success and failure), the image owns libpng state.
            var finished = false
            defer { if !finished { png_image_free(&png) } }

            let width = Int(png.width)
            let height = Int(png.height)
            guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
            guard width <= ImageLimits.maximumDimension, height <= ImageLimits.maximumDimension,
                width * height <= ImageLimits.maximumPixelCount
            else { throw .tooLarge(width: width, height: height) }

            let headerFormat = png.format
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
            let rowBytes = width * format.channelCount
            var pixels = [UInt8](repeating: 0, count: rowBytes * height)
            // IHDR's interlace byte sits at offset 28; begin_read has validated the chunk.
            let interlacedSixteenBit =
                headerFormat & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0 && bytes.count > 28
                && bytes[28] != 0
            finished = true
            if interlacedSixteenBit {
                try readInterlacedSixteenBit(&png, format: format, into: &pixels)
            } else {
                png.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
                let status = pixels.withUnsafeMutableBytes { buffer in
                    png_image_finish_read(&png, nil, buffer.baseAddress, Int32(rowBytes), nil)
                }
                guard status != 0, png.warning_or_error & UInt32(PNG_IMAGE_ERROR) == 0 else {
                    throw error(from: &png)
                }
            }
            return try PixelImage(width: width, height: height, format: format, pixels: pixels)
        }

        /// libpng 1.6.39's simplified API returns wrong samples when it reads interlaced 16-bit images into 8-bit
        /// buffers (found with the fixtures; non-interlaced and 8-bit interlaced images are right), so these are read
        /// as 16-bit linear samples, which libpng returns unchanged when the file has no gAMA chunk, but with color
        /// premultiplied by alpha. The high byte of each sample is kept (as PIL does); color is
        /// un-premultiplied first, which keeps it within 1 of PIL's wherever the 8-bit alpha is not 0.
        private static func readInterlacedSixteenBit(
            _ png: inout png_image, format: PixelFormat, into pixels: inout [UInt8]
        ) throws(ImageError) {
            let channels = format.channelCount
            png.format |= UInt32(PNG_FORMAT_FLAG_LINEAR)
            var samples = [UInt16](repeating: 0, count: pixels.count)
            let status = samples.withUnsafeMutableBytes { buffer in
                png_image_finish_read(&png, nil, buffer.baseAddress, Int32(Int(png.width) * channels), nil)
            }
            guard status != 0, png.warning_or_error & UInt32(PNG_IMAGE_ERROR) == 0 else { throw error(from: &png) }
            let hasAlpha = format == .rgba8
            samples.withUnsafeBufferPointer { input in
                pixels.withUnsafeMutableBufferPointer { output in
                    guard let source = input.baseAddress, let destination = output.baseAddress else { return }
                    var index = 0
                    while index < input.count {
                        if hasAlpha {
                            let alpha = UInt32(source[index + 3])
                            for c in 0..<3 {
                                let premultiplied = UInt32(source[index + c])
                                let straight = alpha == 0 ? 0 : min((premultiplied * 65535 + alpha / 2) / alpha, 65535)
                                destination[index + c] = UInt8(truncatingIfNeeded: straight >> 8)
                            }
                            destination[index + 3] = UInt8(truncatingIfNeeded: alpha >> 8)
                        } else {
                            for c in 0..<channels {
                                destination[index + c] = UInt8(truncatingIfNeeded: source[index + c] >> 8)
                            }
                        }
                        index += channels
                    }
                }
            }
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

#endif
