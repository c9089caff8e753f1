/// A read-only view of a ZIP archive: MediaPipe `.task` bundles and the associated files appended to models.
///
/// The archive may sit at the end of other data (a model's flatbuffer): like minizip and Python's `zipfile`, the
/// reader locates the End Of Central Directory record, computes `delta = EOCD position − (cd offset + cd size)`
/// and adds it to every recorded offset. ZIP64 records are honoured. Only stored (method 0) entries can be read,
/// in place; their CRC-32 is verified on read.
public struct ZipArchive: Sendable {
    /// One entry of the central directory.
    public struct Entry: Sendable, Hashable {
        /// The entry name (path inside the archive).
        public var name: String
        /// The compression method (0 = stored, 8 = deflate).
        public var method: UInt16
        /// Stored bytes of the entry.
        public var compressedSize: Int
        /// Bytes of the entry once decompressed.
        public var uncompressedSize: Int
        /// CRC-32 recorded in the central directory.
        public var crc32: UInt32
        /// The entry's (possibly compressed) bytes within `ZipArchive.bytes`.
        public var dataRange: Range<Int>
    }

    /// The bytes the archive was read from (including any data before it).
    public let bytes: [UInt8]
    /// The entries, in central-directory order.
    public var entries: [Entry]
    /// How many archives enclose this one: 0 for an archive read from a file, 1 for one opened with
    /// `nestedArchive(named:)` from it, and so on.
    public let nestingDepth: Int

    /// The deepest `nestingDepth` that `nestedArchive(named:)` opens. MediaPipe's bundles nest one level
    /// (`gesture_recognizer.task` holds `hand_landmarker.task` and `hand_gesture_recognizer.task`); the limit keeps
    /// a crafted archive of archives from being followed without end.
    public static let maximumNestingDepth = 4

    private static let eocdSignature: UInt32 = 0x0605_4B50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    private static let zip64EOCDSignature: UInt32 = 0x0606_4B50
    private static let centralSignature: UInt32 = 0x0201_4B50
    private static let localSignature: UInt32 = 0x0403_4B50

    /// Reads the central directory and every local header.
    ///
    /// - Throws: `.malformedZip` describing the first inconsistency found.
    public init(bytes: [UInt8]) throws(ModelFormatError) {
        try self.init(bytes: bytes, nestingDepth: 0)
    }

