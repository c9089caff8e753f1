import Foundation
import PureVision
import PureVisionImage

extension Bench {
    /// `gesture_recognizer_video_per_frame`: the gesture recognizer in video mode over the committed 48-frame hand
    /// sequence, looped (after the first frame tracking skips palm detection; every frame runs the hand landmark
    /// model, the gesture embedder and the canned classifier). Image already decoded, as MediaPipe's figures are.
    func measureGestureRecognizerVideo(threads: Int) throws -> Workload {
        let bundle = (options.modelsDirectory as NSString).appendingPathComponent("gesture_recognizer.task")
        let recognizer = try GestureRecognizer(
            options: GestureRecognizerOptions(
                baseOptions: BaseOptions(modelAssetPath: bundle, threadCount: threads), runningMode: .video))
        let frames = try (0..<48).map { i in
            try PixelImage(contentsOfFile: Self.fixtures + String(format: "/hands/video/frame_%03d.png", i))
        }
        var index = 0
        return {
            _ = try recognizer.recognize(
                videoFrame: frames[index % frames.count], timestampInMilliseconds: 33 * index)
            index += 1
        }
    }
}
