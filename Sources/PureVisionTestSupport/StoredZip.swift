/// Writes ZIP archives whose entries are stored (not compressed), as MediaPipe's `.task` bundles are — for tests
/// that need a bundle with a missing, extra or corrupted entry.
public enum StoredZip {
    /// The archive holding `entries` (name, bytes) in order.
    public static func archive(_ entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for (name, bytes) in entries {
            let offset = out.count
            let crc = crc32(bytes)
            let nameBytes = Array(name.utf8)
            var header: [UInt8] = []
            header += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0)
            header += le32(crc) + le32(UInt32(bytes.count)) + le32(UInt32(bytes.count))
            header += le16(UInt16(nameBytes.count)) + le16(0) + nameBytes
            out += header + bytes
            central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0)
            central += le32(crc) + le32(UInt32(bytes.count)) + le32(UInt32(bytes.count))
            central += le16(UInt16(nameBytes.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0)
            central += le32(UInt32(offset)) + nameBytes
        }
        let centralOffset = out.count
        out += central
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(central.count)) + le32(UInt32(centralOffset)) + le16(0)
        return out
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xFF) } }

    /// CRC-32 (IEEE), bit by bit: test data is small.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
