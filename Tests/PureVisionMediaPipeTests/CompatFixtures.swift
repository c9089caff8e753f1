import Foundation
import PureVision
import PureVisionMediaPipe
import PureVisionTestSupport

/// The photos and models the compatibility tests share (the native tests' fixtures, read in place).
enum CompatFixtures {
    static let handBundle = Fixtures.model("hand_landmarker.task")
    static let classifierModel = Fixtures.model("efficientnet_lite0.tflite")
    static let faceModel = Fixtures.model("face_detection_short_range.tflite")
    static let poseBundle = Fixtures.model("pose_landmarker_full.task")
    static let faceLandmarkerBundle = Fixtures.model("face_landmarker.task")
    static let gestureBundle = Fixtures.model("gesture_recognizer.task")
    static let objectDetectorModel = Fixtures.model("efficientdet_lite0.tflite")
    static let embedderModel = Fixtures.model("efficientnet_lite0_embedder.tflite")

    static func photo(_ relativePath: String) -> String {
        Fixtures.testFile("PureVisionTests/Fixtures/" + relativePath)
    }

    static let handPhotos = [
        "hands/hand_src.jpg", "hands/hand_dst.jpg", "hands/palm_up.jpg", "hands/composite_src_dst.png",
    ]
    static let videoFrames = (0..<12).map { String(format: "hands/video/frame_%03d.png", $0) }
    static let classifierPhotos = [
        "classifier/skimage_chelsea.png", "classifier/skimage_coffee.png",
        "classifier/opencvdoc_orange.png",
    ]
    static let facePhotos = ["faces/grace_hopper.jpg", "faces/astronaut.png", "faces/composite_two_faces.png"]
    static let posePhotos = ["pose/basketball_scale50.png", "pose/obama_scale50.png", "pose/composite_two.png"]
    static let poseFrames = (0..<6).map { String(format: "pose/video/single_%03d.png", $0) }
    static let faceLandmarkerPhotos = ["faces/grace_hopper_scale50.png", "faces/composite_two_face_crops.png"]
    static let faceLandmarkerFrames = (0..<6).map { String(format: "face_landmarker/video/frame_%03d.png", $0) }
    static let detectorPhotos = [
        "detector/opencv_basketball1.png", "detector/skimage_coffee.png", "detector/fr_obama.png",
    ]
}

/// Whether compatibility landmarks are PureVision's, visibility and presence included (nil where the model has none).
func sameLandmarks(
    _ compat: [[PureVisionMediaPipe.NormalizedLandmark]], _ native: [[PureVision.NormalizedLandmark]]
) -> Bool {
    compat.count == native.count
        && zip(compat, native).allSatisfy { points, nativePoints in
            points.count == nativePoints.count
                && zip(points, nativePoints).allSatisfy { point, expected in
                    point.x == expected.x && point.y == expected.y && point.z == expected.z
                        && point.visibility?.floatValue == expected.visibility
                        && point.presence?.floatValue == expected.presence
                }
        }
}

/// Whether compatibility world landmarks are PureVision's, visibility and presence included.
func sameLandmarks(_ compat: [[PureVisionMediaPipe.Landmark]], _ native: [[PureVision.Landmark]]) -> Bool {
    compat.count == native.count
        && zip(compat, native).allSatisfy { points, nativePoints in
            points.count == nativePoints.count
                && zip(points, nativePoints).allSatisfy { point, expected in
                    point.x == expected.x && point.y == expected.y && point.z == expected.z
                        && point.visibility?.floatValue == expected.visibility
                        && point.presence?.floatValue == expected.presence
                }
        }
}

/// The values of a compatibility mask, as floats.
func floats(of mask: PureVisionMediaPipe.Mask) -> [Float] {
    Array(UnsafeBufferPointer(start: mask.float32Data, count: mask.width * mask.height))
}

/// Waits (polling, bounded) until `condition` holds; false when it never did within `seconds`.
func waitUntil(seconds: Double = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        Thread.sleep(forTimeInterval: 0.002)
    }
    return true
}
