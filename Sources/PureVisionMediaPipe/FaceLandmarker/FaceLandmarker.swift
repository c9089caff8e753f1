import Foundation
import PureVision

/// Options of a `FaceLandmarker`: MediaPipe's `FaceLandmarkerOptions` (`MPPFaceLandmarkerOptions`), with its
/// defaults.
public final class FaceLandmarkerOptions: RunningModeTaskOptions {
    /// The most faces reported. Default 1 (landmarks are smoothed over time only with 1, as in MediaPipe).
    public var numFaces: Int = 1
    /// Face detections scoring below this are ignored. Default 0.5.
    public var minFaceDetectionConfidence: Float = 0.5
    /// A face is reported only when its presence score exceeds this. Default 0.5.
    public var minFacePresenceConfidence: Float = 0.5
    /// Video and live stream: the overlap threshold for replacing a tracked face by a new detection. Default 0.5.
    public var minTrackingConfidence: Float = 0.5
    /// Whether results have the 52 blendshape scores per face. Default false.
    public var outputFaceBlendshapes: Bool = false
    /// Whether results have the 4×4 facial transformation matrix per face. Default false.
    public var outputFacialTransformationMatrixes: Bool = false
    /// Receives live-stream results (`.liveStream` mode only); held weakly, as in MediaPipe.
    public weak var faceLandmarkerLiveStreamDelegate: (any FaceLandmarkerLiveStreamDelegate)?
}

/// Receives a live-stream `FaceLandmarker`'s results: MediaPipe's `FaceLandmarkerLiveStreamDelegate`
/// (`MPPFaceLandmarkerLiveStreamDelegate`), without its `NSObjectProtocol` requirement so that it works on Linux.
///
/// Called on the landmarker's own delivery thread, in timestamp order, once per processed frame; a frame dropped
/// because the landmarker was busy is not reported (as in MediaPipe).
public protocol FaceLandmarkerLiveStreamDelegate: AnyObject {
    /// One frame's outcome: a result, or nil and the error.
    func faceLandmarker(
        _ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// A matrix of floats, row-major: MediaPipe's `TransformMatrix` (`MPPTransformMatrix`), the type of
/// `FaceLandmarkerResult.facialTransformationMatrixes`.
///
/// As in MediaPipe, the matrix owns a copy of its values and `data` points at them while the matrix lives.
public final class TransformMatrix: @unchecked Sendable {
    // @unchecked: `data` is written only in init; the class hands out the pointer as MediaPipe does.
    /// The number of rows (4 for a facial transformation matrix).
    public let rows: UInt
    /// The number of columns (4 for a facial transformation matrix).
    public let columns: UInt
    /// The `rows · columns` values, row by row: `data[row * columns + column]`.
    public let data: UnsafeMutablePointer<Float>

    /// MediaPipe's `init(data:rows:columns:)`: copies `rows · columns` values from `data` (negative sizes count as 0).
    public init(data: UnsafePointer<Float>, rows: Int, columns: Int) {
        self.rows = UInt(max(rows, 0))
        self.columns = UInt(max(columns, 0))
        let count = max(rows, 0) * max(columns, 0)
        self.data = UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1))
        self.data.initialize(from: data, count: count)
    }

    /// The same matrix as PureVision's.
    convenience init(_ native: PureVision.TransformMatrix) {
        let count = max(native.rows, 0) * max(native.columns, 0)
        let values = native.data + Array(repeating: 0, count: max(count - native.data.count, 0))
        self.init(data: values, rows: native.rows, columns: native.columns)
    }

    deinit { data.deallocate() }

    /// MediaPipe's `value(atRow:column:)`: the value at (`row`, `column`). Out of range is a programming error and
    /// traps, as MediaPipe raises `NSRangeException`.
    public func value(atRow row: UInt, column: UInt) -> Float {
        precondition(row < rows && column < columns, "(\(row), \(column)) is outside the \(rows)×\(columns) matrix")
        return data[Int(row * columns + column)]
    }
}

/// The faces found in one image or frame: MediaPipe's `FaceLandmarkerResult` (`MPPFaceLandmarkerResult`).
public final class FaceLandmarkerResult: TaskResult, NativeResultConvertible, @unchecked Sendable {
    // @unchecked: as `TaskResult`'s, restated (Swift requires it); every stored property is an immutable value.
    /// Per face, 478 landmarks normalized to the image: 0–467 the face mesh, 468–472 and 473–477 the irises.
    public let faceLandmarks: [[NormalizedLandmark]]
    /// Per face, the 52 blendshape scores in index order (head index 0, head name "", as MediaPipe fills them);
    /// empty unless `outputFaceBlendshapes`.
    public let faceBlendshapes: [Classifications]
    /// Per face, the pose of the canonical face model (4×4, translation in centimetres); empty unless
    /// `outputFacialTransformationMatrixes`. MediaPipe skips a face whose landmarks are too compact to fit.
    public let facialTransformationMatrixes: [TransformMatrix]

    /// Creates a result, as MediaPipe's
    /// `init(faceLandmarks:faceBlendshapes:facialTransformationMatrixes:timestampInMilliseconds:)`.
    public init(
        faceLandmarks: [[NormalizedLandmark]], faceBlendshapes: [Classifications],
        facialTransformationMatrixes: [TransformMatrix], timestampInMilliseconds: Int
    ) {
        self.faceLandmarks = faceLandmarks
        self.faceBlendshapes = faceBlendshapes
        self.facialTransformationMatrixes = facialTransformationMatrixes
        super.init(timestampInMilliseconds: timestampInMilliseconds)
    }

