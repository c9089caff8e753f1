// The iOS-only parts of ML Kit's pose detection guide for iOS ("Detect poses with ML Kit on iOS"), type-checked for
// arm64-apple-ios18.0 by tools/platforms/ios.sh (never built for Linux): the base and accurate detector options,
// VisionImage from a UIImage and from a camera CMSampleBuffer with the guide's orientation helper, both ways of
// running the detector, and reading the landmarks. Only the import differs.
import AVFoundation
import PureVisionMLKit  // was: import MLKit (pods GoogleMLKit/PoseDetection, GoogleMLKit/PoseDetectionAccurate)
import UIKit

// 2. Prepare the input image: the orientation helper for camera frames.
func imageOrientation(deviceOrientation: UIDeviceOrientation, cameraPosition: AVCaptureDevice.Position)
    -> UIImage.Orientation
{
    switch deviceOrientation {
    case .portrait: return cameraPosition == .front ? .leftMirrored : .right
    case .landscapeLeft: return cameraPosition == .front ? .downMirrored : .up
    case .portraitUpsideDown: return cameraPosition == .front ? .rightMirrored : .left
    case .landscapeRight: return cameraPosition == .front ? .upMirrored : .down
    case .faceDown, .faceUp, .unknown: return .up
    @unknown default: return .up
    }
}

final class PoseService {
    // 1. Create an instance of PoseDetector: "Base pose detector with streaming, when depending on the PoseDetection
    // SDK".
    func makeBaseDetector() -> PoseDetector {
        let options = PoseDetectorOptions()
        options.detectorMode = .stream
        let poseDetector = PoseDetector.poseDetector(options: options)
        return poseDetector
    }

    // 1. Create an instance of PoseDetector: "Accurate pose detector on static images, when depending on the
    // PoseDetectionAccurate SDK".
    func makeAccurateDetector() -> PoseDetector {
        let options = AccuratePoseDetectorOptions()
        options.detectorMode = .singleImage
        let poseDetector = PoseDetector.poseDetector(options: options)
        return poseDetector
    }

    // 2. Prepare the input image (UIImage), then 3. Process the image: the asynchronous process(_:completion:).
    func detect(in uiImage: UIImage, poseDetector: PoseDetector) {
        let image = VisionImage(image: uiImage)
        image.orientation = uiImage.imageOrientation
        poseDetector.process(image) { detectedPoses, error in
            guard error == nil else {
                // Error.
                return
            }
            // GUIDE BUG: `guard !detectedPoses.isEmpty else {` — `detectedPoses` is `[Pose]?` (as in ML Kit's own
            // PoseDetectionCallback), so the guide's line cannot compile against ML Kit either; unwrapped here.
            guard let detectedPoses = detectedPoses, !detectedPoses.isEmpty else {
                // No pose detected.
                return
            }

            // Success. Get pose landmarks here.
            self.readLandmarks(of: detectedPoses)
        }
    }

    // 2. Prepare the input image (CMSampleBuffer), then 3. Process the image: the synchronous results(in:).
    func detect(sampleBuffer: CMSampleBuffer, cameraPosition: AVCaptureDevice.Position, poseDetector: PoseDetector) {
        let image = VisionImage(buffer: sampleBuffer)
        image.orientation = imageOrientation(
            deviceOrientation: UIDevice.current.orientation,
            cameraPosition: cameraPosition)

        let results: [Pose]
        do {
            results = try poseDetector.results(in: image)
        } catch let error {
            print("Failed to detect pose with error: \(error.localizedDescription).")
            return
        }
        // GUIDE BUG: `guard let detectedPoses = results, !detectedPoses.isEmpty else {` — `results` is `[Pose]`, not
        // optional ("initializer for conditional binding must have Optional type"), against ML Kit too.
        let detectedPoses = results
        guard !detectedPoses.isEmpty else {
            print("Pose detector returned no results.")
            return
        }

        // Success. Get pose landmarks here.
        readLandmarks(of: detectedPoses)
    }

    // 4. Get information about the detected pose.
    func readLandmarks(of detectedPoses: [Pose]) {
        for pose in detectedPoses {
            let leftAnkleLandmark = pose.landmark(ofType: .leftAnkle)
            if leftAnkleLandmark.inFrameLikelihood > 0.5 {
                let position = leftAnkleLandmark.position
                print(position.x, position.y, position.z)
            }
        }
    }

    // Beyond the guide's snippets, the rest of the Pose / PoseLandmark API its reference lists: every landmark, and
    // one landmark by type (here the left elbow).
    func readAllLandmarks(of pose: Pose) {
        for landmark in pose.landmarks where landmark.inFrameLikelihood > 0.5 {
            print(landmark.type, landmark.position.x, landmark.position.y, landmark.position.z)
        }
        let leftElbow = pose.landmark(ofType: .leftElbow)
        print(leftElbow.inFrameLikelihood, leftElbow.position.x, leftElbow.position.y)
    }
}
