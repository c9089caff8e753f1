import Foundation

/// One case of `tools/make_yuv_goldens.py` (`Tests/PureVisionImageTests/Fixtures/yuv/`): a YUV 4:2:0 frame stored
/// plane by plane with its strides, and the RGB levels it converts to.
public struct YUVGoldenCase: Sendable, CustomStringConvertible {
    /// The case's file stem, e.g. `nv12_video_bt601_70x26`.
    public let name: String
    /// `nv12`, `nv21` or `i420`.
    public let layout: String
    /// `video` or `full`.
    public let range: String
    /// `bt601` or `bt709`.
    public let matrix: String
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// Row strides of the Y plane, the first chroma plane and (I420) the V plane.
    public let strides: [Int]
    /// Regions [x, y, width, height] whose expected RGB is the same slice of `rgb`.
    public let regions: [[Int]]

    /// The case name.
    public var description: String { name }

    private static let directory = "PureVisionImageTests/Fixtures/yuv"

    /// Every case in `cases.json`.
    public static func all() throws -> [YUVGoldenCase] {
        let json = try Fixtures.bytes(atPath: Fixtures.testFile("\(directory)/cases.json"))
        guard let root = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
            let cases = root["cases"] as? [[String: Any]]
        else { throw FixtureError.missing("cases in \(directory)/cases.json") }
        return try cases.map { entry in
            guard let name = entry["name"] as? String, let layout = entry["layout"] as? String,
                let range = entry["range"] as? String, let matrix = entry["matrix"] as? String,
                let width = entry["width"] as? Int, let height = entry["height"] as? Int,
                let strides = entry["strides"] as? [Int], let regions = entry["rois"] as? [[Int]]
            else { throw FixtureError.missing("a complete case in \(directory)/cases.json") }
            return YUVGoldenCase(
                name: name, layout: layout, range: range, matrix: matrix, width: width, height: height,
                strides: strides, regions: regions)
        }
    }

    /// The bytes of plane `index` (0: Y, 1: chroma or U, 2: V), with their stride padding.
    public func plane(_ index: Int) throws -> [UInt8] {
        let suffix = ["y", "c1", "c2"][index]
        return try Fixtures.numpy(atPath: Fixtures.testFile("\(Self.directory)/\(name)_\(suffix).npy")).bytes
    }

    /// The expected RGB levels, (height, width, 3) row-major.
    public func rgb() throws -> [UInt8] {
        try Fixtures.numpy(atPath: Fixtures.testFile("\(Self.directory)/\(name)_rgb.npy")).bytes
    }
}
