import PureVisionImage
import PureVisionKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an image-to-tensor conversion reports besides the pixels.
public struct ImageToTensorResult: Sendable {
    /// The letterbox bands, as fractions of the tensor's width (left, right) and height (top, bottom); all 0
    /// without `keepAspectRatio`.
    public let letterboxPadding: (left: Float, top: Float, right: Float, bottom: Float)
    /// 4×4 row-major matrix (16 values) mapping tensor-normalized coordinates (0…1 across the whole tensor, padding
    /// included; z scaled like x) to image-normalized coordinates: MediaPipe's `MATRIX` output,
    /// `GetRotatedSubRectToRectTransformMatrix` without flip.
    public let matrix: [Float]

    package init(letterboxPadding: (left: Float, top: Float, right: Float, bottom: Float), matrix: [Float]) {
        self.letterboxPadding = letterboxPadding
        self.matrix = matrix.count == 16 ? matrix : Array(repeating: 0, count: 16)
    }
}

/// Crops, rotates and scales an image into a model's input tensor exactly as MediaPipe 0.10.14's
/// `ImageToTensorCalculator` does on the CPU (OpenCV 3.4.10 `warpPerspective`, INTER_LINEAR, on 8-bit pixels).
///
/// Steps, for an image of W × H pixels and a `NormalizedRect`:
/// 1. ROI in pixels: centre (xc·W, yc·H), size (w·W, h·H), the rect's rotation (Float products); no rect: the whole
///    image.
/// 2. With `keepAspectRatio`, the ROI grows to the tensor's aspect ratio (`PadRoi`); the padding is reported.
/// 3. The ROI's corners map to the tensor's corners, (0, H'), (0, 0), (W', 0), (W', H'); a tensor pixel index is
///    used directly as a coordinate (no half-pixel shift). See `FixedPointWarp` for the per-pixel arithmetic.
/// 4. Output channels are RGB: gray is replicated, RGBA drops alpha, BGRA and ARGB are reordered; a YUV 4:2:0
///    image's pixels are converted (`YUVEncoding`) as the warp reads them, so only the sampled ones are. A level `v` is written as
///    `fma(v, scale, min)` (Float) into the float tensor, or unchanged into the 8-bit one.
///
/// The image's `orientation` is not applied here: fold it into the rect with
/// `ImageProcessingOptions.normalizedRect(imageWidth:imageHeight:orientation:roiAllowed:)`. The converter holds no
/// buffers and allocates nothing per pixel; it is a value and safe to share.
public struct ImageToTensorConverter: Sendable {
    /// The tensor's size, border and value range.
    public let options: ImageToTensorOptions

    /// Creates a converter.
    /// - Throws: `PreprocessingError.invalidOptions` when `options.validate()` fails.
    public init(options: ImageToTensorOptions) throws(PreprocessingError) {
        try options.validate()
        self.options = options
    }

    /// The number of elements of the tensor, `outputHeight · outputWidth · 3`.
    public var elementCount: Int { options.outputHeight * options.outputWidth * 3 }

    /// Writes the float32 NHWC tensor `[1, outputHeight, outputWidth, 3]` for `rect` of `image` into `output`.
    /// - Parameters:
    ///   - image: the source image.
    ///   - rect: the region to crop (nil: the whole image). MediaPipe skips a rect with width = height = 0 without
    ///     producing a tensor; callers do the same, as this method throws for it.
    ///   - output: `elementCount` writable floats (for example the interpreter's input tensor).
    /// - Throws: `PreprocessingError.invalidRect` when the rect's pixel size is not positive or a value is not
    ///   finite.
    @discardableResult
    public func convert(
        _ image: PixelImage, rect: NormalizedRect? = nil, into output: UnsafeMutablePointer<Float>
    ) throws(PreprocessingError) -> ImageToTensorResult {
        try convert(image, rect: rect, into: output, pool: nil)
    }

    /// `convert(_:rect:into:)` with the output rows split over `pool`'s threads (each row is computed alone, so the
    /// tensor is the same).
    @discardableResult
    package func convert(
        _ image: PixelImage, rect: NormalizedRect? = nil, into output: UnsafeMutablePointer<Float>, pool: ThreadPool?
    ) throws(PreprocessingError) -> ImageToTensorResult {
        let (scale, offset) = (options.scale, options.range.min)
        // 256 floats: a stack allocation, not a heap one.
        return try withTemporaryBuffer(of: Float.self, capacity: 256) { table throws(PreprocessingError) in
            guard let entries = table.baseAddress else {
                return try run(
                    image, rect: rect, sink: FloatWarpSink(output: output, scale: scale, offset: offset), pool: pool)
            }
            LevelTableWarpSink.fill(entries, scale: scale, offset: offset)
            return try run(image, rect: rect, sink: LevelTableWarpSink(output: output, table: entries), pool: pool)
        }
    }

    /// Writes the 8-bit levels of the same tensor, `[1, outputHeight, outputWidth, 3]` RGB, into `output`: the input
    /// of a uint8 model, which MediaPipe feeds raw, and the values the float tensor is computed from.
    /// - Throws: as `convert(_:rect:into:)` for floats.
    @discardableResult
    public func convert(
        _ image: PixelImage, rect: NormalizedRect? = nil, into output: UnsafeMutablePointer<UInt8>
    ) throws(PreprocessingError) -> ImageToTensorResult {
        try run(image, rect: rect, sink: ByteWarpSink(output: output), pool: nil)
    }

