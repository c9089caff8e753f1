// The iOS-only parts of ML Kit's image labeling guide for iOS ("Label images with ML Kit on iOS", base model),
// type-checked for arm64-apple-ios18.0 by tools/platforms/ios.sh (never built for Linux): the labeler options,
// VisionImage from a UIImage and from a camera CMSampleBuffer, both ways of running the labeler, and reading the
// labels. Only the import differs.
import AVFoundation
import PureVisionMLKit  // was: import MLKit (pod GoogleMLKit/ImageLabeling)
import UIKit

// 1. Prepare the input image: the orientation helper for camera frames.
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

final class LabelingService {
    // 2. Configure and run the image labeler: get an instance of ImageLabeler with a minimum confidence.
    let labeler: ImageLabeler = {
        let options = ImageLabelerOptions()
        options.confidenceThreshold = 0.7
        let labeler = ImageLabeler.imageLabeler(options: options)
        return labeler
    }()

    // 1. Prepare the input image (UIImage), then 2. pass it to process(_:completion:).
    func label(_ uiImage: UIImage) {
        let image = VisionImage(image: uiImage)
        image.orientation = uiImage.imageOrientation
        labeler.process(image) { labels, error in
            guard error == nil, let labels = labels else { return }

            // Task succeeded.
            self.read(labels)
        }
    }

    // 1. Prepare the input image (CMSampleBuffer); the synchronous results(in:), written as the face and pose guides
    // write their synchronous call.
    func label(sampleBuffer: CMSampleBuffer, cameraPosition: AVCaptureDevice.Position) {
        let image = VisionImage(buffer: sampleBuffer)
        image.orientation = imageOrientation(
            deviceOrientation: UIDevice.current.orientation,
            cameraPosition: cameraPosition)

        let labels: [ImageLabel]
        do {
            labels = try labeler.results(in: image)
        } catch let error {
            print("Failed to label image with error: \(error.localizedDescription).")
            return
        }
        read(labels)
    }

    // 3. Get information about labeled objects.
    func read(_ labels: [ImageLabel]) {
        for label in labels {
            let labelText = label.text
            let confidence = label.confidence
            let index = label.index
            print(labelText, confidence, index)
        }
    }
}
