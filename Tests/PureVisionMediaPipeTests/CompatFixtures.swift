import Foundation
import PureVision
import PureVisionTestSupport

/// The photos and models the compatibility tests share (the native tests' fixtures, read in place).
enum CompatFixtures {
    static let handBundle = Fixtures.model("hand_landmarker.task")
    static let classifierModel = Fixtures.model("efficientnet_lite0.tflite")
    static let faceModel = Fixtures.model("face_detection_short_range.tflite")

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
