// Apple platforms only. Not compiled by the project's Linux CI: written against the documented CoreVideo /
// CoreMedia API and unverified by a build. The YUV planes it hands on are read by `PixelImage`'s NV12
// path, which is tested on Linux.
#if canImport(CoreVideo)
    import CoreVideo
    import PureVision

    extension MPImage {
        /// MediaPipe's `MPImage(pixelBuffer:)`, orientation `.up`.
        /// - Throws: `VisionTaskError.image` for an unsupported pixel format or a buffer that cannot be read.
        public convenience init(pixelBuffer: CVPixelBuffer) throws {
            try self.init(pixelBuffer: pixelBuffer, orientation: .up)
        }

        /// MediaPipe's `MPImage(pixelBuffer:orientation:)`.
        ///
        /// `kCVPixelFormatType_32BGRA` and `32RGBA` buffers are used in place, without a copy (the buffer stays locked
        /// read-only while the image lives; a live-stream task copies a frame it keeps). The camera's YUV 4:2:0
        /// formats (`420YpCbCr8BiPlanarFullRange` / `VideoRange`) are converted to RGB once.
        /// - Throws: `VisionTaskError.image` for another pixel format or a buffer that cannot be locked, or for a
        ///   mirrored orientation.
        public convenience init(pixelBuffer: CVPixelBuffer, orientation: MPImage.Orientation) throws {
            let borrowed: (image: PixelImage, owner: LockedPixelBuffer?)
            do { borrowed = try PixelImage.borrowing(pixelBuffer: pixelBuffer) } catch {
                throw VisionTaskError.image(error)
            }
            try self.init(
                pixelImage: borrowed.image, orientation: ImageOrientation(orientation), pixelOwner: borrowed.owner)
        }
    }
#endif

#if canImport(CoreMedia)
    import CoreMedia

    extension MPImage {
        /// MediaPipe's `MPImage(sampleBuffer:)`: the sample's pixel buffer, orientation `.up`.
        /// - Throws: `VisionTaskError` for a sample without an image buffer, or as `init(pixelBuffer:orientation:)`.
        public convenience init(sampleBuffer: CMSampleBuffer) throws {
            try self.init(sampleBuffer: sampleBuffer, orientation: .up)
        }

        /// MediaPipe's `MPImage(sampleBuffer:orientation:)`.
        /// - Throws: `VisionTaskError` for a sample without an image buffer, or as `init(pixelBuffer:orientation:)`.
        public convenience init(sampleBuffer: CMSampleBuffer, orientation: MPImage.Orientation) throws {
            guard let pixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else {
                throw VisionTaskError.invalidOption(name: "sampleBuffer", reason: "the sample has no image buffer")
            }
            try self.init(pixelBuffer: pixelBuffer, orientation: orientation)
        }
    }
#endif
