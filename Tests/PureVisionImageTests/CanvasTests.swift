import PureVisionImage
import PureVisionTestSupport
import Testing

/// The pixels of `canvas` that are `color`, as (x, y).
func painted(_ canvas: ImageCanvas, _ color: RGBColor) -> Set<[Int]> {
    var points = Set<[Int]>()
    for y in 0..<canvas.height {
        for x in 0..<canvas.width where canvas.color(atX: x, y: y) == color { points.insert([x, y]) }
    }
    return points
}

@Suite struct CanvasTests {
    func blank(width: Int = 20, height: Int = 12) throws -> ImageCanvas {
        try ImageCanvas(width: width, height: height, background: .black)
    }

    @Test func horizontalLineCoversExactlyItsPixels() throws {
        var canvas = try blank()
        canvas.drawLine(from: (x: 2, y: 5), to: (x: 10, y: 5), color: .red)
        #expect(painted(canvas, .red) == Set((2...10).map { [$0, 5] }))
    }

    @Test func thickDiagonalLineIsSymmetric() throws {
        var canvas = try blank(width: 21, height: 21)
        canvas.drawLine(from: (x: 2, y: 2), to: (x: 18, y: 18), color: .green, thickness: 3)
        let points = painted(canvas, .green)
        #expect(points.contains([10, 10]) && points.contains([11, 10]) && points.contains([10, 11]))
        #expect(!points.contains([10, 14]) && !points.contains([0, 20]))
        #expect(points.allSatisfy { points.contains([$0[1], $0[0]]) })
    }

    @Test func rectangleOutline() throws {
        var canvas = try blank()
        canvas.drawRectangle(x: 3, y: 2, width: 6, height: 4, color: .blue)
        let points = painted(canvas, .blue)
        #expect(points.count == 2 * 6 + 2 * 2)
        #expect(points.contains([3, 2]) && points.contains([8, 5]) && !points.contains([5, 3]))
        var filled = try blank()
        filled.drawRectangle(x: 3, y: 2, width: 6, height: 4, color: .blue, thickness: 10)
        #expect(painted(filled, .blue).count == 24)
    }

