import PureVisionTFLite
import Testing

/// The bundled models, found from this file's location: `<package root>/Models/<name>`.
enum TestModels {
    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // PureVisionTFLiteTests/<file>, Tests
        return parts.joined(separator: "/") + "/Models"
    }()

    static func path(_ name: String) -> String { directory + "/" + name }

    /// The bytes of a bundled model; a missing file is a test failure (never a skip).
    static func bytes(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        do {
            return try readFileBytes(path(name))
        } catch {
            Issue.record("cannot read bundled model \(name): \(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    /// A parsed bundled model.
    static func model(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TFLiteModel {
        try TFLiteModel(bytes: try bytes(name, sourceLocation: sourceLocation))
    }
}

/// A small deterministic generator (SplitMix64) so fuzz cases are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Little-endian byte assembly for hand-built flatbuffers and ZIPs.
struct ByteWriter {
    var bytes: [UInt8]

    init(count: Int) { bytes = [UInt8](repeating: 0, count: count) }

    mutating func put<T: FixedWidthInteger>(_ value: T, at position: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[position + index] = byte }
        }
    }

    mutating func put(_ text: String, at position: Int) {
        for (index, byte) in text.utf8.enumerated() { bytes[position + index] = byte }
    }

    /// Stores a `uoffset_t` at `position` pointing forward to `target`.
    mutating func offset(at position: Int, to target: Int) {
        put(UInt32(target - position), at: position)
    }
}