    private init(bytes: [UInt8], nestingDepth: Int) throws(ModelFormatError) {
        self.bytes = bytes
        self.nestingDepth = nestingDepth
        let reader = ZipByteReader(bytes: bytes)
        let eocd = try Self.findEOCD(reader)
        var entryCount = Int(try reader.u16(eocd + 10))
        var cdSize = Int(try reader.u32(eocd + 12))
        var cdOffset = Int(try reader.u32(eocd + 16))
        var directoryEnd = eocd

        let locator = eocd - 20
        if locator >= 0, try reader.u32(locator) == Self.zip64LocatorSignature {
            let record64 = try reader.u64(locator + 8)
            guard record64 <= UInt64(bytes.count) else { throw .malformedZip("ZIP64 EOCD offset \(record64)") }
            // The ZIP64 record is found relative to the archive start; with data prepended it sits just before
            // the locator, which is where it is looked for when the recorded offset does not match.
            var position = Int(record64)
            if try reader.u32(position, orZero: true) != Self.zip64EOCDSignature {
                position = locator - 56
            }
            guard position >= 0, try reader.u32(position) == Self.zip64EOCDSignature else {
                throw .malformedZip("ZIP64 end of central directory record not found")
            }
            let count64 = try reader.u64(position + 32)
            let size64 = try reader.u64(position + 40)
            let offset64 = try reader.u64(position + 48)
            let limit = UInt64(bytes.count)
            guard count64 <= limit, size64 <= limit, offset64 <= limit else {
                throw .malformedZip("ZIP64 central directory out of range")
            }
            entryCount = Int(count64)
            cdSize = Int(size64)
            cdOffset = Int(offset64)
            directoryEnd = position
        }

        let delta = directoryEnd - (cdOffset + cdSize)
        guard delta >= 0 else { throw .malformedZip("central directory (offset \(cdOffset), size \(cdSize)) overruns") }
        let cdStart = cdOffset + delta
        // Each central record is at least 46 bytes, which bounds the entry count by the directory size.
        guard entryCount <= cdSize / 46 else { throw .malformedZip("\(entryCount) entries in \(cdSize) bytes") }

        var entries: [Entry] = []
        entries.reserveCapacity(entryCount)
        var position = cdStart
        for index in 0..<entryCount {
            guard try reader.u32(position) == Self.centralSignature else {
                throw .malformedZip("central directory entry \(index) at byte \(position) has a bad signature")
            }
            let method = try reader.u16(position + 10)
            let crc = try reader.u32(position + 16)
            var compressed = UInt64(try reader.u32(position + 20))
            var uncompressed = UInt64(try reader.u32(position + 24))
            let nameLength = Int(try reader.u16(position + 28))
            let extraLength = Int(try reader.u16(position + 30))
            let commentLength = Int(try reader.u16(position + 32))
            var localOffset = UInt64(try reader.u32(position + 42))
            let nameStart = position + 46
            try reader.check(nameStart, nameLength + extraLength + commentLength, "central entry \(index)")
            let name = String(decoding: bytes[nameStart..<(nameStart + nameLength)], as: UTF8.self)

            if compressed == 0xFFFF_FFFF || uncompressed == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF {
                // The ZIP64 extra field (id 1) holds, in order, only the values saturated above.
                var extra = nameStart + nameLength
                let extraEnd = extra + extraLength
                var found = false
                while extra + 4 <= extraEnd {
                    let id = try reader.u16(extra)
                    let size = Int(try reader.u16(extra + 2))
                    guard extra + 4 + size <= extraEnd else { break }
                    if id == 1 {
                        var field = extra + 4
                        let fieldEnd = field + size
                        func next() throws(ModelFormatError) -> UInt64 {
                            guard field + 8 <= fieldEnd else { throw .malformedZip("short ZIP64 extra for \(name)") }
                            defer { field += 8 }
                            return try reader.u64(field)
                        }
                        if uncompressed == 0xFFFF_FFFF { uncompressed = try next() }
                        if compressed == 0xFFFF_FFFF { compressed = try next() }
                        if localOffset == 0xFFFF_FFFF { localOffset = try next() }
                        found = true
                        break
                    }
                    extra += 4 + size
                }
                guard found else { throw .malformedZip("entry \(name) lacks its ZIP64 extra field") }
            }

            let limit = UInt64(bytes.count)
            guard localOffset <= limit, compressed <= limit, uncompressed <= UInt64(Int.max) else {
                throw .malformedZip("entry \(name) sizes or offset out of range")
            }
            let local = Int(localOffset) + delta
            guard try reader.u32(local) == Self.localSignature else {
                throw .malformedZip("entry \(name): no local header at byte \(local)")
            }
            let localName = Int(try reader.u16(local + 26))
            let localExtra = Int(try reader.u16(local + 28))
            let dataStart = local + 30 + localName + localExtra
            try reader.check(dataStart, Int(compressed), "data of \(name)")
            if method == 0, compressed != uncompressed {
                throw .malformedZip("stored entry \(name) has compressed size \(compressed) ≠ \(uncompressed)")
            }
            entries.append(
                Entry(
                    name: name, method: method, compressedSize: Int(compressed), uncompressedSize: Int(uncompressed),
                    crc32: crc, dataRange: dataStart..<(dataStart + Int(compressed))))
            position = nameStart + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// The names of all entries, in order.
    public var names: [String] { entries.map(\.name) }

    /// The bytes of the stored entry `name`, after checking its CRC-32.
    ///
    /// - Throws: `.missingZipEntry` (listing the available names), `.compressedZipEntry` for a compressed entry
    ///   (as MediaPipe, which requires uncompressed bundles), `.zipChecksumMismatch` for corrupted data.
    public func data(named name: String) throws(ModelFormatError) -> ArraySlice<UInt8> {
        guard let entry = entries.first(where: { $0.name == name }) else {
            throw .missingZipEntry(name, available: names)
        }
        guard entry.method == 0 else { throw .compressedZipEntry(name) }
        let data = bytes[entry.dataRange]
        let actual = CRC32.checksum(data)
        guard actual == entry.crc32 else {
            throw .zipChecksumMismatch(name: name, expected: entry.crc32, actual: actual)
        }
        return data
    }

    /// The stored entry `name`, itself a ZIP archive (a `.task` bundle inside a `.task` bundle), opened as one.
    ///
    /// The entry's bytes are CRC-checked as by `data(named:)` and copied. Like any archive they may be preceded by
    /// other bytes (MediaPipe's nested bundles start 2–3 bytes in): entries are found through the end of central
    /// directory record.
    /// - Throws: `data(named:)`'s errors; `.context("nested archive NAME", …)` around any error reading the inner
    ///   archive; `.malformedZip` when the result would nest deeper than `maximumNestingDepth`.
    public func nestedArchive(named name: String) throws(ModelFormatError) -> ZipArchive {
        guard nestingDepth < Self.maximumNestingDepth else {
            throw .malformedZip(
                "entry \(name) would open an archive nested \(nestingDepth + 1) deep; at most "
                    + "\(Self.maximumNestingDepth) levels are followed")
        }
        let data = try data(named: name)
        return try withContext("nested archive \(name)") { () throws(ModelFormatError) -> ZipArchive in
            try ZipArchive(bytes: Array(data), nestingDepth: nestingDepth + 1)
        }
    }

    /// The position of the End Of Central Directory record: the last signature within the final 65,535 + 22
    /// bytes whose comment length reaches exactly to the end of the data.
    private static func findEOCD(_ reader: ZipByteReader) throws(ModelFormatError) -> Int {
        let count = reader.bytes.count
        guard count >= 22 else { throw .malformedZip("too short for an end of central directory record") }
        let lowest = max(0, count - 22 - 65_535)
        var position = count - 22
        while position >= lowest {
            if reader.bytes[position] == 0x50, try reader.u32(position) == eocdSignature,
                Int(try reader.u16(position + 20)) == count - 22 - position
            {
                return position
            }
            position -= 1
        }
        throw .malformedZip("no end of central directory record")
    }
}

/// The ZIP entry type, also reachable as `ZipArchive.Entry`.
public typealias ZipEntry = ZipArchive.Entry

/// Bounds-checked little-endian reads for the ZIP structures.
private struct ZipByteReader {
    let bytes: [UInt8]

    func check(_ position: Int, _ size: Int, _ what: String) throws(ModelFormatError) {
        guard position >= 0, size >= 0, position <= bytes.count, size <= bytes.count - position else {
            throw .malformedZip("\(what) at byte \(position) runs past the end")
        }
    }

    private func load<T: FixedWidthInteger>(_: T.Type, _ position: Int) throws(ModelFormatError) -> T {
        try check(position, MemoryLayout<T>.size, "record")
        return T(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: T.self) })
    }

    func u16(_ position: Int) throws(ModelFormatError) -> UInt16 { try load(UInt16.self, position) }
    func u32(_ position: Int) throws(ModelFormatError) -> UInt32 { try load(UInt32.self, position) }
    func u64(_ position: Int) throws(ModelFormatError) -> UInt64 { try load(UInt64.self, position) }

    /// The value at `position`, or 0 when it does not fit (for probing).
    func u32(_ position: Int, orZero: Bool) throws(ModelFormatError) -> UInt32 {
        guard position >= 0, position <= bytes.count - 4 else { return 0 }
        return try u32(position)
    }
}