    @Test func circles() throws {
        var canvas = try blank(width: 21, height: 21)
        canvas.drawCircle(center: (x: 10, y: 10), radius: 3, color: .yellow, filled: true)
        let disc = painted(canvas, .yellow)
        // Lattice points within distance 3 of the centre: 29.
        #expect(disc.count == 29 && disc.contains([10, 10]) && disc.contains([13, 10]) && !disc.contains([13, 12]))
        var ring = try blank(width: 21, height: 21)
        ring.drawCircle(center: (x: 10, y: 10), radius: 5, color: .cyan)
        let outline = painted(ring, .cyan)
        #expect(outline.contains([15, 10]) && outline.contains([10, 5]) && !outline.contains([10, 10]))
        #expect(
            outline.allSatisfy { point in
                let dx = Double(point[0]) - 10
                let dy = Double(point[1]) - 10
                return abs((dx * dx + dy * dy).squareRoot() - 5) <= 0.5
            })
    }

    @Test(arguments: ["0123456789", ".%", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"])
    func textUsesOneGlyphPerCharacter(_ text: String) throws {
        let size = ImageCanvas.textSize(text)
        #expect(size.height == 7 && size.width == text.count * 6 - 1)
        var canvas = try blank(width: size.width + 2, height: 9)
        canvas.drawText(text, at: (x: 1, y: 1), color: .white)
        let points = painted(canvas, .white)
        #expect(points.allSatisfy { $0[0] >= 1 && $0[0] <= size.width && $0[1] >= 1 && $0[1] <= 7 })
        // Each glyph paints something, inside its own 5-pixel cell.
        for index in 0..<text.count {
            #expect(points.contains { ($0[0] - 1) / 6 == index && ($0[0] - 1) % 6 < 5 }, "glyph \(index) of \(text)")
        }
    }

    @Test func glyphsAreDistinct() throws {
        let characters = Array("0123456789.%ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var seen: [Set<[Int]>: Character] = [:]
        for character in characters {
            var canvas = try blank(width: 5, height: 7)
            canvas.drawText(String(character), at: (x: 0, y: 0), color: .white)
            let glyph = painted(canvas, .white)
            #expect(seen[glyph] == nil, "\(character) looks like \(String(describing: seen[glyph]))")
            seen[glyph] = character
        }
    }

    @Test func textScales() throws {
        var small = try blank(width: 6, height: 8)
        small.drawText("8", at: (x: 0, y: 0), color: .white)
        var large = try blank(width: 12, height: 16)
        large.drawText("8", at: (x: 0, y: 0), color: .white, scale: 2)
        #expect(painted(large, .white).count == 4 * painted(small, .white).count)
        #expect(ImageCanvas.textSize("ab\nc", scale: 2) == (width: 22, height: 32))
    }

    @Test func drawingClipsAtTheEdges() throws {
        var canvas = try blank()
        canvas.drawLine(from: (x: -50, y: 3), to: (x: 50, y: 3), color: .red)
        #expect(painted(canvas, .red) == Set((0..<20).map { [$0, 3] }))
        canvas.drawRectangle(x: -5, y: -5, width: 10, height: 10, color: .green)
        #expect(painted(canvas, .green) == Set((0..<5).flatMap { [[4, $0], [$0, 4]] }))
        canvas.drawText("Hi 42%", at: (x: 15, y: 8), color: .white, scale: 3)
        #expect(painted(canvas, .white).allSatisfy { $0[0] >= 15 && $0[1] >= 8 })
        #expect(!painted(canvas, .white).isEmpty)
    }

    @Test func hostileCoordinatesNeverTrap() throws {
        var canvas = try blank()
        let before = painted(canvas, .black).count
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e300, Double(Int.max)] {
            canvas.drawLine(from: (x: value, y: 0), to: (x: 5, y: value), color: .red, thickness: value)
            canvas.drawLine(from: (x: 1e300, y: 1e300), to: (x: 2e300, y: 2e300), color: .red)
            canvas.drawCircle(center: (x: value, y: value), radius: value, color: .red, filled: true)
            canvas.drawCircle(center: (x: -1e9, y: -1e9), radius: 3, color: .red)
        }
        for value in [Int.max, Int.min, -1, 0] {
            canvas.drawRectangle(x: value, y: value, width: Int.max, height: Int.max, color: .blue, thickness: Int.max)
            canvas.drawRectangle(x: value, y: 0, width: value, height: 3, color: .blue, thickness: value)
            canvas.drawText("A\nB", at: (x: value, y: value), color: .green, scale: value)
            canvas.drawText("x", at: (x: Int.max - 3, y: Int.min), color: .green, scale: Int.max)
        }
        #expect(canvas.color(atX: -1, y: 0) == nil && canvas.color(atX: 20, y: 0) == nil)
        #expect(painted(canvas, .black).count <= before)
    }

    @Test func keepsAlphaAndFormat() throws {
        let bgra = try PixelImage(width: 2, height: 1, format: .bgra8, pixels: [10, 20, 30, 40, 50, 60, 70, 80])
        var canvas = ImageCanvas(image: bgra)
        #expect(canvas.format == .rgba8)
        canvas.drawLine(from: (x: 1, y: 0), to: (x: 1, y: 0), color: .red)
        #expect(packedPixels(canvas.image) == [30, 20, 10, 40, 255, 0, 0, 255])
        let gray = try PixelImage(width: 1, height: 1, format: .gray8, pixels: [9], orientation: .right)
        let fromGray = ImageCanvas(image: gray)
        #expect(fromGray.format == .rgb8 && fromGray.orientation == .right)
        #expect(packedPixels(fromGray.image) == [9, 9, 9])
    }

    @Test func annotatesAPhotoAndWritesIt() throws {
        var canvas = ImageCanvas(image: try PixelImage(contentsOfFile: fixturePath("rgb_baseline.jpg")))
        canvas.drawRectangle(x: 2, y: 2, width: 20, height: 10, color: .green, thickness: 2)
        canvas.drawText("98.5%", at: (x: 3, y: 14), color: .yellow)
        let decoded = try PixelImage(encoded: PNGEncoder.encode(canvas.image))
        #expect(packedPixels(decoded) == packedPixels(canvas.image))
        #expect(canvas.color(atX: 2, y: 2) == .green)
    }

    @Test func canvasRejectsBadSizes() {
        #expect(throws: ImageError.invalidDimensions(width: 0, height: 5)) { try ImageCanvas(width: 0, height: 5) }
        #expect(throws: ImageError.tooLarge(width: 1 << 40, height: 1)) { try ImageCanvas(width: 1 << 40, height: 1) }
    }
}
