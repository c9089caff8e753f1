/// Options for decoding raw SSD outputs into detections: the fields of MediaPipe's
/// `TensorsToDetectionsCalculatorOptions` used by the anchor-decoding CPU path.
///
/// Raw boxes are `numBoxes × numCoords` floats, row-major: the box at `boxCoordOffset` (4 values,
/// `[yc, xc, h, w]`, or `[xc, yc, w, h]` with `reverseOutputOrder`), keypoints from `keypointCoordOffset`
/// (`numKeypoints` pairs, `[y, x]`, or `[x, y]` with `reverseOutputOrder`). Raw scores are
/// `numBoxes × numClasses` floats.
public struct DetectionDecoderOptions: Sendable, Hashable {
    /// Score columns per box.
    public var numClasses: Int
    /// Boxes (and anchors) per inference.
    public var numBoxes: Int
    /// Floats per box row; must equal `4 + numKeypoints · numValuesPerKeypoint`.
    public var numCoords: Int
    /// Column of the first box coordinate.
    public var boxCoordOffset: Int
    /// Column of the first keypoint coordinate.
    public var keypointCoordOffset: Int
    /// Keypoints per box.
    public var numKeypoints: Int
    /// Values per keypoint; MediaPipe supports only 2.
    public var numValuesPerKeypoint: Int
    /// Divisor of the raw x centre and keypoint x (usually the input width).
    public var xScale: Float
    /// Divisor of the raw y centre and keypoint y (usually the input height).
    public var yScale: Float
    /// Divisor of the raw width.
    public var wScale: Float
    /// Divisor of the raw height.
    public var hScale: Float
    /// Size = exp(raw / scale) · anchor size instead of raw / scale · anchor size.
    public var applyExponentialOnBoxSize: Bool
    /// Raw layout XYWH (x first) instead of YXHW.
    public var reverseOutputOrder: Bool
    /// Apply a sigmoid to the raw scores.
    public var sigmoidScore: Bool
    /// Clip raw scores to `±scoreClippingThresh` before the sigmoid; `nil` for no clipping.
    public var scoreClippingThresh: Float?
    /// Drop detections whose score is below this (a score equal to it is kept); `nil` keeps all.
    public var minScoreThresh: Float?
    /// Mirror y (`y' = 1 − y`) for boxes and keypoints.
    public var flipVertically: Bool
    /// Stop after this many detections (in box order); −1 for no limit.
    public var maxResults: Int
    /// When not empty, only these classes compete for a box's score (MediaPipe's `allow_classes`).
    public var allowedClasses: Set<Int> = []
    /// Classes that never compete for a box's score (MediaPipe's `ignore_classes`); unused when `allowedClasses`
    /// is not empty.
    public var ignoredClasses: Set<Int> = []

    /// Creates options; defaults are the proto defaults where it has them.
    public init(
        numClasses: Int, numBoxes: Int, numCoords: Int,
        boxCoordOffset: Int = 0, keypointCoordOffset: Int = 0,
        numKeypoints: Int = 0, numValuesPerKeypoint: Int = 2,
        xScale: Float = 0, yScale: Float = 0, wScale: Float = 0, hScale: Float = 0,
        applyExponentialOnBoxSize: Bool = false, reverseOutputOrder: Bool = false,
        sigmoidScore: Bool = false, scoreClippingThresh: Float? = nil,
        minScoreThresh: Float? = nil, flipVertically: Bool = false, maxResults: Int = -1
    ) {
        self.numClasses = numClasses
        self.numBoxes = numBoxes
        self.numCoords = numCoords
        self.boxCoordOffset = boxCoordOffset
        self.keypointCoordOffset = keypointCoordOffset
        self.numKeypoints = numKeypoints
        self.numValuesPerKeypoint = numValuesPerKeypoint
        self.xScale = xScale
        self.yScale = yScale
        self.wScale = wScale
        self.hScale = hScale
        self.applyExponentialOnBoxSize = applyExponentialOnBoxSize
        self.reverseOutputOrder = reverseOutputOrder
        self.sigmoidScore = sigmoidScore
        self.scoreClippingThresh = scoreClippingThresh
        self.minScoreThresh = minScoreThresh
        self.flipVertically = flipVertically
        self.maxResults = maxResults
    }

    /// MediaPipe's single-class SSD face/palm layout: XYWH box, keypoints from column 4, sigmoid of the
    /// logit clipped to ±100, all four scales equal to the input size.
    private static func ssd(
        boxes: Int, keypoints: Int, inputSize: Float, minScore: Float
    ) -> DetectionDecoderOptions {
        DetectionDecoderOptions(
            numClasses: 1, numBoxes: boxes, numCoords: 4 + 2 * keypoints,
            boxCoordOffset: 0, keypointCoordOffset: 4, numKeypoints: keypoints, numValuesPerKeypoint: 2,
            xScale: inputSize, yScale: inputSize, wScale: inputSize, hScale: inputSize,
            reverseOutputOrder: true, sigmoidScore: true, scoreClippingThresh: 100,
            minScoreThresh: minScore
        )
    }

    /// The palm detector (192×192): 2016 boxes, 7 keypoints, minimum score 0.5 (the Tasks default
    /// `min_hand_detection_confidence`).
    public static let palmDetection192 = ssd(boxes: 2016, keypoints: 7, inputSize: 192, minScore: 0.5)

    /// The short-range face detector (128×128): 896 boxes, 6 keypoints, minimum score 0.5.
    public static let faceShortRange128 = ssd(boxes: 896, keypoints: 6, inputSize: 128, minScore: 0.5)

    /// The full-range face detector (192×192): 2304 boxes, 6 keypoints, minimum score 0.5.
    public static let faceFullRange192 = ssd(boxes: 2304, keypoints: 6, inputSize: 192, minScore: 0.5)
}
