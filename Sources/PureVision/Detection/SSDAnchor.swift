import PureVisionTFLite

/// One SSD anchor in tensor-normalized coordinates (0…1 across the model input): its centre (`xCenter`,
/// `yCenter`) and size (`width`, `height`). The same value as a `FixedAnchor` of MediaPipe's object-detector
/// metadata, which lists a model's anchors instead of the options that generate them.
///
/// The decoder adds the model's regressed offsets to the centre and scales them by the size; with
/// `fixedAnchorSize` the size is exactly 1 and the offsets are plain fractions of the input.
public typealias SSDAnchor = ObjectDetectorMetadata.FixedAnchor
