import Foundation
import PureVision
import PureVisionImage
import PureVisionTestSupport
import Testing

/// Options, ML Kit's result shape, running modes and errors.
@Suite struct FaceAnalyzerContractTests {
    @Test func defaultsAreMLKits() {
        let options = FaceAnalyzerOptions(modelDirectory: "/models")
        #expect(options.performanceMode == .fast)
        #expect(options.landmarkMode == .none && options.contourMode == .none)
        #expect(options.classificationMode == .none)
        #expect(options.minFaceSize == 0.1)
        #expect(!options.isTrackingEnabled)
        #expect(options.runningMode == .image)
    }

    @Test func invalidOptionsAreTypedErrors() {
        for size in [-0.1, 1.5, .nan] as [Float] {
            #expect(throws: VisionTaskError.self) { try FaceTestImages.analyzer(minFaceSize: size) }
        }
        #expect(throws: VisionTaskError.self) {
            try FaceAnalyzer(
                options: FaceAnalyzerOptions(modelDirectory: FaceTestImages.modelDirectory, threadCount: 0))
        }
        #expect(throws: VisionTaskError.self) {
            try FaceAnalyzer(options: FaceAnalyzerOptions(modelDirectory: "/nonexistent"))
        }
        #expect(throws: VisionTaskError.self) {
            try FaceAnalyzer(
                options: FaceAnalyzerOptions(modelDirectory: FaceTestImages.modelDirectory, runningMode: .liveStream))
        }
    }

    @Test func valuesTurnedOffAreNil() throws {
        let image = try FaceTestImages.photo("astronaut.png")
        let plain = try #require(try FaceTestImages.analyzer().results(in: image).first)
        #expect(plain.landmarks == nil && plain.contours == nil)
        #expect(plain.smilingProbability == nil && plain.leftEyeOpenProbability == nil)
        #expect(plain.rightEyeOpenProbability == nil && plain.trackingID == nil)
        #expect(plain.headEulerAngleX != nil && plain.meshLandmarks.count == 468)
        // ML Kit's contour-only fast configuration reports no angles.
        let contourOnly = try #require(try FaceTestImages.analyzer(contours: true).results(in: image).first)
        #expect(contourOnly.headEulerAngleX == nil && contourOnly.headEulerAngleY == nil)
        #expect(contourOnly.headEulerAngleZ == nil && contourOnly.contours != nil)
    }

    @Test func landmarksAndContoursHaveMLKitsShape() throws {
        let image = try FaceTestImages.photo("grace_hopper.jpg")
        let face = try #require(try FaceTestImages.analyzer(landmarks: true, contours: true).results(in: image).first)
        let contours = try #require(face.contours)
        #expect(contours.map(\.type) == FaceContourType.allCases)
        #expect(contours.reduce(0) { $0 + $1.points.count } == 133)
        let counts = Dictionary(uniqueKeysWithValues: contours.map { ($0.type, $0.points.count) })
        #expect(counts[.face] == 36 && counts[.leftEye] == 16 && counts[.upperLipTop] == 11)
        #expect(counts[.lowerLipBottom] == 9 && counts[.noseBridge] == 2 && counts[.noseBottom] == 3)
        // A frontal face: ML Kit's eight frontal landmarks, no ears.
        let types = try #require(face.landmarks).map(\.type)
        #expect(Set(types) == Set(FaceMeshTopology.visibleLandmarks(yaw: 0)))
        #expect(types.count == 8 && !types.contains(.leftEar))
        // Subject's left is on the image's right, and every point lies inside the frame.
        let left = try #require(face.landmark(ofType: .leftEye)).position
        let right = try #require(face.landmark(ofType: .rightEye)).position
        #expect(left.x > right.x)
        let mouthBottom = try #require(face.landmark(ofType: .mouthBottom)).position
        let nose = try #require(face.landmark(ofType: .noseBase)).position
        #expect(mouthBottom.y > nose.y && nose.y > left.y)
        let frame = face.frame
        for point in contours.flatMap(\.points) {
            #expect(point.x >= frame.originX - 0.01 && point.x <= frame.originX + frame.width + 0.01)
            #expect(point.y >= frame.originY - 0.01 && point.y <= frame.originY + frame.height + 0.01)
        }
        #expect(
            Set(FaceMeshTopology.visibleLandmarks(yaw: -40)) == [.leftEye, .mouthLeft, .leftEar, .noseBase, .leftCheek])
        #expect(FaceMeshTopology.visibleLandmarks(yaw: 20).contains(.rightEar))
    }

    @Test func minFaceSizeFiltersSmallFaces() throws {
        let image = try FaceTestImages.photo("composite_two_face_crops.png")  // faces about 0.2 of the width
        #expect(try FaceTestImages.analyzer(minFaceSize: 0.1).results(in: image).count == 2)
        #expect(try FaceTestImages.analyzer(minFaceSize: 0.4).results(in: image).isEmpty)
    }

    @Test func accurateModeFindsTheSameFaces() throws {
        let image = try FaceTestImages.photo("composite_two_face_crops.png")
        let fast = try FaceTestImages.analyzer().results(in: image)
        let accurate = try FaceTestImages.analyzer(performanceMode: .accurate).results(in: image)
        #expect(fast.count == 2 && accurate.count == 2)
        for face in accurate {
            let best = fast.map { $0.frame.intersectionOverUnion(face.frame) }.max() ?? 0
            #expect(best > 0.8)
        }
    }

    @Test func runningModes() async throws {
        let image = try FaceTestImages.photo("astronaut_scale50.png")
        let imageMode = try FaceTestImages.analyzer()
        let expected = try imageMode.results(in: image)
        #expect(expected.count == 1)
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .video, actual: .image)) {
            try imageMode.results(inVideoFrame: image, timestampInMilliseconds: 0)
        }
        let video = try FaceTestImages.analyzer(runningMode: .video)
        #expect(try video.results(inVideoFrame: image, timestampInMilliseconds: 10) == expected)
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 10, given: 10)) {
            try video.results(inVideoFrame: image, timestampInMilliseconds: 10)
        }
        let collected = Collected()
        let live = try FaceAnalyzer(
            options: FaceAnalyzerOptions(
                modelDirectory: FaceTestImages.modelDirectory, runningMode: .liveStream,
                resultHandler: { event in collected.append(event) }))
        try live.processAsync(image: image, timestampInMilliseconds: 1)
        live.close()
        let events = collected.events
        #expect(events.count == 1)
        if case .result(let faces, _, let timestamp) = events.first {
            #expect(faces == expected && timestamp == 1)
        } else {
            Issue.record("expected one result event, got \(events)")
        }
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [LiveStreamEvent<[Face]>] = []
        func append(_ event: LiveStreamEvent<[Face]>) {
            lock.lock()
            stored.append(event)
            lock.unlock()
        }
        var events: [LiveStreamEvent<[Face]>] {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
    }
}
