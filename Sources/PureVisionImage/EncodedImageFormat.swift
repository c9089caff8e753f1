/// The encoded image formats the decoder reads, recognised by their leading bytes.
public enum EncodedImageFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG: the 8-byte signature `89 50 4E 47 0D 0A 1A 0A`.
    case png
    /// JPEG: a start-of-image marker followed by another marker, `FF D8 FF`.
    case jpeg

    /// The format whose signature starts `bytes`, or `nil` when none does.
    public static func sniff(_ bytes: some Collection<UInt8>) -> EncodedImageFormat? {
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }
}
