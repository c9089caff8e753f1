import Foundation
import PureVision
import PureVisionImage
import PureVisionTFLite
import PureVisionTestSupport
import Testing

/// Errors, options, running modes and the connection sets of the face landmarker.
@Suite struct FaceLandmarkerContractTests {
    static let bundlePath = Fixtures.model("face_landmarker.task")

    static func photo() throws -> PixelImage {
        try PixelImage(contentsOfFile: Fixtures.testFile("PureVisionTests/Fixtures/faces/grace_hopper_scale50.png"))
    }

    static func options(_ mode: RunningMode = .image, everything: Bool = true) -> FaceLandmarkerOptions {
        FaceLandmarkerOptions(
            baseOptions: BaseOptions(modelAssetPath: bundlePath), runningMode: mode,
            outputFaceBlendshapes: everything, outputFacialTransformationMatrixes: everything)
    }

    /// The bundle's entries, by name.
    static func entries() throws -> [String: [UInt8]] {
        let archive = try ZipArchive(bytes: try Fixtures.bytes(atPath: bundlePath))
        var entries: [String: [UInt8]] = [:]
        for name in archive.names { entries[name] = Array(try archive.data(named: name)) }
        return entries
    }

    /// A bundle of the real entries with some replaced or left out.
    static func bundle(replacing changes: [String: [UInt8]] = [:], omitting: Set<String> = []) throws -> [UInt8] {
        let order = [
            "face_detector.tflite", "face_landmarks_detector.tflite", "geometry_pipeline_metadata_landmarks.binarypb",
            "face_blendshapes.tflite",
        ]
        let real = try entries()
        var list: [(name: String, bytes: [UInt8])] = []
        for name in order where !omitting.contains(name) {
            if let bytes = changes[name] ?? real[name] { list.append((name, bytes)) }
        }
        return StoredZip.archive(list)
    }

