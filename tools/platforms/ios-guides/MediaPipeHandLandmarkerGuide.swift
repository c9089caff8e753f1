// The iOS-only parts of MediaPipe's hand landmarker guide for iOS, type-checked for arm64-apple-ios18.0 by
// tools/platforms/ios.sh (never built for Linux): a UIImage in image mode, camera frames (CMSampleBuffer) in live
// stream mode with the result delegate. Only the import differs from the guide.
import AVFoundation
import Foundation
import PureVisionMediaPipe  // was: import MediaPipeTasksVision
import UIKit

final class HandLandmarkerService: NSObject, HandLandmarkerLiveStreamDelegate {
    private var handLandmarker: HandLandmarker?

    func makeImageLandmarker() throws {
        // As the guide writes it: a `String?` assigned to `modelAssetPath`.
        let modelPath = Bundle.main.path(forResource: "hand_landmarker", ofType: "task")
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image
        options.minHandDetectionConfidence = 0.5
        options.minHandPresenceConfidence = 0.5
        options.minTrackingConfidence = 0.5
        options.numHands = 2
        handLandmarker = try HandLandmarker(options: options)
    }

    func detect(in uiImage: UIImage) throws -> HandLandmarkerResult? {
        let image = try MPImage(uiImage: uiImage)
        return try handLandmarker?.detect(image: image)
    }

    func makeLiveStreamLandmarker() throws {
        guard let modelPath = Bundle.main.path(forResource: "hand_landmarker", ofType: "task") else { return }
        let options = HandLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .liveStream
        options.handLandmarkerLiveStreamDelegate = self
        handLandmarker = try HandLandmarker(options: options)
    }

    /// From `AVCaptureVideoDataOutputSampleBufferDelegate.captureOutput(_:didOutput:from:)`.
    func detectAsync(sampleBuffer: CMSampleBuffer, orientation: UIImage.Orientation) throws {
        let image = try MPImage(sampleBuffer: sampleBuffer, orientation: orientation)
        let timestamp = Int(CMSampleBufferGetPresentationTimeStamp(sampleBuffer).seconds * 1000)
        try handLandmarker?.detectAsync(image: image, timestampInMilliseconds: timestamp)
    }

    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        guard let result else { return }
        for (hand, landmarks) in result.landmarks.enumerated() {
            let tip = landmarks[8]
            let side = result.handedness[hand].first?.categoryName ?? ""
            print("hand \(hand): index tip at (\(tip.x), \(tip.y)), \(side)")
        }
    }
}
