// libjpeg exists on Linux only; Apple platforms decode with ImageIO (AppleImageCodec.swift).
#if canImport(CPureVisionJPEGSupport) && canImport(CPureVisionJPEG)

    import CPureVisionJPEGSupport

    /// JPEG decoding through libjpeg, in the C helper `pv_jpeg_decode` (libjpeg reports fatal errors by longjmp,
    /// which only C can catch).
    ///
    /// Settings are libjpeg's defaults, which are also PIL's: `JDCT_ISLOW` integer IDCT, fancy (triangle-filter)
    /// chroma upsampling, block smoothing for progressive scans, no scaling. Running out of data is an error (PIL's
    /// "image file is truncated"); other warnings such as corrupt entropy-coded data are tolerated, with the damaged
    /// blocks as libjpeg substitutes them. The orientation is the EXIF data's (`EXIFOrientationReader`), `.up` without.
    enum JPEGDecoder {
        static func decode(_ bytes: [UInt8]) throws(ImageError) -> PixelImage {
            var result = pv_jpeg_result()
            var message = [CChar](repeating: 0, count: 256)
            let messageSize = message.count
            let code = bytes.withUnsafeBufferPointer { data in
                message.withUnsafeMutableBufferPointer { text in
                    pv_jpeg_decode(
                        data.baseAddress, data.count, Int32(ImageLimits.maximumDimension),
                        ImageLimits.maximumPixelCount, &result, text.baseAddress, messageSize)
                }
            }
            defer { pv_jpeg_free(&result) }
            let reason = message.withUnsafeBufferPointer { text in
                String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            switch Int(code) {
            case Int(PV_JPEG_OK): break
            case Int(PV_JPEG_TRUNCATED): throw .truncated("JPEG: \(reason)")
            case Int(PV_JPEG_TOO_LARGE): throw .tooLarge(width: Int(result.width), height: Int(result.height))
            case Int(PV_JPEG_UNSUPPORTED): throw .unsupportedFormat(reason)
            case Int(PV_JPEG_OUT_OF_MEMORY): throw .corrupt("JPEG: \(reason)")
            default: throw .corrupt("JPEG: \(reason)")
            }
            guard let pixels = result.pixels else { throw .corrupt("JPEG: no pixels") }
            let width = Int(result.width)
            let height = Int(result.height)
            let format: PixelFormat = result.channels == 1 ? .gray8 : .rgb8
            let count = width * height * format.channelCount
            let copy = [UInt8](UnsafeBufferPointer(start: pixels, count: count))
            return try PixelImage(
                width: width, height: height, format: format, pixels: copy,
                orientation: EXIFOrientationReader.orientation(ofJPEG: bytes) ?? .up)
        }
    }

#endif
