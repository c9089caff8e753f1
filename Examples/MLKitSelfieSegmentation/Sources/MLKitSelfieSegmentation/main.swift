// ML Kit's iOS selfie segmentation guide, with one change: the import. Only the image loading differs from an iOS app
// (a file here, `VisionImage(image: uiImage)` there); the mask is read with the guide's CoreVideo calls, which
// PureVisionMLKit provides where CoreVideo does not exist. The model is found in `Models/` of the current directory
// (see SelfieSegmenterOptions.modelDirectory): run from the repository root, as Examples/run-all.sh does.
import Dispatch
import Foundation
import PureVisionMLKit  // was: import MLKitSegmentationSelfie; import MLKitVision

let photos = ["fr_obama.png", "skimage_astronaut.png"].map { "Tests/PureVisionTests/Fixtures/segmenter/" + $0 }

/// The share of the mask's pixels that are more likely the person than the background, read as the guide does.
func foregroundShare(of mask: SegmentationMask) -> Double {
    let maskWidth = CVPixelBufferGetWidth(mask.buffer)
    let maskHeight = CVPixelBufferGetHeight(mask.buffer)

    CVPixelBufferLockBaseAddress(mask.buffer, CVPixelBufferLockFlags.readOnly)
    let maskBytesPerRow = CVPixelBufferGetBytesPerRow(mask.buffer)
    var maskAddress =
        CVPixelBufferGetBaseAddress(mask.buffer)!.bindMemory(
            to: Float32.self, capacity: maskBytesPerRow * maskHeight)

    var foreground = 0
    for _ in 0...(maskHeight - 1) {
        for col in 0...(maskWidth - 1) {
            // Gets the confidence of the pixel in the mask being in the foreground.
            let foregroundConfidence: Float32 = maskAddress[col]
            if foregroundConfidence > 0.5 { foreground += 1 }
        }
        maskAddress += maskBytesPerRow / MemoryLayout<Float32>.size
    }
    CVPixelBufferUnlockBaseAddress(mask.buffer, CVPixelBufferLockFlags.readOnly)
    return Double(foreground) / Double(maskWidth * maskHeight)
}

func report(_ mask: SegmentationMask, in path: String) -> Double {
    let share = foregroundShare(of: mask)
    print(
        String(
            format: "%@: %d × %d mask, %.1f %% person", (path as NSString).lastPathComponent,
            CVPixelBufferGetWidth(mask.buffer), CVPixelBufferGetHeight(mask.buffer), share * 100))
    return share
}

let options = SelfieSegmenterOptions()
options.segmenterMode = .singleImage
options.shouldEnableRawSizeMask = true

let segmenter = Segmenter.segmenter(options: options)

// Synchronously (ML Kit: not on the main thread of an app).
let image: VisionImage
do {
    image = try VisionImage(contentsOfFile: photos[0])
} catch {
    print("MLKitSelfieSegmentation: FAILED, \(error)")
    exit(1)
}
image.orientation = .up
let mask: SegmentationMask
do {
    mask = try segmenter.results(in: image)
} catch let error {
    print("MLKitSelfieSegmentation: FAILED, failed to perform segmentation with error: \(error.localizedDescription).")
    exit(1)
}
guard report(mask, in: photos[0]) > 0.05 else {
    print("MLKitSelfieSegmentation: FAILED, no person in the mask")
    exit(1)
}

// Asynchronously: the completion runs on the main queue, as in ML Kit. A command-line program services the main
// queue with dispatchMain() (an app's run loop does it) and exits from its last completion.
let visionImage: VisionImage
do {
    visionImage = try VisionImage(contentsOfFile: photos[1])
} catch {
    print("MLKitSelfieSegmentation: FAILED, \(error)")
    exit(1)
}
visionImage.orientation = .up
segmenter.process(visionImage) { mask, error in
    guard error == nil, let mask = mask else {
        print("MLKitSelfieSegmentation: FAILED, \(error.map { $0.localizedDescription } ?? "no mask")")
        exit(1)
    }
    guard report(mask, in: photos[1]) > 0.05 else {
        print("MLKitSelfieSegmentation: FAILED, no person in the mask")
        exit(1)
    }
    print("MLKitSelfieSegmentation: OK")
    exit(0)
}
dispatchMain()
