#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Scales, shifts and squares a normalized rect, as MediaPipe's `RectTransformationCalculator` does for
/// `NORM_RECT(S)` with an image size.
public enum RectTransformation {
    /// Transforms `rect`; all arithmetic is float, in the C++'s order.
    ///
    /// - Shift: with `rect.rotation == 0`, `xc += w·shiftX`, `yc += h·shiftY`; otherwise along the rotated axes
    ///   in pixels: `xc += (W·w·sx·cosθ − H·h·sy·sinθ) / W`, `yc += (W·w·sx·sinθ + H·h·sy·cosθ) / H`.
    /// - `squareLong` (or `squareShort`): `L = max(w·W, h·H)` (or min), then `w = L / W`, `h = L / H`.
    /// - Scale: `w ·= scaleX`, `h ·= scaleY`. The rotation is left unchanged.
    ///
    /// - Parameters:
    ///   - rect: the rect to transform, normalized to the image.
    ///   - imageWidth: image width in pixels (the rect's normalization base).
    ///   - imageHeight: image height in pixels.
    ///   - scaleX: factor applied to the width.
    ///   - scaleY: factor applied to the height.
    ///   - shiftX: shift of the centre, in units of the rect's width.
    ///   - shiftY: shift of the centre, in units of the rect's height.
    ///   - squareLong: make the rect square in pixels using its longer side; wins over `squareShort`.
    ///   - squareShort: make the rect square in pixels using its shorter side.
    public static func transform(
        _ rect: NormalizedRect, imageWidth: Int, imageHeight: Int,
        scaleX: Float = 1, scaleY: Float = 1, shiftX: Float = 0, shiftY: Float = 0,
        squareLong: Bool = false, squareShort: Bool = false
    ) -> NormalizedRect {
        let imageW = Float(imageWidth)
        let imageH = Float(imageHeight)
        var result = rect
        var width = rect.width
        var height = rect.height
        let rotation = rect.rotation
        if rotation == 0 {
            result.xCenter = rect.xCenter + width * shiftX
            result.yCenter = rect.yCenter + height * shiftY
        } else {
            let cosine = cosf(rotation)
            let sine = sinf(rotation)
            let xShift = (imageW * width * shiftX * cosine - imageH * height * shiftY * sine) / imageW
            let yShift = (imageW * width * shiftX * sine + imageH * height * shiftY * cosine) / imageH
            result.xCenter = rect.xCenter + xShift
            result.yCenter = rect.yCenter + yShift
        }
        if squareLong {
            let longSide = cppMax(width * imageW, height * imageH)
            width = longSide / imageW
            height = longSide / imageH
        } else if squareShort {
            let shortSide = cppMin(width * imageW, height * imageH)
            width = shortSide / imageW
            height = shortSide / imageH
        }
        result.width = width * scaleX
        result.height = height * scaleY
        return result
    }
}
