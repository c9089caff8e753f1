// libpng exists on Linux only; Apple platforms encode with ImageIO (AppleImageCodec.swift).
#if canImport(CPureVisionPNG)

    import CPureVisionPNG

    /// PNG encoding through libpng's simplified `png_image` write API, for `PNGEncoder`.
    enum PNGWriter {
        /// Encodes a gray8, rgb8 or rgba8 image.
        static func encode(_ image: PixelImage) throws(ImageError) -> [UInt8] {
            // libpng takes the row stride (in bytes for 8-bit data) as an Int32; wider strides are packed first.
            let source = image.bytesPerRow <= Int(Int32.max) ? image : image.ownedCopy()
            var png = png_image()
            png.version = UInt32(PNG_IMAGE_VERSION)
            png.width = UInt32(source.width)
            png.height = UInt32(source.height)
            png.format =
                switch source.format {
                case .gray8: UInt32(PNG_FORMAT_GRAY)
                case .rgb8: UInt32(PNG_FORMAT_FLAG_COLOR)
                default: UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
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

#endif
