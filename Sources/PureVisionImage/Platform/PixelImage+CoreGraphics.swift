// Apple platforms only. Not compiled by the project's Linux CI: written against the documented CoreGraphics API and
// unverified by a build.
#if canImport(CoreGraphics)
    import CoreGraphics

    extension PixelImage {
        /// The pixels of a `CGImage` drawn once into RGBA (premultiplied alpha; opaque photos are unchanged), for the
        /// compatibility modules' `MPImage(uiImage:)` and `VisionImage(image:)`.
        /// - Throws: `ImageError.corrupt` when the image cannot be drawn, or the size errors of `PixelImage`.
        package init(cgImage: CGImage, orientation: ImageOrientation = .up) throws(ImageError) {
            let width = cgImage.width
            let height = cgImage.height
            try Self.validate(width: width, height: height, format: .rgba8, bytesPerRow: width * 4, byteCount: nil)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let drawn = pixels.withUnsafeMutableBytes { buffer -> Bool in
                guard
                    let context = CGContext(
                        data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8,
                        bytesPerRow: width * 4, space: CGColorSpaceCreateDeviceRGB(),
                        bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
                else { return false }
                context.draw(cgImage, in: CGRect(x: 0, y: 0, width: width, height: height))
                return true
            }
            guard drawn else { throw .corrupt("the CGImage could not be drawn into RGBA") }
            try self.init(width: width, height: height, format: .rgba8, pixels: pixels, orientation: orientation)
        }
    }
#endif
