// ML Kit's iOS image labeling guide, with one change: the import. Only the image loading differs from an iOS app
// (a file here, `VisionImage(image: uiImage)` there). The labels are ImageNet's (EfficientNet-Lite0), not ML Kit's
// base model's; the model is found in `Models/` of the current directory (see ImageLabelerOptions.modelDirectory):
// run from the repository root, as Examples/run-all.sh does.
import Dispatch
import Foundation
import PureVisionMLKit  // was: import MLKitImageLabeling; import MLKitVision

let photos = ["skimage_chelsea.png", "skimage_coffee.png", "opencvdoc_orange.png"]
    .map { "Tests/PureVisionTests/Fixtures/classifier/" + $0 }

func report(_ labels: [ImageLabel], in path: String) {
    print("\((path as NSString).lastPathComponent): \(labels.count) label(s)")
    for label in labels {
        let labelText = label.text
        let confidence = label.confidence
        let index = label.index
        print(String(format: "  %@ %.2f (index %d)", labelText, confidence, index))
    }
}

// On-device labeling with a threshold.
let options = ImageLabelerOptions()
options.confidenceThreshold = 0.3
let labeler = ImageLabeler.imageLabeler(options: options)

// Synchronously (ML Kit: not on the main thread of an app).
var labelled = 0
for path in photos.dropLast() {
    do {
        let image = try VisionImage(contentsOfFile: path)
        image.orientation = .up
        let labels = try labeler.results(in: image)
        report(labels, in: path)
        labelled += labels.isEmpty ? 0 : 1
    } catch {
        print("MLKitImageLabeling: FAILED, \(error.localizedDescription)")
        exit(1)
    }
}

// Your own classifier: ML Kit's custom-model labeler, here the same bundled model with the top 3 labels.
let localModel = LocalModel(path: "Models/efficientnet_lite0.tflite")  // an app: Bundle.main.path(forResource:ofType:)
let customOptions = CustomImageLabelerOptions(localModel: localModel)
customOptions.confidenceThreshold = 0
customOptions.maxResultCount = 3
do {
    let image = try VisionImage(contentsOfFile: photos[0])
    let labels = try ImageLabeler.imageLabeler(options: customOptions).results(in: image)
    print("custom model, top 3:")
    report(labels, in: photos[0])
    guard labels.count == 3 else {
        print("MLKitImageLabeling: FAILED, expected 3 labels")
        exit(1)
    }
} catch {
    print("MLKitImageLabeling: FAILED, \(error.localizedDescription)")
    exit(1)
}

// Asynchronously: the completion runs on the main queue, as in ML Kit. A command-line program services the main
// queue with dispatchMain() (an app's run loop does it) and exits from its last completion.
let lastPhoto = photos[photos.count - 1]
let visionImage: VisionImage
do {
    visionImage = try VisionImage(contentsOfFile: lastPhoto)
} catch {
    print("MLKitImageLabeling: FAILED, \(error)")
    exit(1)
}
visionImage.orientation = .up
labeler.process(visionImage) { labels, error in
    guard error == nil, let labels = labels else {
        print("MLKitImageLabeling: FAILED, \(error.map { $0.localizedDescription } ?? "no labels")")
        exit(1)
    }
    report(labels, in: lastPhoto)
    guard labelled + (labels.isEmpty ? 0 : 1) == photos.count else {
        print("MLKitImageLabeling: FAILED, a photo got no label")
        exit(1)
    }
    print("MLKitImageLabeling: OK")
    exit(0)
}
dispatchMain()