    /// The same faces as PureVision's result.
    convenience init(_ native: PureVision.FaceLandmarkerResult, timestampInMilliseconds: Int) {
        self.init(
            faceLandmarks: native.faceLandmarks.map { $0.map(NormalizedLandmark.init) },
            faceBlendshapes: native.faceBlendshapes.map {
                Classifications(headIndex: 0, headName: "", categories: $0)
            },
            facialTransformationMatrixes: native.facialTransformationMatrixes.map(TransformMatrix.init),
            timestampInMilliseconds: timestampInMilliseconds)
    }
}

/// MediaPipe's `FaceLandmarker` (`MPPFaceLandmarker`) over PureVision's `FaceLandmarker`: face detection, 478
/// landmarks per face, optional blendshapes and transformation matrices, tracking in video and live-stream modes
/// (in `.image` mode face detection runs on every call). Its model is a `face_landmarker.task` bundle.
public final class FaceLandmarker: MediaPipeDetectionTask {
    /// What the task runs on (see `MediaPipeVisionTask`).
    public let core: TaskCore<FaceLandmarker, PureVision.FaceLandmarker, FaceLandmarkerResult>

    /// MediaPipe's `init(options:)`. The options are read once; later changes to them have no effect.
    /// - Throws: `VisionTaskError` for options out of range, a missing or malformed bundle, or a live-stream
    ///   delegate missing in `.liveStream` mode or set in another mode.
    public init(options: FaceLandmarkerOptions) throws {
        core = try TaskCore(
            options: PureVision.FaceLandmarkerOptions(
                baseOptions: options.baseOptions.native, numFaces: options.numFaces,
                minFaceDetectionConfidence: options.minFaceDetectionConfidence,
                minFacePresenceConfidence: options.minFacePresenceConfidence,
                minTrackingConfidence: options.minTrackingConfidence,
                outputFaceBlendshapes: options.outputFaceBlendshapes,
                outputFacialTransformationMatrixes: options.outputFacialTransformationMatrixes),
            runningMode: options.runningMode, delegate: options.faceLandmarkerLiveStreamDelegate
        ) { $0.faceLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) }
        core.attach(self)
    }
}

// MediaPipe declares these as class methods (`+ (NSArray<MPPConnection *> *)lipsConnections`), so Swift calls them
// as `FaceLandmarker.lipsConnections()`. The pairs are PureVision's `FaceLandmarksConnections` (generated from
// MediaPipe 0.10.14), which equal those of MediaPipe's `MPPFaceLandmarksConnections.h`.
extension FaceLandmarker {
    private static let lips = Connection.list(FaceLandmarksConnections.lips)
    private static let leftEye = Connection.list(FaceLandmarksConnections.leftEye)
    private static let leftEyebrow = Connection.list(FaceLandmarksConnections.leftEyebrow)
    private static let leftIris = Connection.list(FaceLandmarksConnections.leftIris)
    private static let rightEye = Connection.list(FaceLandmarksConnections.rightEye)
    private static let rightEyebrow = Connection.list(FaceLandmarksConnections.rightEyebrow)
    private static let rightIris = Connection.list(FaceLandmarksConnections.rightIris)
    private static let faceOval = Connection.list(FaceLandmarksConnections.faceOval)
    private static let contours =
        lips + leftEye + leftEyebrow + leftIris + rightEye + rightEyebrow + rightIris + faceOval
    private static let tesselation = Connection.list(FaceLandmarksConnections.tesselation)
    private static let face = lips + contours + tesselation

    /// MediaPipe's `lipsConnections()`: the outer and inner lip contours (40 connections).
    public static func lipsConnections() -> [Connection] { lips }
    /// MediaPipe's `leftEyeConnections()`: the subject's left eye (16 connections).
    public static func leftEyeConnections() -> [Connection] { leftEye }
    /// MediaPipe's `leftEyebrowConnections()`: the subject's left eyebrow (8 connections).
    public static func leftEyebrowConnections() -> [Connection] { leftEyebrow }
    /// MediaPipe's `leftIrisConnections()`: the ring around the subject's left iris, 474–477 (4 connections).
    public static func leftIrisConnections() -> [Connection] { leftIris }
    /// MediaPipe's `rightEyeConnections()`: the subject's right eye (16 connections).
    public static func rightEyeConnections() -> [Connection] { rightEye }
    /// MediaPipe's `rightEyebrowConnections()`: the subject's right eyebrow (8 connections).
    public static func rightEyebrowConnections() -> [Connection] { rightEyebrow }
    /// MediaPipe's `rightIrisConnections()`: the ring around the subject's right iris, 469–472 (4 connections).
    /// MediaPipe's implementation returns the left iris's ring here by mistake; this returns the right one.
    public static func rightIrisConnections() -> [Connection] { rightIris }
    /// MediaPipe's `faceOvalConnections()`: the outline of the face (36 connections).
    public static func faceOvalConnections() -> [Connection] { faceOval }
    /// MediaPipe's `contoursConnections()`: lips, left eye, eyebrow and iris, right eye, eyebrow and iris, face oval,
    /// in that order (132 connections; unlike MediaPipe Python's contours, the iOS set includes the irises).
    public static func contoursConnections() -> [Connection] { contours }
    /// MediaPipe's `tesselationConnections()`: every triangle of the 468-point mesh as three edges (2556).
    public static func tesselationConnections() -> [Connection] { tesselation }
    /// MediaPipe's `faceConnections()`: lips, contours and tesselation concatenated as MediaPipe does (the lips
    /// appear twice, once on their own and once in the contours; 2728 connections).
    public static func faceConnections() -> [Connection] { face }
}
