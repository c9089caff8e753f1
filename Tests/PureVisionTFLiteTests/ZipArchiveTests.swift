import PureVisionTFLite
import Testing

struct ZipArchiveTests {
    /// A ZIP with one entry per `(name, method, data)`, optionally after `prefix` bytes, with offsets relative to
    /// the archive start (as a tool that appends a ZIP to a model writes them).
    static func makeZip(_ files: [(name: String, method: UInt16, data: [UInt8])], prefix: [UInt8] = []) -> [UInt8] {
        var archive: [UInt8] = []
        var central: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for file in files {
            let offset = UInt32(archive.count)
            let crc = CRC32.checksum(file.data[...])
            let name = Array(file.name.utf8)
            append(UInt32(0x0403_4B50), to: &archive)
            append(UInt16(20), to: &archive)
            append(UInt16(0), to: &archive)
            append(file.method, to: &archive)
            append(UInt32(0), to: &archive)  // time, date
            append(crc, to: &archive)
            append(UInt32(file.data.count), to: &archive)
            append(UInt32(file.data.count), to: &archive)
            append(UInt16(name.count), to: &archive)
            append(UInt16(0), to: &archive)
            archive += name + file.data

            append(UInt32(0x0201_4B50), to: &central)
            append(UInt16(20), to: &central)
            append(UInt16(20), to: &central)
            append(UInt16(0), to: &central)
            append(file.method, to: &central)
            append(UInt32(0), to: &central)
            append(crc, to: &central)
            append(UInt32(file.data.count), to: &central)
            append(UInt32(file.data.count), to: &central)
            append(UInt16(name.count), to: &central)
            append(UInt32(0), to: &central)  // extra and comment lengths
            append(UInt32(0), to: &central)  // disk, internal attributes
            append(UInt32(0), to: &central)  // external attributes
            append(offset, to: &central)
            central += name
        }
        let cdOffset = UInt32(archive.count)
        archive += central
        append(UInt32(0x0605_4B50), to: &archive)
        append(UInt32(0), to: &archive)
        append(UInt16(files.count), to: &archive)
        append(UInt16(files.count), to: &archive)
        append(UInt32(central.count), to: &archive)
        append(cdOffset, to: &archive)
        append(UInt16(0), to: &archive)
        return prefix + archive
    }

    @Test func handLandmarkerTaskBundle() throws {
        let archive = try ZipArchive(bytes: try TestModels.bytes("hand_landmarker.task"))
        #expect(archive.names == ["hand_detector.tflite", "hand_landmarks_detector.tflite"])
        let detector = try archive.data(named: "hand_detector.tflite")
        let landmarks = try archive.data(named: "hand_landmarks_detector.tflite")
        #expect(Array(detector) == (try TestModels.bytes("palm_detection_full.tflite")))
        #expect(Array(landmarks) == (try TestModels.bytes("hand_landmark_full.tflite")))
        #expect(archive.entries[1].dataRange.count == 5_478_917)
        let model = try TFLiteModel(bytes: Array(detector))
        #expect(model.subgraphs[0].operators.count == 272)
    }

    @Test func storedEntryRoundTrip() throws {
        let zip = Self.makeZip([("a.txt", 0, Array("hello".utf8)), ("b.bin", 0, [1, 2, 3])])
        let archive = try ZipArchive(bytes: zip)
        #expect(Array(try archive.data(named: "b.bin")) == [1, 2, 3])
        #expect(archive.entries[0].crc32 == 0x3610_A686)  // CRC-32 of "hello"
    }

    @Test func appendedArchiveUsesDelta() throws {
        let prefix = [UInt8](repeating: 0xAB, count: 1001)
        let zip = Self.makeZip([("labels.txt", 0, Array("cat\ndog\n".utf8))], prefix: prefix)
        let archive = try ZipArchive(bytes: zip)
        #expect(archive.entries[0].dataRange.lowerBound == 1001 + 30 + 10)
        #expect(Array(try archive.data(named: "labels.txt")) == Array("cat\ndog\n".utf8))
    }

    @Test func deflatedEntryIsRejected() throws {
        let archive = try ZipArchive(bytes: Self.makeZip([("model.tflite", 8, [1, 2, 3, 4])]))
        #expect(throws: ModelFormatError.compressedZipEntry("model.tflite")) {
            try archive.data(named: "model.tflite")
        }
    }

    @Test func missingEntryListsAvailableNames() throws {
        let archive = try ZipArchive(bytes: Self.makeZip([("a", 0, [1]), ("b", 0, [2])]))
        #expect(throws: ModelFormatError.missingZipEntry("c", available: ["a", "b"])) {
            try archive.data(named: "c")
        }
    }

    @Test func corruptedDataFailsChecksum() throws {
        var zip = Self.makeZip([("a.txt", 0, Array("hello".utf8))])
        zip[30 + 5] ^= 0x01  // first data byte
        let archive = try ZipArchive(bytes: zip)
        #expect {
            try archive.data(named: "a.txt")
        } throws: { error in
            let formatError = error as? ModelFormatError
            guard case .zipChecksumMismatch(let name, let expected, _)? = formatError else { return false }
            return name == "a.txt" && expected == 0x3610_A686
        }
    }

    @Test func emptyArchiveHasNoEntries() throws {
        let archive = try ZipArchive(bytes: Self.makeZip([], prefix: [1, 2, 3, 4]))
        #expect(archive.entries.isEmpty)
    }

    @Test(arguments: [0, 10, 21])
    func notAZip(length: Int) {
        #expect(throws: ModelFormatError.self) { try ZipArchive(bytes: [UInt8](repeating: 7, count: length)) }
    }

    @Test func truncatedAndMutatedArchivesNeverCrash() throws {
        let zip = Self.makeZip([("a.txt", 0, Array("hello world".utf8)), ("b", 0, [9, 8, 7])])
        for length in 0..<zip.count {
            _ = try? ZipArchive(bytes: Array(zip.prefix(length)))
        }
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            var mutated = zip
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<mutated.count, using: &generator)
                mutated[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if let archive = try? ZipArchive(bytes: mutated) {
                for entry in archive.entries { _ = try? archive.data(named: entry.name) }
            }
        }
    }
}
