// Apple platforms only. Not compiled by the project's Linux CI: written against the documented CoreVideo API and
// unverified by a build. The YUV planes it wraps are read by `PixelImage`'s NV12 path, which is tested on Linux.
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
        /// Every supported format is borrowed without a copy: the returned image is valid while the returned
        /// `LockedPixelBuffer` lives (it keeps the buffer locked). `kCVPixelFormatType_32BGRA` and `32RGBA` become
        /// `.bgra8` / `.rgba8` images; the YUV 4:2:0 bi-planar formats (`420YpCbCr8BiPlanarFullRange` /
        /// `VideoRange`, even width and height as cameras give) become `.nv12` images, full or video range, with
        /// BT.709 when the buffer's `kCVImageBufferYCbCrMatrixKey` says so and BT.601 otherwise; the preprocessing
        /// converts only the pixels it samples.
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
                var matrix = YUVMatrix.bt601
                if let attachment = CVBufferCopyAttachment(pixelBuffer, kCVImageBufferYCbCrMatrixKey, nil),
                    let name = attachment as? String, name == (kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String)
                {
                    matrix = .bt709
                }
                let fullRange = formatType == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
                let lumaBytesPerRow = CVPixelBufferGetBytesPerRowOfPlane(pixelBuffer, 0)
                let chromaBytesPerRow = CVPixelBufferGetBytesPerRowOfPlane(pixelBuffer, 1)
                let image = try PixelImage.wrapping(
                    unsafeLuma: UnsafeRawBufferPointer(start: luma, count: lumaBytesPerRow * height),
                    lumaBytesPerRow: lumaBytesPerRow,
                    chroma: UnsafeRawBufferPointer(start: chroma, count: chromaBytesPerRow * (height / 2)),
                    chromaBytesPerRow: chromaBytesPerRow, width: width, height: height, format: .nv12,
                    encoding: YUVEncoding(range: fullRange ? .full : .video, matrix: matrix), orientation: orientation)
                return (image, locked)
            default:
                throw .unsupportedFormat(
                    "pixel buffer format \(formatType): use 32BGRA, 32RGBA or 420YpCbCr8BiPlanar (full or video range)")
            }
        }
    }
#endif
