import PureVision

#if canImport(CoreVideo)
    // Apple platforms: the mask is CoreVideo's own pixel buffer, and guide code calling CoreVideo compiles with only
    // `import PureVisionMLKit`. Written against the documented CoreVideo API; type-checked for iOS by
    // tools/platforms/ios.sh, never built or run here (README, "Apple-only code").
    @_exported import CoreVideo
#endif

/// The result of a `Segmenter`: ML Kit's `SegmentationMask` (`MLKSegmentationMask`).
public final class SegmentationMask: @unchecked Sendable {
    // @unchecked: the buffer is written once, at creation, and only read afterwards, as ML Kit's is.
    /// The foreground confidence of each pixel, in [0, 1] (1: the person): a `CVPixelBuffer` of format
    /// `kCVPixelFormatType_OneComponent32Float`, the upright image's size, or the model's (256 × 256) with
    /// `shouldEnableRawSizeMask`. Read it as with ML Kit: lock the base address, read rows `bytesPerRow` apart, unlock.
    public let buffer: CVPixelBuffer

    /// Wraps a buffer.
    init(buffer: CVPixelBuffer) { self.buffer = buffer }

    /// The mask holding the native mask's confidences.
    /// - Throws: `VisionTaskError.model` when CoreVideo cannot create the buffer.
    convenience init(_ native: SelfieSegmentationMask) throws(VisionTaskError) {
        #if canImport(CoreVideo)
            var created: CVPixelBuffer?
            let status = CVPixelBufferCreate(
                kCFAllocatorDefault, native.width, native.height, kCVPixelFormatType_OneComponent32Float, nil, &created)
            guard status == kCVReturnSuccess, let buffer = created else {
                throw .model("CoreVideo could not create a \(native.width) × \(native.height) mask (status \(status))")
            }
            CVPixelBufferLockBaseAddress(buffer, [])
            defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
            guard let base = CVPixelBufferGetBaseAddress(buffer) else {
                throw .model("CoreVideo gave the mask no memory")
            }
            let bytesPerRow = CVPixelBufferGetBytesPerRow(buffer)
            native.confidences.withUnsafeBufferPointer { values in
                for row in 0..<native.height {
                    let destination = (base + row * bytesPerRow).assumingMemoryBound(to: Float.self)
                    for column in 0..<native.width { destination[column] = values[row * native.width + column] }
                }
            }
            self.init(buffer: buffer)
        #else
            self.init(buffer: CVPixelBuffer(width: native.width, height: native.height, values: native.confidences))
        #endif
    }
}
