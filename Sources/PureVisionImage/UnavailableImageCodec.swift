// Platforms with neither libpng / libjpeg nor ImageIO (none is declared in Package.swift today) still compile:
// decoding and encoding files is refused with a typed error there.
#if !canImport(CPureVisionPNG) && !(canImport(ImageIO) && canImport(CoreGraphics))

    enum PNGDecoder {
        static func decode(_ bytes: [UInt8]) throws(ImageError) -> PixelImage {
            throw .unsupportedFormat("PNG decoding is not available on this platform")
        }
    }

    enum JPEGDecoder {
        static func decode(_ bytes: [UInt8]) throws(ImageError) -> PixelImage {
            throw .unsupportedFormat("JPEG decoding is not available on this platform")
        }
    }

    enum PNGWriter {
        static func encode(_ image: PixelImage) throws(ImageError) -> [UInt8] {
            throw .unsupportedFormat("PNG encoding is not available on this platform")
        }
    }

#endif
