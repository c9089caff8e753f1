// Apple platforms only. Not compiled by the project's Linux CI: written against the documented CoreMedia /
// CoreVideo API and unverified by a build. The YUV planes it hands on are read by `PixelImage`'s NV12
// path, which is tested on Linux.
#if canImport(CoreMedia) && canImport(CoreVideo)
    import CoreMedia
    import CoreVideo
    import PureVision

    extension VisionImage {
        /// ML Kit's `VisionImage(buffer:)`: a camera frame (`32BGRA`, `32RGBA` or the YUV 4:2:0 bi-planar formats).
        /// The pixels are copied (converted for YUV) at once, so the sample buffer can go back to the camera; a sample
        /// that cannot be read is reported by the detector. Set `orientation` from the device and camera position, as
        /// with ML Kit.
        public convenience init(buffer: CMSampleBuffer) {
            guard let pixelBuffer = CMSampleBufferGetImageBuffer(buffer) else {
                self.init(source: .failure(.invalidOption(name: "buffer", reason: "the sample has no image buffer")))
                return
            }
            do {
                let borrowed = try PixelImage.borrowing(pixelBuffer: pixelBuffer)
                let owned = withExtendedLifetime(borrowed.owner) { borrowed.image.ownedCopy() }
                self.init(source: .success(owned))
            } catch {
                self.init(source: .failure(.image(error)))
            }
        }
    }
#endif
