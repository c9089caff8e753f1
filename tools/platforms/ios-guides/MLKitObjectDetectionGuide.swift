// The iOS-only parts of ML Kit's object detection guide for iOS ("Detect and track objects with ML Kit on iOS", base
// model), type-checked for arm64-apple-ios18.0 by tools/platforms/ios.sh (never built for Linux): the detector
// options for live tracking and for static images, VisionImage from a UIImage and from a camera CMSampleBuffer, both
// ways of running the detector, and reading the objects and their labels. Only the import differs.
import AVFoundation
import PureVisionMLKit  // was: import MLKit (pod GoogleMLKit/ObjectDetection)
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

final class ObjectService {
    // 1. Configure the object detector: "Live detection and tracking".
    func liveTrackingOptions() -> ObjectDetectorOptions {
        let options = ObjectDetectorOptions()
        options.shouldEnableClassification = true
        return options
    }

    // 1. Configure the object detector: "Multiple object detection in static images".
    func staticImageOptions() -> ObjectDetectorOptions {
        let options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true
        return options
    }

    // 2. Get an instance of ObjectDetector (the default settings).
    func makeDefaultDetector() -> ObjectDetector {
        let objectDetector = ObjectDetector.objectDetector()
        return objectDetector
    }

    // 2. Get an instance of ObjectDetector: "Or, to change the default settings".
    func makeDetector(options: ObjectDetectorOptions) -> ObjectDetector {
        let objectDetector = ObjectDetector.objectDetector(options: options)
        return objectDetector
    }

    // 2. Prepare the input image (UIImage), then 3. Process the image: the asynchronous process(_:completion:).
    func detect(in uiImage: UIImage, objectDetector: ObjectDetector) {
        let image = VisionImage(image: uiImage)
        image.orientation = uiImage.imageOrientation
        objectDetector.process(image) { objects, error in
            guard error == nil else {
                // Error.
                return
            }
            // GUIDE BUG: `guard !objects.isEmpty else {` — `objects` is `[Object]?` (as in ML Kit's own
            // ObjectDetectionCallback), so the guide's line cannot compile against ML Kit either; unwrapped here.
            guard let objects = objects, !objects.isEmpty else {
                // No objects detected.
                return
            }

            // Success. Get object info here.
            self.read(objects)
        }
    }

    // 2. Prepare the input image (CMSampleBuffer), then 3. Process the image: the synchronous results(in:).
    func detect(
        sampleBuffer: CMSampleBuffer, cameraPosition: AVCaptureDevice.Position, objectDetector: ObjectDetector
    ) {
        let image = VisionImage(buffer: sampleBuffer)
        image.orientation = imageOrientation(
            deviceOrientation: UIDevice.current.orientation,
            cameraPosition: cameraPosition)

        let objects: [Object]
        do {
            objects = try objectDetector.results(in: image)
        } catch let error {
            print("Failed to detect object with error: \(error.localizedDescription).")
            return
        }
        guard !objects.isEmpty else {
            print("Object detector returned no results.")
            return
        }

        // Success. Get object info here.
        read(objects)
    }

    // 4. Get information about detected objects.
    func read(_ objects: [Object]) {
        // objects contains one item if multiple object detection wasn't enabled.
        for object in objects {
            let frame = object.frame
            let trackingID = object.trackingID

            // If classification was enabled:
            let description = object.labels.enumerated().map { (index, label) in
                "Label \(index): \(label.text), \(label.confidence), \(label.index)"
            }.joined(separator: "\n")

            print(frame, trackingID?.intValue ?? -1, description)
        }
    }
}
