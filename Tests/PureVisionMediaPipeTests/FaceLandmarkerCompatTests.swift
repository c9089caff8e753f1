import Foundation
import PureVision
import PureVisionMediaPipe
import PureVisionTestSupport
import Testing

/// `PureVisionMediaPipe.FaceLandmarker` gives exactly PureVision's faces, blendshapes (as MediaPipe's
/// `Classifications`) and transformation matrices (as MediaPipe's `TransformMatrix`), in all three running modes,
/// with MediaPipe's defaults and connection sets.
@Suite struct FaceLandmarkerCompatTests {
    static func expectSame(
        _ compat: PureVisionMediaPipe.FaceLandmarkerResult, _ native: PureVision.FaceLandmarkerResult,
        timestamp: Int, _ what: String
    ) {
        #expect(compat.timestampInMilliseconds == timestamp, "\(what)")
        #expect(sameLandmarks(compat.faceLandmarks, native.faceLandmarks), "\(what): landmarks")
        #expect(compat.faceLandmarks.allSatisfy { $0.count == 478 }, "\(what)")
        #expect(compat.faceBlendshapes.map(\.categories) == native.faceBlendshapes, "\(what): blendshapes")
        #expect(
            compat.faceBlendshapes.allSatisfy { $0.headIndex == 0 && $0.headName == "" }, "\(what): MediaPipe's head")
        #expect(compat.facialTransformationMatrixes.count == native.facialTransformationMatrixes.count, "\(what)")
        for (matrix, expected) in zip(compat.facialTransformationMatrixes, native.facialTransformationMatrixes) {
            #expect(matrix.rows == 4 && matrix.columns == 4 && expected.rows == 4 && expected.columns == 4)
            #expect(Array(UnsafeBufferPointer(start: matrix.data, count: 16)) == expected.data, "\(what): matrix")
            for row in 0..<4 {
                for column in 0..<4 {
                    #expect(matrix.value(atRow: UInt(row), column: UInt(column)) == expected[row, column])
                }
            }
        }
    }

    static func options(_ mode: PureVision.RunningMode) -> PureVisionMediaPipe.FaceLandmarkerOptions {
        let options = PureVisionMediaPipe.FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = CompatFixtures.faceLandmarkerBundle
        options.runningMode = mode
        return options
    }

    @Test func defaultsAreMediaPipes() {
        let options = PureVisionMediaPipe.FaceLandmarkerOptions()
        #expect(options.runningMode == .image && options.numFaces == 1)
        #expect(
            options.minFaceDetectionConfidence == 0.5 && options.minFacePresenceConfidence == 0.5
                && options.minTrackingConfidence == 0.5)
        #expect(!options.outputFaceBlendshapes && !options.outputFacialTransformationMatrixes)
        #expect(options.faceLandmarkerLiveStreamDelegate == nil && options.baseOptions.modelAssetPath == "")
    }

    @Test func imageModeWithBlendshapesAndMatricesEqualsNative() throws {
        let options = Self.options(.image)
        options.numFaces = 2
        options.outputFaceBlendshapes = true
        options.outputFacialTransformationMatrixes = true
        let landmarker = try PureVisionMediaPipe.FaceLandmarker(options: options)
        let native = try PureVision.FaceLandmarker(
            options: .init(
                baseOptions: .init(modelAssetPath: CompatFixtures.faceLandmarkerBundle), numFaces: 2,
                outputFaceBlendshapes: true, outputFacialTransformationMatrixes: true))
        var faces = 0
        for name in CompatFixtures.faceLandmarkerPhotos {
            let path = CompatFixtures.photo(name)
            let result = try landmarker.detect(image: try MPImage(contentsOfFile: path))
            Self.expectSame(result, try native.detect(image: try PixelImage(contentsOfFile: path)), timestamp: 0, name)
            #expect(result.faceBlendshapes.count == result.faceLandmarks.count, "\(name)")
            #expect(result.faceBlendshapes.allSatisfy { $0.categories.count == 52 }, "\(name)")
            #expect(!result.facialTransformationMatrixes.isEmpty, "\(name)")
            faces += result.faceLandmarks.count
        }
        #expect(faces >= 3, "one face, then two: the test compares something")
    }

    @Test func withoutBlendshapesOrMatricesTheListsAreEmpty() throws {
        let path = CompatFixtures.photo(CompatFixtures.faceLandmarkerPhotos[0])
        let landmarker = try PureVisionMediaPipe.FaceLandmarker(modelPath: CompatFixtures.faceLandmarkerBundle)
        let native = try PureVision.FaceLandmarker(modelPath: CompatFixtures.faceLandmarkerBundle)
        let result = try landmarker.detect(image: try MPImage(contentsOfFile: path))
        #expect(result.faceLandmarks.count == 1)
        #expect(result.faceBlendshapes.isEmpty && result.facialTransformationMatrixes.isEmpty)
        Self.expectSame(result, try native.detect(image: try PixelImage(contentsOfFile: path)), timestamp: 0, "plain")
    }

    @Test func videoModeEqualsNative() throws {
        let options = Self.options(.video)
        options.outputFaceBlendshapes = true
        let landmarker = try PureVisionMediaPipe.FaceLandmarker(options: options)
        let native = try PureVision.FaceLandmarker(
            options: .init(
                baseOptions: .init(modelAssetPath: CompatFixtures.faceLandmarkerBundle), runningMode: .video,
                outputFaceBlendshapes: true))
        for (index, name) in CompatFixtures.faceLandmarkerFrames.enumerated() {
            let path = CompatFixtures.photo(name)
            Self.expectSame(
                try landmarker.detect(
                    videoFrame: try MPImage(contentsOfFile: path), timestampInMilliseconds: index * 33),
                try native.detect(
                    videoFrame: try PixelImage(contentsOfFile: path), timestampInMilliseconds: index * 33),
                timestamp: index * 33, name)
        }
        #expect(throws: VisionTaskError.self, "image mode call on a video landmarker") {
            try landmarker.detect(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(CompatFixtures.faceLandmarkerFrames[0])))
        }
    }

    /// Collects what the delegate receives.
    final class Recorder: FaceLandmarkerLiveStreamDelegate, @unchecked Sendable {
        let lock = NSLock()
        var received: [(result: PureVisionMediaPipe.FaceLandmarkerResult?, timestamp: Int, error: (any Error)?)] = []
        var count: Int { lock.withLock { received.count } }

        func faceLandmarker(
            _ faceLandmarker: PureVisionMediaPipe.FaceLandmarker,
            didFinishDetection result: PureVisionMediaPipe.FaceLandmarkerResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            lock.withLock { received.append((result, timestampInMilliseconds, error)) }
        }
    }

    @Test func liveStreamDelegateGetsTheVideoResults() throws {
        let recorder = Recorder()
        let options = Self.options(.liveStream)
        options.outputFacialTransformationMatrixes = true
        options.faceLandmarkerLiveStreamDelegate = recorder
        let landmarker = try PureVisionMediaPipe.FaceLandmarker(options: options)
        let native = try PureVision.FaceLandmarker(
            options: .init(
                baseOptions: .init(modelAssetPath: CompatFixtures.faceLandmarkerBundle), runningMode: .video,
                outputFacialTransformationMatrixes: true))
        // One frame at a time, so none is dropped and the tracking sees what video mode sees.
        for (index, name) in CompatFixtures.faceLandmarkerFrames.enumerated() {
            try landmarker.detectAsync(
                image: try MPImage(contentsOfFile: CompatFixtures.photo(name)), timestampInMilliseconds: index * 33)
            #expect(waitUntil { recorder.count == index + 1 }, "result \(index) delivered")
        }
        landmarker.close()
        let received = recorder.lock.withLock { recorder.received }
        #expect(received.map(\.timestamp) == CompatFixtures.faceLandmarkerFrames.indices.map { $0 * 33 })
        for (index, name) in CompatFixtures.faceLandmarkerFrames.enumerated() where index < received.count {
            let expected = try native.detect(
                videoFrame: try PixelImage(contentsOfFile: CompatFixtures.photo(name)),
                timestampInMilliseconds: index * 33)
            #expect(received[index].error == nil)
            if let result = received[index].result {
                Self.expectSame(result, expected, timestamp: index * 33, name)
            } else {
                Issue.record("frame \(index): no result")
            }
        }
    }

    @Test func delegateIsHeldWeaklyAndRequiredOnlyInLiveStream() throws {
        let options = Self.options(.video)
        var recorder: Recorder? = Recorder()
        options.faceLandmarkerLiveStreamDelegate = recorder
        #expect(throws: VisionTaskError.self, "a delegate in video mode") {
            try PureVisionMediaPipe.FaceLandmarker(options: options)
        }
        recorder = nil
        #expect(options.faceLandmarkerLiveStreamDelegate == nil, "the options hold the delegate weakly")
        options.runningMode = .liveStream
        #expect(throws: VisionTaskError.self, "no delegate in live-stream mode") {
            try PureVisionMediaPipe.FaceLandmarker(options: options)
        }
    }

    @Test func transformMatrixCopiesItsValues() {
        var values: [Float] = (0..<6).map(Float.init)
        let matrix = PureVisionMediaPipe.TransformMatrix(data: values, rows: 2, columns: 3)
        values[0] = 99
        #expect(matrix.rows == 2 && matrix.columns == 3)
        #expect(matrix.value(atRow: 0, column: 0) == 0 && matrix.value(atRow: 1, column: 2) == 5)
        #expect(matrix.data[4] == 4)
    }

    @Test func connectionSetsAreMediaPipeIOSs() {
        typealias Task = PureVisionMediaPipe.FaceLandmarker
        func pairs(_ connections: [Connection]) -> [[Int]] { connections.map { [Int($0.start), Int($0.end)] } }
        func nativePairs(_ connections: [FaceLandmarkConnection]) -> [[Int]] { connections.map { [$0.start, $0.end] } }
        #expect(pairs(Task.lipsConnections()) == nativePairs(FaceLandmarksConnections.lips))
        #expect(pairs(Task.leftEyeConnections()) == nativePairs(FaceLandmarksConnections.leftEye))
        #expect(pairs(Task.leftEyebrowConnections()) == nativePairs(FaceLandmarksConnections.leftEyebrow))
        #expect(pairs(Task.rightEyeConnections()) == nativePairs(FaceLandmarksConnections.rightEye))
        #expect(pairs(Task.rightEyebrowConnections()) == nativePairs(FaceLandmarksConnections.rightEyebrow))
        #expect(pairs(Task.faceOvalConnections()) == nativePairs(FaceLandmarksConnections.faceOval))
        #expect(pairs(Task.tesselationConnections()) == nativePairs(FaceLandmarksConnections.tesselation))
        #expect(Set(Task.leftIrisConnections().flatMap { [$0.start, $0.end] }) == Set(474...477))
        #expect(Set(Task.rightIrisConnections().flatMap { [$0.start, $0.end] }) == Set(469...472), "the right iris")
        let counts = [
            Task.lipsConnections(), Task.leftEyeConnections(), Task.leftEyebrowConnections(),
            Task.leftIrisConnections(), Task.rightEyeConnections(), Task.rightEyebrowConnections(),
            Task.rightIrisConnections(), Task.faceOvalConnections(), Task.contoursConnections(),
            Task.tesselationConnections(), Task.faceConnections(),
        ].map(\.count)
        #expect(counts == [40, 16, 8, 4, 16, 8, 4, 36, 132, 2556, 2728])
        // MediaPipe iOS's composition: the contours include both irises; the face set is lips + contours + mesh.
        let contours =
            Task.lipsConnections() + Task.leftEyeConnections() + Task.leftEyebrowConnections()
            + Task.leftIrisConnections() + Task.rightEyeConnections() + Task.rightEyebrowConnections()
            + Task.rightIrisConnections() + Task.faceOvalConnections()
        #expect(pairs(Task.contoursConnections()) == pairs(contours))
        #expect(
            pairs(Task.faceConnections())
                == pairs(Task.lipsConnections() + Task.contoursConnections() + Task.tesselationConnections()))
    }
}
