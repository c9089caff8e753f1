/// Converts the camera's bi-planar YUV 4:2:0 frames (a full-resolution luma plane, then one plane of interleaved
/// Cb, Cr at half resolution in both directions — CoreVideo's `420YpCbCr8BiPlanar…`, NV12) to packed RGB.
///
/// Platform-neutral so that it is tested everywhere; `PixelImage.borrowing(pixelBuffer:)` uses it on Apple platforms
/// for the compatibility modules' `MPImage(pixelBuffer:)` and `VisionImage(buffer:)`.
package enum YCbCrConversion {
    /// The colour matrix the frame was encoded with (camera frames say which in their attachments).
    package enum Matrix: Sendable {
        /// ITU-R BT.601 (standard definition; the default when a frame says nothing).
        case bt601
        /// ITU-R BT.709 (high definition).
        case bt709

        /// (Cr→R, Cb→G, Cr→G, Cb→B): R = Y + a·Cr, G = Y − b·Cb − c·Cr, B = Y + d·Cb.
        var coefficients: (Float, Float, Float, Float) {
            switch self {
            case .bt601: (1.402, 0.344136, 0.714136, 1.772)
            case .bt709: (1.5748, 0.187324, 0.468124, 1.8556)
            }
        }
    }

    /// Packed RGB bytes (`width · height · 3`) of one frame.
    /// - Parameters:
    ///   - fullRange: luma and chroma use 0…255 (`…FullRange`); otherwise luma 16…235 and chroma 16…240
    ///     (`…VideoRange`) and are expanded.
    /// - Precondition: the planes hold `height` rows of `width` luma bytes and `(height + 1) / 2` rows of
    ///   `2 · ((width + 1) / 2)` chroma bytes at the given strides.
    package static func rgb(
        luma: UnsafePointer<UInt8>, lumaBytesPerRow: Int, chroma: UnsafePointer<UInt8>, chromaBytesPerRow: Int,
        width: Int, height: Int, fullRange: Bool, matrix: Matrix
    ) -> [UInt8] {
        let (crToR, cbToG, crToG, cbToB) = matrix.coefficients
        let lumaScale: Float = fullRange ? 1 : 255 / 219
        let lumaOffset: Float = fullRange ? 0 : 16
        let chromaScale: Float = fullRange ? 1 : 255 / 224
        var output = [UInt8](repeating: 0, count: width * height * 3)
        func byte(_ value: Float) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
        output.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let lumaRow = luma + y * lumaBytesPerRow
                let chromaRow = chroma + (y / 2) * chromaBytesPerRow
                for x in 0..<width {
                    let l = (Float(lumaRow[x]) - lumaOffset) * lumaScale
                    let cb = (Float(chromaRow[(x / 2) * 2]) - 128) * chromaScale
                    let cr = (Float(chromaRow[(x / 2) * 2 + 1]) - 128) * chromaScale
                    let o = (y * width + x) * 3
                    out[o] = byte(l + crToR * cr)
                    out[o + 1] = byte(l - cbToG * cb - crToG * cr)
                    out[o + 2] = byte(l + cbToB * cb)
                }
            }
        }
        return output
    }
}
