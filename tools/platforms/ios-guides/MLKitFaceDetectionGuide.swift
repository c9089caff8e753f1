// The iOS-only parts of ML Kit's face detection guide for iOS, type-checked for arm64-apple-ios18.0 by
// tools/platforms/ios.sh (never built for Linux): VisionImage from a UIImage and from a camera CMSampleBuffer with
// the orientation helper the guide gives, and both ways of running the detector. Only the import differs.
import AVFoundation
import PureVisionMLKit  // was: import MLKitFaceDetection; import MLKitVision
import UIKit

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

final class FaceService {
    let faceDetector: FaceDetector = {
        let options = FaceDetectorOptions()
        options.performanceMode = .fast
        options.landmarkMode = .all
        options.classificationMode = .all
        options.isTrackingEnabled = true
        return FaceDetector.faceDetector(options: options)
    }()

    func detect(in uiImage: UIImage) {
        let image = VisionImage(image: uiImage)
        image.orientation = uiImage.imageOrientation
        faceDetector.process(image) { faces, error in
            guard error == nil, let faces = faces, !faces.isEmpty else { return }
            for face in faces {
                let frame = face.frame
                if face.hasSmilingProbability { print(frame, face.smilingProbability) }
            }
        }
    }

    func detect(sampleBuffer: CMSampleBuffer, cameraPosition: AVCaptureDevice.Position) {
        let image = VisionImage(buffer: sampleBuffer)
        image.orientation = imageOrientation(
            deviceOrientation: UIDevice.current.orientation, cameraPosition: cameraPosition)
        let faces: [Face]
        do {
            faces = try faceDetector.results(in: image)
        } catch let error {
            print("Failed to detect faces with error: \(error.localizedDescription).")
            return
        }
        for face in faces {
            if let leftEye = face.landmark(ofType: .leftEye) { print(leftEye.position.x, leftEye.position.y) }
        }
    }
}
