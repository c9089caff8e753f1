import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport

/// Shared helpers of the face analyzer tests: the analyzer on the repository's models, committed photos, and
/// images derived from them with the library's own warp (rotations, crops) or plain pixel copies (mirroring,
/// composites).
enum FaceTestImages {
    static let modelDirectory = Fixtures.packageRoot().appendingPathComponent("Models").path

    static func analyzer(
        performanceMode: FacePerformanceMode = .fast, landmarks: Bool = false, contours: Bool = false,
        classify: Bool = false, tracking: Bool = false, minFaceSize: Float = 0.1, runningMode: RunningMode = .image
    ) throws -> FaceAnalyzer {
        try FaceAnalyzer(
            options: FaceAnalyzerOptions(
                modelDirectory: modelDirectory, performanceMode: performanceMode,
                landmarkMode: landmarks ? .all : .none, contourMode: contours ? .all : .none,
                classificationMode: classify ? .all : .none, minFaceSize: minFaceSize,
                isTrackingEnabled: tracking, runningMode: runningMode))
    }

    static func photo(_ name: String) throws -> PixelImage {
        try PixelImage(contentsOfFile: Fixtures.testFile("PureVisionTests/Fixtures/faces/\(name)")).converted(to: .rgb8)
    }

    /// The part of `image` inside `rect` (normalized, rotated by `rect.rotation`) resampled to `width` × `height`
    /// with `ImageToTensorConverter`'s bilinear warp; outside the image is black. A rect rotated by +θ shows the
    /// content turned counter-clockwise by θ.
    static func warp(_ image: PixelImage, rect: NormalizedRect, width: Int, height: Int) throws -> PixelImage {
        let converter = try ImageToTensorConverter(
            options: ImageToTensorOptions(
                outputWidth: width, outputHeight: height, keepAspectRatio: false, border: .zero, range: (0, 255)))
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        try pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            _ = try converter.convert(image, rect: rect, into: base)
        }
        return try PixelImage(width: width, height: height, format: .rgb8, pixels: pixels)
    }

    /// `image` rotated in place about its centre by `degrees` counter-clockwise, on a square canvas whose side is
    /// the image's diagonal (so nothing is cut off).
    static func rotated(_ image: PixelImage, degrees: Float) throws -> PixelImage {
        let w = Float(image.width)
        let h = Float(image.height)
        let side = (w * w + h * h).squareRoot().rounded(.up)
        let rect = NormalizedRect(
            xCenter: 0.5, yCenter: 0.5, width: side / w, height: side / h, rotation: degrees * .pi / 180)
        return try warp(image, rect: rect, width: Int(side), height: Int(side))
    }

    /// `image` mirrored left–right.
    static func mirrored(_ image: PixelImage) throws -> PixelImage {
        let rgb = image.converted(to: .rgb8)
        var pixels = [UInt8](repeating: 0, count: rgb.width * rgb.height * 3)
        rgb.withUnsafePixels { source in
            for y in 0..<rgb.height {
                for x in 0..<rgb.width {
                    let from = y * rgb.bytesPerRow + (rgb.width - 1 - x) * 3
                    let to = (y * rgb.width + x) * 3
                    for c in 0..<3 { pixels[to + c] = source[from + c] }
                }
            }
        }
        return try PixelImage(width: rgb.width, height: rgb.height, format: .rgb8, pixels: pixels)
    }

    /// A black `width` × `height` canvas with each tile pasted at its top-left corner (tiles must fit).
    static func composite(width: Int, height: Int, tiles: [(image: PixelImage, x: Int, y: Int)]) throws -> PixelImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for tile in tiles {
            let rgb = tile.image.converted(to: .rgb8)
            rgb.withUnsafePixels { source in
                for y in 0..<rgb.height where (0..<height).contains(tile.y + y) {
                    for x in 0..<rgb.width where (0..<width).contains(tile.x + x) {
                        let from = y * rgb.bytesPerRow + x * 3
                        let to = ((tile.y + y) * width + tile.x + x) * 3
                        for c in 0..<3 { pixels[to + c] = source[from + c] }
                    }
                }
            }
        }
        return try PixelImage(width: width, height: height, format: .rgb8, pixels: pixels)
    }
}
