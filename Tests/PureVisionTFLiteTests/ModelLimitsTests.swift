import Foundation
import PureVisionTFLite
import Testing

/// `ModelLimits.maximumFileByteCount`: a file one byte over is refused from its size alone (a sparse file, so the
/// test writes nothing), and a path that is not a regular file is a typed error, not a read of garbage.
@Suite struct ModelLimitsTests {
    /// A sparse file of `byteCount` zero bytes in the temporary directory.
    static func sparseFile(byteCount: Int) throws -> String {
        let path = NSTemporaryDirectory() + "purevision-sparse-\(UUID().uuidString).tflite"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(byteCount))
        try handle.close()
        return path
    }

    @Test func fileOneByteOverTheLimitIsRefusedBeforeReading() throws {
        let limit = ModelLimits.maximumFileByteCount
        let path = try Self.sparseFile(byteCount: limit + 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ModelFormatError.fileTooLarge(path: path, byteCount: limit + 1, limit: limit)) {
            try TFLiteModel(contentsOf: path)
        }
    }

    @Test func directoryIsNotAModelFile() {
        #expect(throws: ModelFormatError.unreadableFile(path: "/tmp", reason: "not a regular file")) {
            try TFLiteModel(contentsOf: "/tmp")
        }
    }
}
