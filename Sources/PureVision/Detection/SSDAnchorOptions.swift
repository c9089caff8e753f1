/// Options for generating SSD anchors, the fields of MediaPipe's `SsdAnchorsCalculatorOptions` that the
/// non-multiscale generator reads.
///
/// Either `strides` alone (grid size = ceil(input / stride)) or `strides` plus explicit `featureMapWidth` /
/// `featureMapHeight` describe the layers; `strides` always decides which consecutive layers merge into one
/// grid and how many layers share the scale range.
public struct SSDAnchorOptions: Sendable, Hashable {
    /// Model input width in pixels.
    public var inputSizeWidth: Int
    /// Model input height in pixels.
    public var inputSizeHeight: Int
    /// Scale of the first layer.
    public var minScale: Float
    /// Scale of the last layer.
    public var maxScale: Float
    /// Anchor centre offset within a grid cell, in cells (0.5 = cell centre).
    public var anchorOffsetX: Float
    /// Anchor centre offset within a grid cell, in cells (0.5 = cell centre).
    public var anchorOffsetY: Float
    /// Number of output feature maps.
    public var numLayers: Int
    /// Explicit grid widths per layer; empty to derive them from `strides`.
    public var featureMapWidth: [Int]
    /// Explicit grid heights per layer; empty to derive them from `strides`.
    public var featureMapHeight: [Int]
    /// Stride of each layer in pixels.
    public var strides: [Int]
    /// Aspect ratios (width / height) of the anchors added per layer.
    public var aspectRatios: [Float]
    /// Use MediaPipe's fixed three boxes (ratios 1, 2, 0.5; scales 0.1, s, s) in layer 0.
    public var reduceBoxesInLowestLayer: Bool
    /// Aspect ratio of the extra anchor with scale √(sᵢ·sᵢ₊₁) added per layer; 0 adds none.
    public var interpolatedScaleAspectRatio: Float
    /// Give every anchor width = height = 1 (the model regresses sizes in input units).
    public var fixedAnchorSize: Bool

    /// Creates options; defaults are the proto defaults where it has them.
    public init(
        inputSizeWidth: Int, inputSizeHeight: Int,
        minScale: Float, maxScale: Float,
        anchorOffsetX: Float = 0.5, anchorOffsetY: Float = 0.5,
        numLayers: Int,
        featureMapWidth: [Int] = [], featureMapHeight: [Int] = [],
        strides: [Int],
        aspectRatios: [Float],
        reduceBoxesInLowestLayer: Bool = false,
        interpolatedScaleAspectRatio: Float = 1.0,
        fixedAnchorSize: Bool = false
    ) {
        self.inputSizeWidth = inputSizeWidth
        self.inputSizeHeight = inputSizeHeight
        self.minScale = minScale
        self.maxScale = maxScale
        self.anchorOffsetX = anchorOffsetX
        self.anchorOffsetY = anchorOffsetY
        self.numLayers = numLayers
        self.featureMapWidth = featureMapWidth
        self.featureMapHeight = featureMapHeight
        self.strides = strides
        self.aspectRatios = aspectRatios
        self.reduceBoxesInLowestLayer = reduceBoxesInLowestLayer
        self.interpolatedScaleAspectRatio = interpolatedScaleAspectRatio
        self.fixedAnchorSize = fixedAnchorSize
    }

    /// The palm detector (`hand_detector.tflite`, 192×192): 2016 anchors.
    public static let palmDetection192 = SSDAnchorOptions(
        inputSizeWidth: 192, inputSizeHeight: 192, minScale: 0.1484375, maxScale: 0.75,
        numLayers: 4, strides: [8, 16, 16, 16], aspectRatios: [1.0], fixedAnchorSize: true
    )

    /// The short-range face detector (128×128): 896 anchors.
    public static let faceShortRange128 = SSDAnchorOptions(
        inputSizeWidth: 128, inputSizeHeight: 128, minScale: 0.1484375, maxScale: 0.75,
        numLayers: 4, strides: [8, 16, 16, 16], aspectRatios: [1.0], fixedAnchorSize: true
    )

    /// The full-range face detector (192×192): one stride-4 layer, no interpolated anchor, 2304 anchors.
    public static let faceFullRange192 = SSDAnchorOptions(
        inputSizeWidth: 192, inputSizeHeight: 192, minScale: 0.1484375, maxScale: 0.75,
        numLayers: 1, strides: [4], aspectRatios: [1.0], interpolatedScaleAspectRatio: 0.0,
        fixedAnchorSize: true
    )
}
