// The iOS-only parts of ML Kit's selfie segmentation guide for iOS ("Selfie segmentation with ML Kit on iOS"),
// type-checked for arm64-apple-ios18.0 by tools/platforms/ios.sh (never built for Linux): the segmenter options,
// VisionImage from a UIImage and from a camera CMSampleBuffer, both ways of running the segmenter, and reading the
// mask's CVPixelBuffer with CoreVideo as the guide does. Only the import differs.
import AVFoundation
import PureVisionMLKit  // was: import MLKit (pod GoogleMLKit/SegmentationSelfie)
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

final class SegmentationService {
    // 1. Create an instance of Segmenter: the guide's options (single image, raw-size mask).
    let segmenter: Segmenter = {
        let options = SelfieSegmenterOptions()
        options.segmenterMode = .singleImage
        options.shouldEnableRawSizeMask = true
        let segmenter = Segmenter.segmenter(options: options)
        return segmenter
    }()

    // 1. Create an instance of Segmenter: the other detector mode the guide describes, for camera frames.
    let streamSegmenter: Segmenter = {
        let options = SelfieSegmenterOptions()
        options.segmenterMode = .stream
        return Segmenter.segmenter(options: options)
    }()

    // 2. Prepare the input image (UIImage), then 3. Process the image: the asynchronous process(_:completion:).
    func segment(_ uiImage: UIImage) {
        let image = VisionImage(image: uiImage)
        image.orientation = uiImage.imageOrientation
        segmenter.process(image) { mask, error in
            guard error == nil else {
                // Error.
                return
            }
            // Start using the mask.
            if let mask = mask { self.read(mask) }
        }
    }

    // 2. Prepare the input image (CMSampleBuffer), then 3. Process the image: the synchronous results(in:).
    func segment(sampleBuffer: CMSampleBuffer, cameraPosition: AVCaptureDevice.Position) {
        let image = VisionImage(buffer: sampleBuffer)
        image.orientation = imageOrientation(
            deviceOrientation: UIDevice.current.orientation,
            cameraPosition: cameraPosition)

        let mask: SegmentationMask
        do {
            mask = try streamSegmenter.results(in: image)
        } catch let error {
            print("Failed to perform segmentation with error: \(error.localizedDescription).")
            return
        }

        // Start using the mask.
        read(mask)
    }

    // 4. Get the segmentation result: the guide's loop over the mask's CVPixelBuffer.
    func read(_ mask: SegmentationMask) {
        let maskWidth = CVPixelBufferGetWidth(mask.buffer)
        let maskHeight = CVPixelBufferGetHeight(mask.buffer)

        CVPixelBufferLockBaseAddress(mask.buffer, CVPixelBufferLockFlags.readOnly)
        let maskBytesPerRow = CVPixelBufferGetBytesPerRow(mask.buffer)
        var maskAddress =
            CVPixelBufferGetBaseAddress(mask.buffer)!.bindMemory(
                to: Float32.self, capacity: maskBytesPerRow * maskHeight)

        for _ in 0...(maskHeight - 1) {
            for col in 0...(maskWidth - 1) {
                // Gets the confidence of the pixel in the mask being in the foreground.
                let foregroundConfidence: Float32 = maskAddress[col]
                _ = foregroundConfidence  // (the guide stops at reading the value)
            }
            maskAddress += maskBytesPerRow / MemoryLayout<Float32>.size
        }
        // Not in the guide, which leaves the buffer locked: the matching unlock.
        CVPixelBufferUnlockBaseAddress(mask.buffer, CVPixelBufferLockFlags.readOnly)
    }
}