    /// `convert(_:rect:into:)` for bytes with the output rows split over `pool`'s threads.
    @discardableResult
    package func convert(
        _ image: PixelImage, rect: NormalizedRect? = nil, into output: UnsafeMutablePointer<UInt8>, pool: ThreadPool?
    ) throws(PreprocessingError) -> ImageToTensorResult {
        try run(image, rect: rect, sink: ByteWarpSink(output: output), pool: pool)
    }

    /// The ROI in pixels after letterboxing, the padding and the matrix, without warping anything.
    /// - Throws: `PreprocessingError.invalidRect` as `convert`.
    package func geometry(
        imageWidth: Int, imageHeight: Int, rect: NormalizedRect?
    ) throws(PreprocessingError) -> (roi: RotatedRect, result: ImageToTensorResult) {
        let width = Float(imageWidth)
        let height = Float(imageHeight)
        var roi: RotatedRect
        if let rect {
            roi = RotatedRect(
                centerX: rect.xCenter * width, centerY: rect.yCenter * height, width: rect.width * width,
                height: rect.height * height, rotation: rect.rotation)
        } else {
            roi = RotatedRect(centerX: 0.5 * width, centerY: 0.5 * height, width: width, height: height, rotation: 0)
        }
        guard roi.centerX.isFinite, roi.centerY.isFinite, roi.width.isFinite, roi.height.isFinite,
            roi.rotation.isFinite, roi.width > 0, roi.height > 0
        else {
            throw .invalidRect(rect ?? .fullImage)
        }
        var padding: (left: Float, top: Float, right: Float, bottom: Float) = (0, 0, 0, 0)
        if options.keepAspectRatio {
            let tensorAspect = Float(options.outputHeight) / Float(options.outputWidth)
            let roiAspect = roi.height / roi.width
            if tensorAspect > roiAspect {
                let vertical = (1 - roiAspect / tensorAspect) / 2
                roi.height = roi.width * tensorAspect
                padding = (0, vertical, 0, vertical)
            } else {
                let horizontal = (1 - tensorAspect / roiAspect) / 2
                roi.width = roi.height / tensorAspect
                padding = (horizontal, 0, horizontal, 0)
            }
            guard roi.width.isFinite, roi.height.isFinite else { throw .invalidRect(rect ?? .fullImage) }
        }
        let matrix = Self.transformMatrix(roi: roi, imageWidth: imageWidth, imageHeight: imageHeight)
        return (roi, ImageToTensorResult(letterboxPadding: padding, matrix: matrix))
    }

    private func run<Sink: WarpSink>(
        _ image: PixelImage, rect: NormalizedRect?, sink: Sink, pool: ThreadPool?
    ) throws(PreprocessingError) -> ImageToTensorResult {
        let (roi, result) = try geometry(imageWidth: image.width, imageHeight: image.height, rect: rect)
        let outputWidth = options.outputWidth
        let outputHeight = options.outputHeight
        let destination = SIMD8<Float>(
            0, Float(outputHeight), 0, 0, Float(outputWidth), 0, Float(outputWidth), Float(outputHeight))
        let corners = PerspectiveTransform.corners(of: roi)
        let forward = PerspectiveTransform.solve(source: corners, destination: destination)
        let inverse = PerspectiveTransform.inverted(forward)
        let border = options.border
        let isYUV =
            image.withUnsafeYUVPlanes { planes in
                FixedPointWarp.warp(
                    YUVWarpSource(planes: planes, width: image.width, height: image.height), inverse: inverse,
                    outputWidth: outputWidth, outputHeight: outputHeight, border: border, into: sink, pool: pool)
            } != nil
        if isYUV { return result }
        let offsets: SIMD3<Int>
        switch image.format {
        case .gray8, .nv12, .nv21, .i420: offsets = SIMD3(0, 0, 0)
        case .rgb8, .rgba8: offsets = SIMD3(0, 1, 2)
        case .bgra8: offsets = SIMD3(2, 1, 0)
        case .argb8: offsets = SIMD3(1, 2, 3)
        }
        image.withUnsafePixels { bytes in
            guard let pixels = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            let source = WarpSource(
                pixels: pixels, width: image.width, height: image.height, bytesPerRow: image.bytesPerRow,
                bytesPerPixel: image.format.channelCount, channelOffsets: offsets)
            FixedPointWarp.warp(
                source, inverse: inverse, outputWidth: outputWidth, outputHeight: outputHeight,
                border: border, into: sink, pool: pool)
        }
        return result
    }

    /// MediaPipe's `GetRotatedSubRectToRectTransformMatrix` (no flip), in Float with glibc `cosf`/`sinf`.
    private static func transformMatrix(roi: RotatedRect, imageWidth: Int, imageHeight: Int) -> [Float] {
        let a = roi.width
        let b = roi.height
        let c = cosf(roi.rotation)
        let d = sinf(roi.rotation)
        let e = roi.centerX
        let f = roi.centerY
        let g = 1 / Float(imageWidth)
        let h = 1 / Float(imageHeight)
        let half: Float = 0.5
        return [
            a * c * g, -b * d * g, 0, (-half * a * c + half * b * d + e) * g,
            a * d * h, b * c * h, 0, (-half * b * c - half * a * d + f) * h,
            0, 0, a * g, 0,
            0, 0, 0, 1,
        ]
    }
}
