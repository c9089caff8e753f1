import PureVisionImage

/// One value per pixel, `width × height` of them, row-major: the masks segmenters report (MediaPipe's `VEC32F1`
/// confidence masks and `GRAY8` category masks).
public struct PixelMask<Value: Numeric & Sendable & Hashable>: Sendable, Hashable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width · height` values, row by row.
    public let values: [Value]

    /// Creates a mask; `values` should hold `width · height` values (extra ones are dropped, missing ones are 0). A
    /// negative size, or more pixels than `ImageLimits.maximumPixelCount`, gives an empty 0 × 0 mask.
    public init(width: Int, height: Int, values: [Value]) {
        let (product, overflow) = max(width, 0).multipliedReportingOverflow(by: max(height, 0))
        let valid = width >= 0 && height >= 0 && !overflow && product <= ImageLimits.maximumPixelCount
        let count = valid ? product : 0
        self.width = valid ? width : 0
        self.height = valid ? height : 0
        if values.count == count {
            self.values = values
        } else {
            self.values = Array(values.prefix(count)) + Array(repeating: .zero, count: max(count - values.count, 0))
        }
    }

    /// The value at column `x`, row `y` (both in range).
    public subscript(x: Int, y: Int) -> Value { values[y * width + x] }
}

extension PixelMask: Codable where Value: Codable {
    private enum CodingKeys: String, CodingKey { case width, height, values }

    /// Decodes a mask, refusing one whose size is negative, too large or not its number of values.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let width = try container.decode(Int.self, forKey: .width)
        let height = try container.decode(Int.self, forKey: .height)
        let values = try container.decode([Value].self, forKey: .values)
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        guard width >= 0, height >= 0, !overflow, product <= ImageLimits.maximumPixelCount, values.count == product
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .values, in: container,
                debugDescription: "a \(width) × \(height) mask with \(values.count) values is not valid")
        }
        self.init(width: width, height: height, values: values)
    }

    /// Encodes the size and the values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(values, forKey: .values)
    }
}

/// A per-pixel confidence of one class, in [0, 1]: MediaPipe's `VEC32F1` mask image (an image segmenter's
/// confidence masks, a pose landmarker's segmentation masks).
public typealias ConfidenceMask = PixelMask<Float>

/// One class index per pixel: MediaPipe's `GRAY8` category mask.
///
/// For a model with several classes each pixel is the index of its most likely class (the label index). For a
/// one-class model (a selfie segmenter) MediaPipe's convention applies: **0 is the class (the person) and 255 the
/// background** (`ImageSegmenterResult.backgroundValue`).
public typealias CategoryMask = PixelMask<UInt8>

/// A per-pixel probability that the pixel belongs to a person, the size of the input image; pixels outside the
/// pose's region are 0.
public typealias PoseSegmentationMask = ConfidenceMask
