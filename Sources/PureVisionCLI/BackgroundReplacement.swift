import PureVisionImage

/// The `--background` of `purevision segment`: what replaces the pixels the segmentation calls background.
///
/// The composite is `alpha · image + (1 − alpha) · background` per pixel and channel, with `alpha` the foreground
/// confidence, so edges stay soft where the model is unsure.
enum BackgroundReplacement {
    /// The image itself, box-blurred three times (close to a Gaussian) with a radius of 1/40 of its longer side.
    case blur
    /// One colour.
    case color(RGBColor)
    /// Another image, stretched to the photo's size (bilinear).
    case image(PixelImage)

    /// Parses `blur`, `#RRGGBB` or an image path.
    init(argument: String) throws {
        if argument == "blur" {
            self = .blur
        } else if argument.hasPrefix("#") {
            let hex = argument.dropFirst()
            guard hex.count == 6, let value = UInt32(hex, radix: 16) else {
                throw CommandLineError.usage("--background color must be #RRGGBB, got '\(argument)'")
            }
            self = .color(RGBColor(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)))
        } else {
            self = .image(try PixelImage(contentsOfFile: argument))
        }
    }

    /// `image` over this background with per-pixel foreground `alpha` (`width · height` values in 0…1).
    func composite(_ image: PixelImage, foreground alpha: [Float]) throws -> PixelImage {
        let rgb = Self.packedRGB(image)
        let (width, height) = (image.width, image.height)
        let backdrop: [UInt8]
        switch self {
        case .blur:
            backdrop = Self.boxBlurred(rgb, width: width, height: height, radius: max(1, max(width, height) / 40))
        case .color(let color):
            backdrop = (0..<(width * height)).flatMap { _ in [color.r, color.g, color.b] }
        case .image(let other):
            backdrop = Self.stretched(
                Self.packedRGB(other), width: other.width, height: other.height,
                toWidth: width, toHeight: height)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for p in 0..<(width * height) {
            let a = p < alpha.count ? alpha[p] : 1
            for c in 0..<3 {
                let value = a * Float(rgb[p * 3 + c]) + (1 - a) * Float(backdrop[p * 3 + c])
                pixels[p * 3 + c] = UInt8(min(max(value.rounded(), 0), 255))
            }
        }
        return try PixelImage(width: width, height: height, format: .rgb8, pixels: pixels)
    }

    /// The image's pixels as tightly packed RGB bytes.
    static func packedRGB(_ image: PixelImage) -> [UInt8] {
        let rgb = image.converted(to: .rgb8)
        var out = [UInt8](repeating: 0, count: rgb.width * rgb.height * 3)
        rgb.withUnsafePixels { raw in
            for y in 0..<rgb.height {
                for x in 0..<(rgb.width * 3) { out[y * rgb.width * 3 + x] = raw[y * rgb.bytesPerRow + x] }
            }
        }
        return out
    }

    /// Three passes of a horizontal and a vertical box filter of half-width `radius` (edges clamped).
    static func boxBlurred(_ rgb: [UInt8], width: Int, height: Int, radius: Int) -> [UInt8] {
        var values = rgb.map(Float.init)
        var scratch = values
        for _ in 0..<3 {
            boxPass(values, into: &scratch, count: width, lines: height, step: 3, lineStride: width * 3, radius: radius)
            boxPass(scratch, into: &values, count: height, lines: width, step: width * 3, lineStride: 3, radius: radius)
        }
        return values.map { UInt8(min(max($0.rounded(), 0), 255)) }
    }

    /// One box filter along lines of `count` pixels `step` floats apart, for 3 interleaved channels.
    private static func boxPass(
        _ source: [Float], into destination: inout [Float], count: Int, lines: Int, step: Int, lineStride: Int,
        radius: Int
    ) {
        let scale = 1 / Float(2 * radius + 1)
        for line in 0..<lines {
            let base = line * lineStride
            for c in 0..<3 {
                func at(_ i: Int) -> Float { source[base + min(max(i, 0), count - 1) * step + c] }
                var sum: Float = 0
                for i in -radius...radius { sum += at(i) }
                for i in 0..<count {
                    destination[base + i * step + c] = sum * scale
                    sum += at(i + radius + 1) - at(i - radius)
                }
            }
        }
    }

    /// Bilinear stretch of packed RGB to another size (half-pixel centres, edges clamped).
    static func stretched(_ rgb: [UInt8], width: Int, height: Int, toWidth: Int, toHeight: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: toWidth * toHeight * 3)
        let sx = Float(width) / Float(toWidth)
        let sy = Float(height) / Float(toHeight)
        for y in 0..<toHeight {
            let fy = max(0, (Float(y) + 0.5) * sy - 0.5)
            let y0 = min(Int(fy), height - 1)
            let y1 = min(y0 + 1, height - 1)
            let ty = fy - Float(y0)
            for x in 0..<toWidth {
                let fx = max(0, (Float(x) + 0.5) * sx - 0.5)
                let x0 = min(Int(fx), width - 1)
                let x1 = min(x0 + 1, width - 1)
                let tx = fx - Float(x0)
                for c in 0..<3 {
                    func v(_ xx: Int, _ yy: Int) -> Float { Float(rgb[(yy * width + xx) * 3 + c]) }
                    let top = v(x0, y0) + (v(x1, y0) - v(x0, y0)) * tx
                    let bottom = v(x0, y1) + (v(x1, y1) - v(x0, y1)) * tx
                    out[(y * toWidth + x) * 3 + c] = UInt8(min(max((top + (bottom - top) * ty).rounded(), 0), 255))
                }
            }
        }
        return out
    }
}
