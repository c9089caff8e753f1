import Foundation
import PureVisionImage
import PureVisionTestSupport
import Testing

/// JPEG EXIF orientation against Pillow, on the tiny files of `tools/make_orientation_fixtures.py`: the orientation
/// `PixelImage(contentsOfFile:)` reports is the one Pillow reads, and `uprightImage()` gives Pillow's
/// `exif_transpose` pixels (the decoder matches Pillow's pixels, so exactly).
@Suite struct EXIFOrientationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let orientation: String
        var testDescription: String { file }
    }

    static let directory = "orientation"

    static let cases: [Case] = {
        guard let data = FileManager.default.contents(atPath: fixturePath("\(directory)/cases.json")),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["cases"] as? [[String: Any]]
        else { return [] }
        return list.compactMap { entry in
            guard let file = entry["file"] as? String, let orientation = entry["orientation"] as? String else {
                return nil
            }
            return Case(file: file, orientation: orientation)
        }
    }()

    @Test func everyOrientationHasAFixture() {
        #expect(Self.cases.count == 14)
        #expect(Set(Self.cases.map(\.orientation)) == Set(ImageOrientation.allCases.map(\.rawValue)))
    }

    @Test(arguments: cases)
    func readsTheOrientationPillowReads(_ fixture: Case) throws {
        let path = fixturePath("\(Self.directory)/\(fixture.file)")
        let image = try PixelImage(contentsOfFile: path)
        #expect(image.orientation.rawValue == fixture.orientation)
        #expect(image.width == 12 && image.height == 8)
        try expectPixels(
            image.uprightImage(), equalTo: fixturePath("\(Self.directory)/\(fixture.file).upright.npy"), format: .rgb8)
        // MediaPipe-shaped code refuses the mirrored ones; the four turns agree with `uprightImage()`.
        if image.orientation.isMirrored {
            #expect(throws: ImageError.mirroredOrientation(image.orientation)) { try image.applyingOrientation() }
        } else {
            #expect(packedPixels(try image.applyingOrientation()) == packedPixels(image.uprightImage()))
        }
    }

    @Test func exifValuesRoundTrip() {
        for orientation in ImageOrientation.allCases {
            #expect(ImageOrientation(exifValue: orientation.exifValue) == orientation)
        }
        #expect(ImageOrientation(exifValue: 0) == nil && ImageOrientation(exifValue: 9) == nil)
    }

    /// Every prefix of an oriented file, and the file with any one byte changed, reads without trapping (the full
    /// reader is also fuzzed: tools/fuzz/exif.swift).
    @Test func truncatedAndCorruptedHeadersNeverTrap() throws {
        let bytes = try Fixtures.bytes(atPath: fixturePath("\(Self.directory)/orient_6.jpg"))
        for length in 0...min(bytes.count, 120) {
            _ = EXIFOrientationReader.orientation(ofJPEG: Array(bytes.prefix(length)))
        }
        for index in 0..<min(bytes.count, 120) {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0xFF] {
                var changed = bytes
                changed[index] = value
                _ = EXIFOrientationReader.orientation(ofJPEG: changed)
            }
        }
        #expect(EXIFOrientationReader.orientation(ofJPEG: bytes) == .right)
    }
}
