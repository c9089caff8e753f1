// Firebase ML Vision's (deprecated) iOS face detection guide, with one change: the import. Only the image loading
// differs from an iOS app (a file here, `VisionImage(image: uiImage)` there). The models are found in `Models/` of
// the current directory: run from the repository root, as Examples/run-all.sh does.
import Dispatch
import Foundation
import PureVisionMLKit  // was: import Firebase

let photos = ["grace_hopper.jpg", "astronaut.png", "opencvdoc_face.jpg"].map {
    "Tests/PureVisionTests/Fixtures/faces/" + $0
}

let vision = Vision.vision()

// High-accuracy landmark detection and face classification
let options = VisionFaceDetectorOptions()
options.performanceMode = .accurate
options.landmarkMode = .all
options.classificationMode = .all
options.contourMode = .all

let faceDetector = vision.faceDetector(options: options)

/// Runs the detector over the photos one after another; the completions run on the main queue.
func detect(_ remaining: ArraySlice<String>, found: Int) {
    guard let path = remaining.first else {
        print(found > 0 ? "FirebaseFaces: OK" : "FirebaseFaces: FAILED, no faces found")
        exit(found > 0 ? 0 : 1)
    }
    let image: VisionImage
    do {
        image = try VisionImage(contentsOfFile: path)
    } catch {
        print("FirebaseFaces: FAILED, \(error)")
        exit(1)
    }
    let metadata = VisionImageMetadata()
    metadata.orientation = .topLeft
    image.metadata = metadata

    faceDetector.process(image) { faces, error in
        guard error == nil, let faces = faces, !faces.isEmpty else {
            print("\((path as NSString).lastPathComponent): no faces \(error.map { "(\($0))" } ?? "")")
            detect(remaining.dropFirst(), found: found)
            return
        }
        print("\((path as NSString).lastPathComponent): \(faces.count) face(s)")
        for face in faces {
            let frame = face.frame
            print(
                String(format: "  frame (%.0f, %.0f, %.0f × %.0f)", frame.minX, frame.minY, frame.width, frame.height))
            if face.hasHeadEulerAngleY {
                print(String(format: "  head rotated to the right %.1f°", face.headEulerAngleY))
            }
            if face.hasHeadEulerAngleZ {
                print(String(format: "  head tilted sideways %.1f°", face.headEulerAngleZ))
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
            // If classification was enabled:
            if face.hasSmilingProbability {
                print(String(format: "  smiling probability %.2f", face.smilingProbability))
            }
            if face.hasRightEyeOpenProbability {
                print(String(format: "  right eye open probability %.2f", face.rightEyeOpenProbability))
            }
        }
        detect(remaining.dropFirst(), found: found + faces.count)
    }
}

detect(photos[...], found: 0)
// The completions run on the main queue, as in Firebase; a command-line program services it with dispatchMain().
dispatchMain()
