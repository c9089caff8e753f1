// Apple platforms only. Not compiled by the project's Linux CI: written against the documented CoreVideo API and
// unverified by a build. The YUV conversion it calls (`YCbCrConversion`) is tested on Linux.
#if canImport(CoreVideo)
    import CoreVideo

    /// Keeps a pixel buffer's base address locked (read-only) while an image borrows its pixels; unlocks when released.
    package final class LockedPixelBuffer: @unchecked Sendable {
        // @unchecked: the buffer is only read, and only while locked.
        package let buffer: CVPixelBuffer

        init?(_ buffer: CVPixelBuffer) {
            guard CVPixelBufferLockBaseAddress(buffer, .readOnly) == kCVReturnSuccess else { return nil }
            self.buffer = buffer
        }

        deinit { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
    }

    extension PixelImage {
        /// The image of a camera or video pixel buffer, for the compatibility modules (`MPImage(pixelBuffer:)`,
        /// `VisionImage(buffer:)`).
        ///
        /// `kCVPixelFormatType_32BGRA` and `32RGBA` are borrowed without a copy: the returned image is valid while the
        /// returned `LockedPixelBuffer` lives (it keeps the buffer locked). The YUV 4:2:0 bi-planar formats
        /// (`420YpCbCr8BiPlanarFullRange` / `VideoRange`) are converted to an owned RGB image, with BT.709 when the buffer's
        /// `kCVImageBufferYCbCrMatrixKey` says so and BT.601 otherwise; then the owner is nil.
        /// - Throws: `ImageError.unsupportedFormat` for another pixel format, `.corrupt` for a buffer that cannot be
        ///   locked or has no pixels, or the size errors of `PixelImage`.
        package static func borrowing(
            pixelBuffer: CVPixelBuffer, orientation: ImageOrientation = .up
        ) throws(ImageError) -> (image: PixelImage, owner: LockedPixelBuffer?) {
            guard let locked = LockedPixelBuffer(pixelBuffer) else {
                throw .corrupt("the pixel buffer cannot be locked")
            }
            let width = CVPixelBufferGetWidth(pixelBuffer)
            let height = CVPixelBufferGetHeight(pixelBuffer)
            let formatType = CVPixelBufferGetPixelFormatType(pixelBuffer)
            switch formatType {
            case kCVPixelFormatType_32BGRA, kCVPixelFormatType_32RGBA:
                guard let base = CVPixelBufferGetBaseAddress(pixelBuffer) else { throw .corrupt("no pixels") }
                let image = try PixelImage.wrapping(
                    unsafePixels: UnsafeRawPointer(base), width: width, height: height,
                    format: formatType == kCVPixelFormatType_32BGRA ? .bgra8 : .rgba8,
                    bytesPerRow: CVPixelBufferGetBytesPerRow(pixelBuffer), orientation: orientation)
                return (image, locked)
            case kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange:
                guard width > 0, height > 0, CVPixelBufferGetPlaneCount(pixelBuffer) == 2,
                    let luma = CVPixelBufferGetBaseAddressOfPlane(pixelBuffer, 0),
                    let chroma = CVPixelBufferGetBaseAddressOfPlane(pixelBuffer, 1)
                else { throw .corrupt("a 4:2:0 pixel buffer needs two planes with pixels") }
                try validate(width: width, height: height, format: .rgb8, bytesPerRow: width * 3, byteCount: nil)
                var matrix = YCbCrConversion.Matrix.bt601
                if let attachment = CVBufferCopyAttachment(pixelBuffer, kCVImageBufferYCbCrMatrixKey, nil),
                    let name = attachment as? String, name == (kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String)
                {
                    matrix = .bt709
                }
                let rgb = YCbCrConversion.rgb(
                    luma: luma.assumingMemoryBound(to: UInt8.self),
                    lumaBytesPerRow: CVPixelBufferGetBytesPerRowOfPlane(pixelBuffer, 0),
                    chroma: chroma.assumingMemoryBound(to: UInt8.self),
                    chromaBytesPerRow: CVPixelBufferGetBytesPerRowOfPlane(pixelBuffer, 1), width: width, height: height,
                    fullRange: formatType == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, matrix: matrix)
                return (
                    try PixelImage(width: width, height: height, format: .rgb8, pixels: rgb, orientation: orientation),
                    nil
                )
            default:
                throw .unsupportedFormat(
                    "pixel buffer format \(formatType): use 32BGRA, 32RGBA or 420YpCbCr8BiPlanar (full or video range)")
            }
        }
    }
#endif
