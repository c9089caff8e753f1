// The tasks' options and results, as the running-mode machine (`TaskRunner`, `VisionFrame.swift`) sees them.

extension FaceAnalyzerOptions: VisionTaskOptions {}
extension FaceDetectorOptions: VisionTaskOptions {}
extension FaceLandmarkerOptions: VisionTaskOptions {}
extension GestureRecognizerOptions: VisionTaskOptions {}
extension HandLandmarkerOptions: VisionTaskOptions {}
extension ImageClassifierOptions: VisionTaskOptions {}
extension ImageEmbedderOptions: VisionTaskOptions {}
extension ImageSegmenterOptions: VisionTaskOptions {}
extension ObjectDetectorOptions: VisionTaskOptions {}
extension PoseLandmarkerOptions: VisionTaskOptions {}

extension ImageClassifierResult: TimestampedTaskResult {}
extension ImageEmbedderResult: TimestampedTaskResult {}
extension ImageSegmenterResult: TimestampedTaskResult {}
extension ObjectDetectorResult: TimestampedTaskResult {}