    static func creationError(_ bundle: [UInt8], everything: Bool = true) -> VisionTaskError? {
        var options = Self.options(everything: everything)
        options.baseOptions = BaseOptions(modelAssetBuffer: bundle)
        do {
            _ = try FaceLandmarker(options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func defaultsAreMediaPipes() {
        let options = FaceLandmarkerOptions(baseOptions: BaseOptions(modelAssetPath: Self.bundlePath))
        #expect(options.runningMode == .image && options.numFaces == 1)
        #expect(options.minFaceDetectionConfidence == 0.5 && options.minFacePresenceConfidence == 0.5)
        #expect(options.minTrackingConfidence == 0.5)
        #expect(!options.outputFaceBlendshapes && !options.outputFacialTransformationMatrixes)
    }

    @Test func defaultOptionsReportLandmarksOnly() throws {
        let result = try FaceLandmarker(modelPath: Self.bundlePath).detect(image: try Self.photo())
        #expect(result.faceLandmarks.count == 1 && result.faceLandmarks[0].count == 478)
        #expect(result.faceBlendshapes.isEmpty && result.facialTransformationMatrixes.isEmpty)
        #expect(result.timestampInMilliseconds == 0)
    }

    @Test func missingEntriesAreNamed() throws {
        for name in [
            "face_detector.tflite", "face_landmarks_detector.tflite", "face_blendshapes.tflite",
            "geometry_pipeline_metadata_landmarks.binarypb",
        ] {
            let error = Self.creationError(try Self.bundle(omitting: [name]))
            #expect(error.map { "\($0)".contains("no entry \(name)") } == true, "\(name): \(String(describing: error))")
        }
        // The optional entries are read only when their outputs are asked for (as in MediaPipe).
        let landmarksOnly = try Self.bundle(
            omitting: ["face_blendshapes.tflite", "geometry_pipeline_metadata_landmarks.binarypb"])
        #expect(Self.creationError(landmarksOnly, everything: false) == nil)
    }

    @Test func anotherTasksBundleIsRefusedByName() throws {
        var options = Self.options()
        options.baseOptions = BaseOptions(modelAssetPath: Fixtures.model("hand_landmarker.task"))
        #expect {
            try FaceLandmarker(options: options)
        } throws: { error in
            "\(error)".contains("no entry face_detector.tflite")
        }
        options.baseOptions = BaseOptions(modelAssetPath: Fixtures.model("face_landmark.tflite"))
        #expect(throws: VisionTaskError.self) { try FaceLandmarker(options: options) }
    }

    @Test func wrongShapedBlendshapeModelIsNamed() throws {
        let detector = try Fixtures.bytes(atPath: Fixtures.model("face_detection_short_range.tflite"))
        let error = Self.creationError(try Self.bundle(replacing: ["face_blendshapes.tflite": detector]))
        #expect(
            error.map { "\($0)".contains("face_blendshapes.tflite") && "\($0)".contains("[1, 146, 2]") } == true,
            "\(String(describing: error))")
        let landmarks = Self.creationError(try Self.bundle(replacing: ["face_landmarks_detector.tflite": detector]))
        #expect(landmarks.map { "\($0)".contains("face_landmarks_detector.tflite") } == true)
    }

    @Test func truncatedOrCorruptGeometryMetadataIsATypedError() throws {
        let real = try Self.entries()["geometry_pipeline_metadata_landmarks.binarypb"] ?? []
        #expect(real.count == 19_376)
        let cases: [(bytes: [UInt8], mentions: String)] = [
            (Array(real[..<5_000]), "truncated protobuf"),
            ([0x0E] + real, "invalid protobuf tag"),
            ([], "canonical_mesh"),
        ]
        for (bytes, mentions) in cases {
            let error = Self.creationError(
                try Self.bundle(replacing: ["geometry_pipeline_metadata_landmarks.binarypb": bytes]))
            #expect(
                error.map {
                    "\($0)".contains("geometry_pipeline_metadata_landmarks.binarypb") && "\($0)".contains(mentions)
                }
                    == true, "\(mentions): \(String(describing: error))")
        }
    }

    @Test func optionsOutOfRangeAreRejected() {
        for mutate: (inout FaceLandmarkerOptions) -> Void in [
            { $0.numFaces = 0 }, { $0.minFaceDetectionConfidence = -0.1 }, { $0.minFacePresenceConfidence = 1.5 },
            { $0.minTrackingConfidence = 2 },
        ] {
            var options = Self.options(.video)
            mutate(&options)
            #expect(throws: VisionTaskError.self) { try FaceLandmarker(options: options) }
        }
    }

