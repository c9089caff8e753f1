// ML Kit's iOS pose detection guide, with one change: the import. Only the image loading differs from an iOS app
// (a file here, `VisionImage(image: uiImage)` there). The model is found in `Models/` of the current directory (see
// PoseDetectorOptions.modelDirectory): run from the repository root, as Examples/run-all.sh does.
import Dispatch
import Foundation
import PureVisionMLKit  // was: import MLKitPoseDetection (or MLKitPoseDetectionAccurate); import MLKitVision

let photos = ["basketball_scale50.png", "obama_scale50.png", "composite_two.png"]
    .map { "Tests/PureVisionTests/Fixtures/pose/" + $0 }

func report(_ poses: [Pose], in path: String) {
    print("\((path as NSString).lastPathComponent): \(poses.count) pose(s)")
    for pose in poses {
        // Each pose has all 33 landmarks, each with its in-frame likelihood.
        let leftAnkleLandmark = pose.landmark(ofType: .leftAnkle)
        if leftAnkleLandmark.inFrameLikelihood > 0.5 {
            let position = leftAnkleLandmark.position
            print(String(format: "  left ankle at (%.1f, %.1f), depth %.1f", position.x, position.y, position.z))
        }
        let nose = pose.landmark(ofType: .nose)
        print(
            String(
                format: "  nose at (%.1f, %.1f), in-frame likelihood %.2f", nose.position.x, nose.position.y,
                nose.inFrameLikelihood))
        print(
            "  \(pose.landmarks.filter { $0.inFrameLikelihood > 0.5 }.count) of \(pose.landmarks.count) landmarks in frame"
        )
    }
}

// Base pose detector on static images (a stream of camera frames keeps the default, .stream).
let options = PoseDetectorOptions()
options.detectorMode = .singleImage

let poseDetector = PoseDetector.poseDetector(options: options)

// Synchronously (ML Kit: not on the main thread of an app).
var found = 0
for path in photos.dropLast() {
    let image: VisionImage
    do {
        image = try VisionImage(contentsOfFile: path)
    } catch {
        print("MLKitPose: FAILED, \(error)")
        exit(1)
    }
    image.orientation = .up
    var results: [Pose]?
    do {
        results = try poseDetector.results(in: image)
    } catch let error {
        print("MLKitPose: FAILED, failed to detect pose with error: \(error.localizedDescription).")
        exit(1)
    }
    guard let detectedPoses = results, !detectedPoses.isEmpty else {
        print("MLKitPose: FAILED, pose detector returned no results.")
        exit(1)
    }
    report(detectedPoses, in: path)
    found += detectedPoses.count
}

// Asynchronously: the completion runs on the main queue, as in ML Kit. A command-line program services the main
// queue with dispatchMain() (an app's run loop does it) and exits from its last completion.
let lastPhoto = photos[photos.count - 1]
let visionImage: VisionImage
do {
    visionImage = try VisionImage(contentsOfFile: lastPhoto)
} catch {
    print("MLKitPose: FAILED, \(error)")
    exit(1)
}
visionImage.orientation = .up
poseDetector.process(visionImage) { detectedPoses, error in
    guard error == nil else {
        print("MLKitPose: FAILED, \(error.map { $0.localizedDescription } ?? "")")
        exit(1)
    }
    guard let detectedPoses = detectedPoses, !detectedPoses.isEmpty else {
        print("MLKitPose: FAILED, no pose")
        exit(1)
    }
    report(detectedPoses, in: lastPhoto)
    print("MLKitPose: OK, \(found + detectedPoses.count) poses")
    exit(0)
}
dispatchMain()
