// Apple platforms have no libpng or libjpeg: PNG and JPEG go through Apple's ImageIO framework instead.
// Not compiled on Linux (the project's CI); written against documented SDK API only. See README, "Platforms".
#if canImport(ImageIO) && canImport(CoreGraphics) && !canImport(CPureVisionPNG) && !canImport(CPureVisionJPEG)

    import CoreGraphics
    import Foundation
    import ImageIO

    /// Decoding and encoding with ImageIO (`CGImageSource`, `CGImageDestination`) into the layouts the Linux decoders
    /// produce: `.gray8` for gray images without alpha, `.rgba8` for images with alpha (PNG only), `.rgb8` otherwise.
    ///
    /// The pixels are drawn into a bitmap context in the image's own color space when it is gray or RGB (so no color
    /// management happens, as with libpng / libjpeg), else in sRGB. Core Graphics contexts hold premultiplied alpha, so
    /// colors of translucent pixels are un-premultiplied afterwards (within rounding; fully transparent pixels become
    /// black). A JPEG's orientation comes from the image properties (`kCGImagePropertyOrientation`).
    enum AppleImageCodec {
        static func decode(_ bytes: [UInt8], isJPEG: Bool) throws(ImageError) -> PixelImage {
            let kind = isJPEG ? "JPEG" : "PNG"
            guard let source = CGImageSourceCreateWithData(Data(bytes) as CFData, nil),
                CGImageSourceGetCount(source) > 0
            else { throw .corrupt("\(kind): ImageIO cannot read the data") }
            let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any] ?? [:]
            let headerWidth = (properties[kCGImagePropertyPixelWidth] as? NSNumber)?.intValue ?? 0
            let headerHeight = (properties[kCGImagePropertyPixelHeight] as? NSNumber)?.intValue ?? 0
            // The header's size is checked before any pixels are decoded.
            try PixelImage.validateSize(width: headerWidth, height: headerHeight)
            let options = [kCGImageSourceShouldCache: false] as CFDictionary
            guard let image = CGImageSourceCreateImageAtIndex(source, 0, options) else {
                throw .corrupt("\(kind): ImageIO cannot decode the image")
            }
            let width = image.width
            let height = image.height
            try PixelImage.validateSize(width: width, height: height)
            let model = image.colorSpace?.model
            let alpha = image.alphaInfo
            let hasAlpha = !isJPEG && !(alpha == .none || alpha == .noneSkipFirst || alpha == .noneSkipLast)
            let format: PixelFormat = model == .monochrome && !hasAlpha ? .gray8 : hasAlpha ? .rgba8 : .rgb8
            let pixels = try draw(image, gray: format == .gray8, kind: kind)
            var result: [UInt8]
            switch format {
            case .gray8: result = pixels
            case .rgb8:
                result = [UInt8](repeating: 0, count: width * height * 3)
                for index in 0..<width * height {
                    for c in 0..<3 { result[index * 3 + c] = pixels[index * 4 + c] }
                }
            default:
                result = pixels
                for index in 0..<width * height {
                    let a = Int(pixels[index * 4 + 3])
                    for c in 0..<3 {
                        let premultiplied = Int(pixels[index * 4 + c])
                        result[index * 4 + c] = a == 0 ? 0 : UInt8(min((premultiplied * 255 + a / 2) / a, 255))
                    }
                }
            }
            var orientation = ImageOrientation.up
            if isJPEG, let value = (properties[kCGImagePropertyOrientation] as? NSNumber)?.intValue {
                orientation = ImageOrientation(exifValue: value) ?? .up
            }
            return try PixelImage(
                width: width, height: height, format: format, pixels: result, orientation: orientation)
        }

        /// The image drawn into a tightly packed 8-bit bitmap: one gray byte per pixel, or RGBA (premultiplied last).
        private static func draw(_ image: CGImage, gray: Bool, kind: String) throws(ImageError) -> [UInt8] {
            let width = image.width
            let height = image.height
            let channels = gray ? 1 : 4
            let ownSpace = image.colorSpace.flatMap { $0.model == (gray ? .monochrome : .rgb) ? $0 : nil }
            guard
                let space = ownSpace
                    ?? (gray ? CGColorSpaceCreateDeviceGray() : CGColorSpace(name: CGColorSpace.sRGB))
            else { throw .corrupt("\(kind): no color space to draw into") }
            let info = gray ? CGImageAlphaInfo.none.rawValue : CGImageAlphaInfo.premultipliedLast.rawValue
            var pixels = [UInt8](repeating: 0, count: width * height * channels)
            let drawn = pixels.withUnsafeMutableBytes { buffer -> Bool in
                guard
                    let context = CGContext(
                        data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8,
                        bytesPerRow: width * channels, space: space, bitmapInfo: info)
                else { return false }
                context.interpolationQuality = .none
                context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
                return true
            }
            guard drawn else { throw .corrupt("\(kind): cannot create a bitmap context") }
            return pixels
        }

        /// A PNG of a gray8, rgb8 or rgba8 image.
        static func encodePNG(_ image: PixelImage) throws(ImageError) -> [UInt8] {
            let packed = image.ownedCopy()
            let channels = packed.format.channelCount
            let gray = packed.format == .gray8
            let info = packed.format == .rgba8 ? CGImageAlphaInfo.last.rawValue : CGImageAlphaInfo.none.rawValue
            let bytes = packed.withUnsafePixels { Data($0) }
            guard let provider = CGDataProvider(data: bytes as CFData),
                let space = gray ? CGColorSpaceCreateDeviceGray() : CGColorSpace(name: CGColorSpace.sRGB),
                let cgImage = CGImage(
                    width: packed.width, height: packed.height, bitsPerComponent: 8, bitsPerPixel: 8 * channels,
                    bytesPerRow: packed.width * channels, space: space, bitmapInfo: CGBitmapInfo(rawValue: info),
                    provider: provider, decode: nil, shouldInterpolate: false, intent: .defaultIntent)
            else { throw .corrupt("PNG encoding failed: cannot describe the pixels to Core Graphics") }
            let output = NSMutableData()
            guard
                let destination = CGImageDestinationCreateWithData(
                    output as CFMutableData, "public.png" as CFString, 1, nil)
            else { throw .corrupt("PNG encoding failed: ImageIO has no PNG destination") }
            CGImageDestinationAddImage(destination, cgImage, nil)
            guard CGImageDestinationFinalize(destination) else {
                throw .corrupt("PNG encoding failed: ImageIO refused")
            }
            return [UInt8](output as Data)
        }
    }

    /// PNG decoding with ImageIO (see `AppleImageCodec`).
    enum PNGDecoder {
        static func decode(_ bytes: [UInt8]) throws(ImageError) -> PixelImage {
            try AppleImageCodec.decode(bytes, isJPEG: false)
        }
    }

    /// JPEG decoding with ImageIO (see `AppleImageCodec`); the orientation is the file's.
    enum JPEGDecoder {
        static func decode(_ bytes: [UInt8]) throws(ImageError) -> PixelImage {
            try AppleImageCodec.decode(bytes, isJPEG: true)
        }
    }

    /// PNG encoding with ImageIO, for `PNGEncoder`.
    enum PNGWriter {
        static func encode(_ image: PixelImage) throws(ImageError) -> [UInt8] { try AppleImageCodec.encodePNG(image) }
    }

#endif
