/// A mutable RGB or RGBA drawing surface for annotated output (detections, landmarks, labels).
///
/// Coordinates are in pixels of the stored image, x to the right and y down; pixel (i, j) is centred on the point
/// (i, j). Everything is clipped to the image: shapes partly or wholly outside it, and non-finite or huge
/// coordinates, draw only what falls inside (possibly nothing) and never trap. Drawing is opaque: covered pixels
/// take the color, and alpha 255 on an RGBA canvas.
public struct ImageCanvas: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `.rgb8`, or `.rgba8` when the source image had alpha.
    public let format: PixelFormat
    /// Carried over from the source image.
    public var orientation: ImageOrientation
    private var pixels: [UInt8]

    /// A canvas holding a copy of `image`'s pixels: gray8, rgb8 and the YUV formats become rgb8; rgba8, bgra8 and
    /// argb8 become rgba8.
    public init(image: PixelImage) {
        format = image.format.channelCount == 4 ? .rgba8 : .rgb8
        let copy = image.converted(to: format)
        width = copy.width
        height = copy.height
        orientation = image.orientation
        pixels = copy.withUnsafePixels { Array($0) }
    }

    /// A canvas of `width × height` filled with `background`.
    /// - Throws: `ImageError` when the size is invalid or beyond `ImageLimits`.
    public init(width: Int, height: Int, background: RGBColor = .black) throws(ImageError) {
        try PixelImage.validate(width: width, height: height, format: .rgb8, bytesPerRow: width * 3, byteCount: nil)
        self.width = width
        self.height = height
        format = .rgb8
        orientation = .up
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        fillRectangle(x0: 0, y0: 0, x1: width, y1: height, color: background)
    }

    /// The drawing as an image (rgb8 or rgba8, tightly packed, the source's orientation).
    public var image: PixelImage {
        PixelImage(
            validatedWidth: width, height: height, format: format, packedPixels: pixels, orientation: orientation)
    }

    /// The color at (x, y), or nil outside the canvas.
    public func color(atX x: Int, y: Int) -> RGBColor? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let offset = (y * width + x) * format.channelCount
        return RGBColor(pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }

    /// Draws a segment with round caps: every pixel within `thickness / 2` of the segment (at least the pixels
    /// within 0.5, so a thin line is one pixel wide and connected).
    public mutating func drawLine(
        from start: (x: Double, y: Double), to end: (x: Double, y: Double), color: RGBColor, thickness: Double = 1
    ) {
        guard start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite, thickness.isFinite else { return }
        let radius = max(thickness / 2, 0.5)
        let dx = end.x - start.x
        let dy = end.y - start.y
        let lengthSquared = dx * dx + dy * dy
        let limit = radius * radius
        fill(
            minX: min(start.x, end.x) - radius, maxX: max(start.x, end.x) + radius,
            minY: min(start.y, end.y) - radius, maxY: max(start.y, end.y) + radius, color: color
        ) { px, py in
            var t = lengthSquared > 0 ? ((px - start.x) * dx + (py - start.y) * dy) / lengthSquared : 0
            t = min(max(t, 0), 1)
            let ex = px - (start.x + t * dx)
            let ey = py - (start.y + t * dy)
            return ex * ex + ey * ey <= limit
        }
    }

    /// Draws a circle: filled (every pixel within `radius` of `center`), or its outline of width `thickness`.
    public mutating func drawCircle(
        center: (x: Double, y: Double), radius: Double, color: RGBColor, filled: Bool = false, thickness: Double = 1
    ) {
        guard center.x.isFinite, center.y.isFinite, radius.isFinite, thickness.isFinite, radius >= 0 else { return }
        let halfWidth = max(thickness / 2, 0.5)
        let outer = filled ? radius : radius + halfWidth
        let inner = filled ? -1 : radius - halfWidth
        let outerSquared = outer * outer
        let innerSquared = inner < 0 ? -1 : inner * inner
        fill(
            minX: center.x - outer, maxX: center.x + outer, minY: center.y - outer, maxY: center.y + outer,
            color: color
        ) { px, py in
            let d = (px - center.x) * (px - center.x) + (py - center.y) * (py - center.y)
            return d <= outerSquared && d >= innerSquared
        }
    }

    /// Draws the outline of the rectangle with top-left pixel (x, y) and size `width × height`, `thickness` pixels
    /// wide inside its edges (a thickness of half the smaller side or more fills it; 0 or less draws nothing).
    public mutating func drawRectangle(x: Int, y: Int, width: Int, height: Int, color: RGBColor, thickness: Int = 1) {
        guard width > 0, height > 0, thickness > 0 else { return }
        let x1 = Self.clampedSum(x, width)
        let y1 = Self.clampedSum(y, height)
        let tx = min(thickness, width)
        let ty = min(thickness, height)
        fillRectangle(x0: x, y0: y, x1: x1, y1: Self.clampedSum(y, ty), color: color)
        fillRectangle(x0: x, y0: Self.clampedSum(y1, -ty), x1: x1, y1: y1, color: color)
        fillRectangle(x0: x, y0: y, x1: Self.clampedSum(x, tx), y1: y1, color: color)
        fillRectangle(x0: Self.clampedSum(x1, -tx), y0: y, x1: x1, y1: y1, color: color)
    }

    /// Draws `text` in the built-in 5×7 bitmap font with its top-left corner at (x, y), each font pixel a
    /// `scale × scale` block (scale clamped to 1...256). Glyphs advance 6 · scale pixels; a newline starts a new
    /// line 9 · scale pixels lower. Characters outside the font draw as a hollow box.
    public mutating func drawText(_ text: String, at origin: (x: Int, y: Int), color: RGBColor, scale: Int = 1) {
        let scale = min(max(scale, 1), 256)
        var penX = origin.x
        var penY = origin.y
        for character in text {
            if character == "\n" {
                penX = origin.x
                penY = Self.clampedSum(penY, 9 * scale)
                continue
            }
            if penX < width, penY < height {
                let glyph = BitmapFont.glyph(character)
                for (row, bits) in glyph.enumerated() {
                    for column in 0..<BitmapFont.glyphWidth
                    where bits & (1 << (BitmapFont.glyphWidth - 1 - column)) != 0 {
                        let x0 = Self.clampedSum(penX, column * scale)
                        let y0 = Self.clampedSum(penY, row * scale)
                        fillRectangle(
                            x0: x0, y0: y0, x1: Self.clampedSum(x0, scale), y1: Self.clampedSum(y0, scale),
                            color: color)
                    }
                }
            }
            penX = Self.clampedSum(penX, BitmapFont.advance * scale)
        }
    }

    /// The width and height `drawText` covers for `text` at `scale` (the last column of spacing excluded).
    public static func textSize(_ text: String, scale: Int = 1) -> (width: Int, height: Int) {
        let scale = min(max(scale, 1), 256)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let longest = lines.map(\.count).max() ?? 0
        let width = longest == 0 ? 0 : (longest * BitmapFont.advance - 1) * scale
        return (width, ((lines.count - 1) * 9 + BitmapFont.glyphHeight) * scale)
    }

    /// Sets the pixels of [x0, x1) × [y0, y1) clipped to the canvas.
    private mutating func fillRectangle(x0: Int, y0: Int, x1: Int, y1: Int, color: RGBColor) {
        let left = max(x0, 0)
        let right = min(x1, width)
        let top = max(y0, 0)
        let bottom = min(y1, height)
        guard left < right, top < bottom else { return }
        let channels = format.channelCount
        let rowLength = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in top..<bottom {
                var p = base + (y * rowLength + left) * channels
                for _ in left..<right {
                    Self.store(color, at: p, channels: channels)
                    p += channels
                }
            }
        }
    }

    /// Sets the pixels inside the clipped box whose centres satisfy `inside`.
    private mutating func fill(
        minX: Double, maxX: Double, minY: Double, maxY: Double, color: RGBColor,
        where inside: (Double, Double) -> Bool
    ) {
        // Clamp in floating point first, so huge coordinates never reach the Int conversion.
        func clamp(_ v: Double, _ upper: Int) -> Int { Int(min(max(v, -1), Double(upper))) }
        let left = max(clamp(minX.rounded(.down), width), 0)
        let top = max(clamp(minY.rounded(.down), height), 0)
        let right = min(clamp(maxX.rounded(.up), width), width - 1)
        let bottom = min(clamp(maxY.rounded(.up), height), height - 1)
        guard left <= right, top <= bottom else { return }
        let channels = format.channelCount
        let rowLength = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in top...bottom {
                for x in left...right where inside(Double(x), Double(y)) {
                    Self.store(color, at: base + (y * rowLength + x) * channels, channels: channels)
                }
            }
        }
    }

    @inline(__always)
    private static func store(_ color: RGBColor, at p: UnsafeMutablePointer<UInt8>, channels: Int) {
        p[0] = color.r
        p[1] = color.g
        p[2] = color.b
        if channels == 4 { p[3] = 255 }
    }

    /// `a + b`, saturating at the bounds of `Int`.
    private static func clampedSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int.max : Int.min) : sum
    }
}
