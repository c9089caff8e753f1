extension ImageOrientation {
    /// The orientation of an EXIF / TIFF `Orientation` tag value (also `CGImagePropertyOrientation`'s raw value):
    /// 1 up, 2 up mirrored, 3 down, 4 down mirrored, 5 left mirrored, 6 right, 7 right mirrored, 8 left; nil for
    /// any other value.
    public init?(exifValue: Int) {
        switch exifValue {
        case 1: self = .up
        case 2: self = .upMirrored
        case 3: self = .down
        case 4: self = .downMirrored
        case 5: self = .leftMirrored
        case 6: self = .right
        case 7: self = .rightMirrored
        case 8: self = .left
        default: return nil
        }
    }

    /// The EXIF / TIFF `Orientation` tag value of the orientation (1…8).
    public var exifValue: Int {
        switch self {
        case .up: 1
        case .upMirrored: 2
        case .down: 3
        case .downMirrored: 4
        case .leftMirrored: 5
        case .right: 6
        case .rightMirrored: 7
        case .left: 8
        }
    }
}

/// Reads the `Orientation` tag (0x0112) of a JPEG file's EXIF block, with every offset bounds-checked: anything
/// malformed (a truncated segment, an offset past the block, a loop of IFD links …) reads as "no orientation".
///
/// The JPEG is walked marker by marker up to the first scan (`SOS`); the first `APP1` segment that starts
/// `Exif\0\0` holds a TIFF header (`II*\0` little-endian or `MM\0*` big-endian) whose first IFD (IFD0) is searched
/// for the tag, type SHORT, count 1. Nothing else of the EXIF data is interpreted.
package enum EXIFOrientationReader {
    /// The orientation a JPEG's EXIF data declares; nil when there is none or it cannot be read.
    package static func orientation(ofJPEG bytes: [UInt8]) -> ImageOrientation? {
        guard let value = bytes.withUnsafeBufferPointer({ tagValue(jpeg: $0) }) else { return nil }
        return ImageOrientation(exifValue: value)
    }

    /// The raw `Orientation` value of a JPEG's EXIF data.
    static func tagValue(jpeg: UnsafeBufferPointer<UInt8>) -> Int? {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var position = 2
        while position + 4 <= jpeg.count {
            guard jpeg[position] == 0xFF else { return nil }
            let marker = jpeg[position + 1]
            if marker == 0xFF {  // a fill byte before the marker
                position += 1
                continue
            }
            // Markers without a length: TEM and RST0…7 (SOI / EOI do not occur before the scan in a valid file).
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                position += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // the scan (or the end) starts: no EXIF before it
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            guard length >= 2, position + 2 + length <= jpeg.count else { return nil }
            let segment = (position + 4)..<(position + 2 + length)
            if marker == 0xE1, segment.count >= 6,
                jpeg[segment.lowerBound..<segment.lowerBound + 6].elementsEqual(
                    [0x45, 0x78, 0x69, 0x66, 0x00, 0x00])
            {
                return tagValue(
                    tiff: UnsafeBufferPointer(rebasing: jpeg[(segment.lowerBound + 6)..<segment.upperBound]))
            }
            position = segment.upperBound
        }
        return nil
    }

    /// The raw `Orientation` value in IFD0 of a TIFF structure (an EXIF block after its `Exif\0\0` prefix).
    static func tagValue(tiff: UnsafeBufferPointer<UInt8>) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset <= tiff.count - 2 else { return nil }
            let (a, b) = (Int(tiff[offset]), Int(tiff[offset + 1]))
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
            return littleEndian ? first | second << 16 : first << 16 | second
        }
        guard u16(2) == 42, let ifd = u32(4), ifd >= 8, ifd < tiff.count, let entryCount = u16(ifd) else { return nil }
        for entry in 0..<entryCount {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2), let count = u32(at + 4) else { return nil }
            if tag == 0x0112 {
                // SHORT, one value: stored in the first two bytes of the value field.
                guard type == 3, count == 1 else { return nil }
                return u16(at + 8)
            }
        }
        return nil
    }
}
