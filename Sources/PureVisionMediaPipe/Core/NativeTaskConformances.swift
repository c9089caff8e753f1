import PureVision

// The native tasks and their options, as `TaskCore` creates them (`NativeVisionTask`, `NativeTaskOptions`); each
// MediaPipe result class declares its own `NativeResultConvertible` conformance.

extension PureVision.FaceDetector: NativeVisionTask {}
extension PureVision.FaceLandmarker: NativeVisionTask {}
extension PureVision.GestureRecognizer: NativeVisionTask {}
extension PureVision.HandLandmarker: NativeVisionTask {}
extension PureVision.ImageClassifier: NativeVisionTask {}
extension PureVision.ImageEmbedder: NativeVisionTask {}
extension PureVision.ImageSegmenter: NativeVisionTask {}
extension PureVision.ObjectDetector: NativeVisionTask {}
extension PureVision.PoseLandmarker: NativeVisionTask {}

extension PureVision.FaceDetectorOptions: NativeTaskOptions {}
extension PureVision.FaceLandmarkerOptions: NativeTaskOptions {}
extension PureVision.GestureRecognizerOptions: NativeTaskOptions {}
extension PureVision.HandLandmarkerOptions: NativeTaskOptions {}
extension PureVision.ImageClassifierOptions: NativeTaskOptions {}
extension PureVision.ImageEmbedderOptions: NativeTaskOptions {}
extension PureVision.ImageSegmenterOptions: NativeTaskOptions {}
extension PureVision.ObjectDetectorOptions: NativeTaskOptions {}
extension PureVision.PoseLandmarkerOptions: NativeTaskOptions {}
