// ML Kit's iOS face detection guide, with one change: the import. Only the image loading differs from an iOS app
// (a file here, `VisionImage(image: uiImage)` there). The models are found in `Models/` of the current directory
// (see FaceDetectorOptions.modelDirectory): run from the repository root, as Examples/run-all.sh does.
import Dispatch
import Foundation
import PureVisionMLKit  // was: import MLKitFaceDetection; import MLKitVision

let photos = ["grace_hopper.jpg", "astronaut.png", "composite_two_faces.png"]
    .map { "Tests/PureVisionTests/Fixtures/faces/" + $0 }

func report(_ faces: [Face], in path: String) {
    print("\((path as NSString).lastPathComponent): \(faces.count) face(s)")
    for face in faces {
        let frame = face.frame
        print(String(format: "  frame (%.0f, %.0f, %.0f × %.0f)", frame.minX, frame.minY, frame.width, frame.height))
        if face.hasHeadEulerAngleX && face.hasHeadEulerAngleY && face.hasHeadEulerAngleZ {
            print(
                String(
                    format: "  head rotated X %.1f°, Y %.1f°, Z %.1f°", face.headEulerAngleX, face.headEulerAngleY,
                    face.headEulerAngleZ))
        }
        // If landmark detection was enabled (mouth, ears, eyes, cheeks, and nose available):
        if let leftEye = face.landmark(ofType: .leftEye) {
            let leftEyePosition = leftEye.position
            print(String(format: "  left eye at (%.1f, %.1f)", leftEyePosition.x, leftEyePosition.y))
        }
        // If contour detection was enabled:
        if let leftEyeContour = face.contour(ofType: .leftEye) {
            print("  left eye contour: \(leftEyeContour.points.count) points")
        }
        if let upperLipBottomContour = face.contour(ofType: .upperLipBottom) {
            print("  upper lip bottom contour: \(upperLipBottomContour.points.count) points")
        }
        // If classification was enabled:
        if face.hasSmilingProbability {
            print(String(format: "  smiling probability %.2f", face.smilingProbability))
        }
        if face.hasRightEyeOpenProbability {
            print(String(format: "  right eye open probability %.2f", face.rightEyeOpenProbability))
        }
        // If face tracking was enabled:
        if face.hasTrackingID {
            print("  tracking ID \(face.trackingID)")
        }
    }
}

// High-accuracy landmark detection and face classification
let options = FaceDetectorOptions()
options.performanceMode = .accurate
options.landmarkMode = .all
options.contourMode = .all
options.classificationMode = .all
options.isTrackingEnabled = true

let faceDetector = FaceDetector.faceDetector(options: options)

// Synchronously (ML Kit: not on the main thread of an app).
var found = 0
for path in photos.dropLast() {
    do {
        let image = try VisionImage(contentsOfFile: path)
        image.orientation = .up
        let faces = try faceDetector.results(in: image)
        report(faces, in: path)
        found += faces.count
    } catch {
        print("MLKitFaces: FAILED, \(error)")
        exit(1)
    }
}
guard found > 0 else {
    print("MLKitFaces: FAILED, no faces found")
    exit(1)
}

// Asynchronously: the completion runs on the main queue, as in ML Kit. A command-line program services the main
// queue with dispatchMain() (an app's run loop does it) and exits from its last completion.
let lastPhoto = photos[photos.count - 1]
let visionImage: VisionImage
do {
    visionImage = try VisionImage(contentsOfFile: lastPhoto)
} catch {
    print("MLKitFaces: FAILED, \(error)")
    exit(1)
}
visionImage.orientation = .up
faceDetector.process(visionImage) { faces, error in
    guard error == nil, let faces = faces, !faces.isEmpty else {
        print("MLKitFaces: FAILED, \(error.map { "\($0)" } ?? "no faces")")
        exit(1)
    }
    report(faces, in: lastPhoto)
    print("MLKitFaces: OK")
    exit(0)
}
dispatchMain()
