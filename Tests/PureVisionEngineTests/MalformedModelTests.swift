import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTFLite
import PureVisionTestSupport
import Testing

/// Bad models are normal input: empty, truncated, random and bit-flipped files each end in a thrown error or a
/// valid, runnable interpreter — never a crash, a hang or an out-of-bounds access.
@Suite struct MalformedModelTests {
    /// A small memory limit keeps mutated shapes from planning gigabytes.
    static let options = InterpreterOptions(memoryLimit: 64 << 20)

    /// Loads `bytes`; when it loads, runs it once on zeros. Returns whether it loaded.
    @discardableResult
    static func loadAndRun(_ bytes: [UInt8]) -> Bool {
        guard let interpreter = try? Interpreter(bytes: bytes, options: options) else { return false }
        let inputs = interpreter.inputs.map { Tensor(zeros: $0.shape, elementType: $0.elementType) }
        _ = try? interpreter.run(inputs)
        return true
    }

    @Test func emptyFileIsRejected() {
        #expect(throws: InterpreterError.self) { try Interpreter(bytes: []) }
    }

    @Test func missingFileIsATypedError() {
        #expect {
            try Interpreter(contentsOf: "/nonexistent/model.tflite")
        } throws: { error in
            if case .modelFormat = error as? InterpreterError { return true }
            return false
        }
    }

    /// A file cut anywhere before the end of its last weight buffer must be refused. (Cutting only the ZIP of
    /// associated files appended after the flatbuffer leaves a valid model, which may load.)
    @Test(arguments: ["face_detection_short_range.tflite", "face_landmark.tflite", "palm_detection_full.tflite"])
    func truncatedFilesAreRejected(_ name: String) throws {
        let bytes = try Fixtures.bytes(atPath: Fixtures.model(name))
        let model = try TFLiteModel(bytes: bytes)
        let dataEnd = try #require(model.buffers.map(\.range.upperBound).max())
        var random = SplitMix64(seed: 7)
        var lengths = [0, 1, 3, 4, 7, 8, 12, 16, 64, 1024, dataEnd / 2, dataEnd - 1]
        lengths += (0..<40).map { _ in Int(random.next() % UInt64(bytes.count)) }
        for length in lengths {
            let loaded = Self.loadAndRun(Array(bytes.prefix(length)))
            if length < dataEnd {
                #expect(!loaded, "\(name) truncated to \(length) of \(bytes.count) bytes loaded")
            }
        }
    }

    /// Random bytes behind a valid "TFL3" identifier: every one must be refused (and none may crash).
    @Test func randomBytesAreRejected() {
        var random = SplitMix64(seed: 11)
        var loaded = 0
        for length in [8, 16, 100, 1000, 10_000] {
            for _ in 0..<20 {
                var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                bytes.replaceSubrange(4..<8, with: Array("TFL3".utf8))
                if Self.loadAndRun(bytes) { loaded += 1 }
                #expect(throws: InterpreterError.self, "\(length) random bytes") {
                    try Interpreter(bytes: bytes, options: Self.options)
                }
            }
        }
        #expect(loaded == 0, "\(loaded) of 100 random buffers loaded")
    }

    /// 1,200 mutants of two real models: single bit flips anywhere, and 32-bit words overwritten with hostile values
    /// (0, −1, huge, small offsets) — most land in the flatbuffer's tables and vectors, not the weights.
    @Test(arguments: ["face_detection_short_range.tflite", "face_landmark.tflite"])
    func mutatedModelsNeverCrash(_ name: String) throws {
        let original = try Fixtures.bytes(atPath: Fixtures.model(name))
        let model = try TFLiteModel(bytes: original)
        // Structure lives outside the weight buffers: aim half of the mutations there.
        var isWeight = [Bool](repeating: false, count: original.count)
        for range in model.buffers.map(\.range) where range.count > 64 && range.upperBound <= original.count {
            for offset in range { isWeight[offset] = true }
        }
        let structuralOffsets = isWeight.indices.filter { !isWeight[$0] }
        var random = SplitMix64(seed: 42)
        var loaded = 0
        let hostile: [UInt32] = [0, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 1, 4, 0x0100_0000, 0xFFFF]
        for trial in 0..<600 {
            var bytes = original
            let useStructure = trial % 2 == 0 && !structuralOffsets.isEmpty
            let offset =
                useStructure
                ? structuralOffsets[Int(random.next() % UInt64(structuralOffsets.count))]
                : Int(random.next() % UInt64(bytes.count))
            if trial % 3 == 0 {
                bytes[offset] ^= UInt8(1 << (random.next() % 8))
            } else {
                let value = hostile[Int(random.next() % UInt64(hostile.count))]
                let start = min(offset & ~3, bytes.count - 4)
                for i in 0..<4 { bytes[start + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
            }
            if Self.loadAndRun(bytes) { loaded += 1 }
        }
        // Some mutations only touch weights or unused fields: those models must still load.
        #expect(loaded > 0)
    }
}
