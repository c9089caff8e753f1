// ML Kit's iOS object detection and tracking guide, with one change: the import. Only the image loading differs from
// an iOS app (a file here, `VisionImage(image: uiImage)` there). The labels are COCO's (EfficientDet-Lite0), not ML
// Kit's five coarse classes; the model is found in `Models/` of the current directory (see
// ObjectDetectorOptions.modelDirectory): run from the repository root, as Examples/run-all.sh does.
import Dispatch
import Foundation
import PureVisionMLKit  // was: import MLKitObjectDetection; import MLKitVision

let photos = ["fr_obama.png", "skimage_coffee.png", "opencv_basketball1.png"]
    .map { "Tests/PureVisionTests/Fixtures/detector/" + $0 }

func report(_ objects: [Object], in path: String) {
    print("\((path as NSString).lastPathComponent): \(objects.count) object(s)")
    for object in objects {
        let frame = object.frame
        let trackingID = object.trackingID
        // If classification was enabled:
        let description = object.labels.enumerated().map { (index, label) in
            "Label \(index): \(label.text), \(label.confidence), \(label.index)"
        }.joined(separator: "\n    ")
        print(
            String(format: "  frame (%.0f, %.0f, %.0f × %.0f)", frame.minX, frame.minY, frame.width, frame.height)
                + (trackingID.map { ", tracking ID \($0)" } ?? ""))
        print("    " + description)
    }
}

// Multiple object detection in static images
let options = ObjectDetectorOptions()
options.detectorMode = .singleImage
options.shouldEnableMultipleObjects = true
options.shouldEnableClassification = true

let objectDetector = ObjectDetector.objectDetector(options: options)

// Synchronously (ML Kit: not on the main thread of an app).
var found = 0
for path in photos.dropLast() {
    do {
        let image = try VisionImage(contentsOfFile: path)
        image.orientation = .up
        let objects = try objectDetector.results(in: image)
        report(objects, in: path)
        found += objects.count
    } catch let error {
        print("MLKitObjects: FAILED, failed to detect objects with error: \(error.localizedDescription).")
        exit(1)
    }
}

// A stream (the default mode): the same object keeps its tracking ID from frame to frame.
let streamDetector = ObjectDetector.objectDetector(options: ObjectDetectorOptions())
do {
    let frame = try VisionImage(contentsOfFile: photos[0])
    let first = try streamDetector.results(in: frame).map { $0.trackingID }
    let second = try streamDetector.results(in: frame).map { $0.trackingID }
    print(
        "stream: tracking IDs \(first.map { $0.map { "\($0)" } ?? "nil" }) then \(second.map { $0.map { "\($0)" } ?? "nil" })"
    )
    guard !first.isEmpty, first.allSatisfy({ $0 != nil }), first == second else {
        print("MLKitObjects: FAILED, tracking IDs were not kept")
        exit(1)
    }
} catch {
    print("MLKitObjects: FAILED, \(error.localizedDescription)")
    exit(1)
}

// Asynchronously: the completion runs on the main queue, as in ML Kit. A command-line program services the main
// queue with dispatchMain() (an app's run loop does it) and exits from its last completion.
let lastPhoto = photos[photos.count - 1]
let visionImage: VisionImage
do {
    visionImage = try VisionImage(contentsOfFile: lastPhoto)
} catch {
    print("MLKitObjects: FAILED, \(error)")
    exit(1)
}
visionImage.orientation = .up
objectDetector.process(visionImage) { objects, error in
    guard error == nil, let objects = objects, !objects.isEmpty else {
        print("MLKitObjects: FAILED, \(error.map { $0.localizedDescription } ?? "no objects")")
        exit(1)
    }
    report(objects, in: lastPhoto)
    print("MLKitObjects: OK, \(found + objects.count) objects")
    exit(0)
}
dispatchMain()
