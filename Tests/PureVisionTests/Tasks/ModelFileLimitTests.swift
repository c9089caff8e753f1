import Foundation
import PureVision
import PureVisionTFLite
import Testing

/// A task given a model file over `ModelLimits.maximumFileByteCount` fails with `.model` naming the limit, without
/// reading it (a sparse file: the test writes nothing).
@Suite struct ModelFileLimitTests {
    @Test func taskRefusesAModelFileOverTheLimit() throws {
        let path = NSTemporaryDirectory() + "purevision-sparse-\(UUID().uuidString).task"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(ModelLimits.maximumFileByteCount + 1))
        try handle.close()
        let expected = VisionTaskError.model(
            "\(ModelFormatError.fileTooLarge(path: path, byteCount: ModelLimits.maximumFileByteCount + 1, limit: ModelLimits.maximumFileByteCount))"
        )
        #expect(throws: expected) { try FaceDetector(modelPath: path) }
        #expect(throws: expected) { try HandLandmarker(modelPath: path) }
    }
}