    @Test func stagesNeedTheirOutputsAskedFor() throws {
        let landmarker = try FaceLandmarker(modelPath: Self.bundlePath)
        let flat = [NormalizedLandmark](repeating: NormalizedLandmark(x: 0.5, y: 0.5, z: 0), count: 478)
        #expect(throws: VisionTaskError.self) {
            try landmarker.blendshapes(landmarks: flat, imageWidth: 10, imageHeight: 10)
        }
        #expect(throws: VisionTaskError.self) {
            try landmarker.facialTransformationMatrix(landmarks: flat, imageWidth: 10, imageHeight: 10)
        }
        // A face collapsed to a point is too compact for the geometry pipeline: no matrix, no error.
        let full = try FaceLandmarker(options: Self.options())
        #expect(try full.facialTransformationMatrix(landmarks: flat, imageWidth: 10, imageHeight: 10) == nil)
    }

    @Test func regionOfInterestAndWrongModeAreErrors() throws {
        let image = try Self.photo()
        let landmarker = try FaceLandmarker(options: Self.options(.video))
        #expect(throws: VisionTaskError.wrongRunningMode(expected: .image, actual: .video)) {
            try landmarker.detect(image: image)
        }
        _ = try landmarker.detect(videoFrame: image, timestampInMilliseconds: 10)
        #expect(throws: VisionTaskError.nonMonotonicTimestamp(previous: 10, given: 10)) {
            try landmarker.detect(videoFrame: image, timestampInMilliseconds: 10)
        }
        let still = try FaceLandmarker(options: Self.options())
        let roi = ImageProcessingOptions(regionOfInterest: RectF(left: 0, top: 0, right: 0.5, bottom: 0.5))
        #expect(throws: VisionTaskError.regionOfInterestNotSupported) {
            try still.detect(image: image, imageProcessingOptions: roi)
        }
    }

    @Test func asyncFormsAndLiveStreamAgreeWithTheSyncCalls() async throws {
        let image = try Self.photo()
        let still = try FaceLandmarker(options: Self.options())
        let expected = try Self.detectNow(still, image)
        let viaAsync = try await still.detect(image: image)
        #expect(viaAsync == expected)

        let video = try FaceLandmarker(options: Self.options(.video))
        let frame = try await video.detect(videoFrame: image, timestampInMilliseconds: 0)
        #expect(frame.faceLandmarks.count == 1 && frame.timestampInMilliseconds == 0)

        var options = Self.options(.liveStream)
        options.resultHandler = { _ in }
        let live = try FaceLandmarker(options: options)
        let stream = live.liveStreamResults()
        try live.detectAsync(image: image, timestampInMilliseconds: 5)
        live.close()
        var results: [FaceLandmarkerResult] = []
        for await event in stream {
            if case .result(let result, _, let timestamp) = event {
                #expect(timestamp == 5)
                results.append(result)
            }
        }
        #expect(results.count == 1)
        #expect(results.first?.faceLandmarks.count == 1 && results.first?.timestampInMilliseconds == 5)
    }

    /// The synchronous call (inside an `async` test, `detect(image:)` resolves to the async form).
    static func detectNow(_ landmarker: FaceLandmarker, _ image: PixelImage) throws -> FaceLandmarkerResult {
        try landmarker.detect(image: image)
    }

    /// MediaPipe's connection sets: sizes, landmark ranges, and the combined contours.
    @Test func connectionSetsHaveMediaPipesShape() {
        typealias C = FaceLandmarksConnections
        let sizes = [
            C.lips.count, C.leftEye.count, C.leftEyebrow.count, C.leftIris.count, C.rightEye.count,
            C.rightEyebrow.count, C.rightIris.count, C.faceOval.count, C.tesselation.count, C.contours.count,
        ]
        #expect(sizes == [40, 16, 8, 4, 16, 8, 4, 36, 2_556, 124])
        #expect(Set((C.leftIris).flatMap { [$0.start, $0.end] }) == Set(474...477))
        #expect(Set((C.rightIris).flatMap { [$0.start, $0.end] }) == Set(469...472))
        #expect(C.tesselation.allSatisfy { $0.start < 468 && $0.end < 468 && $0.start != $0.end })
        #expect(C.faceOval.first == FaceLandmarkConnection(start: 10, end: 338))
        // Each eye, eyebrow, iris and the face oval close into loops / chains of consecutive edges.
        for set in [C.leftIris, C.rightIris, C.faceOval] {
            #expect(zip(set, set.dropFirst()).allSatisfy { $0.end == $1.start })
        }
    }

    @Test func blendshapeConstantsHaveMediaPipesShape() {
        #expect(FaceBlendshapes.landmarkIndices.count == 146)
        #expect(
            zip(FaceBlendshapes.landmarkIndices, FaceBlendshapes.landmarkIndices.dropFirst()).allSatisfy { $0 < $1 })
        #expect(FaceBlendshapes.names.count == 52)
        #expect(FaceBlendshapes.names.first == "_neutral" && FaceBlendshapes.names.last == "noseSneerRight")
        #expect(FaceBlendshapes.names[25] == "jawOpen")
    }
}
