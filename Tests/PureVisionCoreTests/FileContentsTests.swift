import Foundation
import PureVisionCore
import Testing

/// `readFileContents(atPath:byteLimit:)`, the one whole-file reader behind models, images and label files.
@Suite struct FileContentsTests {
    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "purevision-contents-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [0, 1, 4095, 4096, 4097, 100_003])
    func readsEveryByte(count: Int) throws {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        let path = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try readFileContents(atPath: path) == bytes)
    }

    /// The empty file is where `FileManager.contents(atPath:)` leaked its buffer under LeakSanitizer (CI, session 17).
    @Test func emptyFileIsEmpty() throws {
        let path = try Self.temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try readFileContents(atPath: path).isEmpty)
    }

    @Test func failuresAreTyped() throws {
        let path = try Self.temporaryFile([1, 2, 3, 4, 5])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: FileReadFailure.tooLarge(byteCount: 5)) { try readFileContents(atPath: path, byteLimit: 4) }
        #expect(try readFileContents(atPath: path, byteLimit: 5) == [1, 2, 3, 4, 5])
        #expect(throws: FileReadFailure.notFound) { try readFileContents(atPath: path + ".missing") }
        #expect(throws: FileReadFailure.notRegularFile) { try readFileContents(atPath: NSTemporaryDirectory()) }
        #expect(FileReadFailure.notRegularFile.reason == "not a regular file")
    }
}
