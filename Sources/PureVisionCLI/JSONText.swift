import Foundation
import PureVision
import PureVisionImage

/// The CLI's hand-written JSON lines: string quoting and the pieces several subcommands' lines share.
enum JSONText {
    /// `text` as a JSON string, quotes included.
    static func quoted(_ text: String) -> String {
        let escaped = escapingControlCharacters(text) { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case let s where s.value < 0x20: String(format: "\\u%04x", s.value)
            default: nil
            }
        }
        return "\"" + escaped + "\""
    }

    /// One image's JSON line: `{"image","width","height"`, then `"timestampMs"` when `timestamp` is given, then
    /// `fields` (already-encoded `"key":value` pairs, comma-separated).
    static func imageLine(_ name: String, _ image: PixelImage, timestamp: Int? = nil, _ fields: String) -> String {
        let time = timestamp.map { #","timestampMs":\#($0)"# } ?? ""
        return #"{"image":\#(quoted(name)),"width":\#(image.width),"height":\#(image.height)\#(time),\#(fields)}"#
    }

    /// A category as `{"index","score","categoryName"}`; a missing one is index -1, score 0, name "".
    static func category(_ c: ResultCategory?) -> String {
        #"{"index":\#(c?.index ?? -1),"score":\#(c?.score ?? 0),"categoryName":\#(quoted(c?.categoryName ?? ""))}"#
    }

    /// Landmarks as `[[x,y,z],…]`, without the brackets around the list.
    static func xyz(_ landmarks: [some LandmarkPoint]) -> String {
        landmarks.map { "[\($0.x),\($0.y),\($0.z)]" }.joined(separator: ",")
    }
}

/// A landmark as the JSON lines write it: `NormalizedLandmark` (image coordinates) and `Landmark` (world
/// coordinates) alike.
protocol LandmarkPoint {
    var x: Float { get }
    var y: Float { get }
    var z: Float { get }
    var visibility: Float? { get }
    var presence: Float? { get }
}

extension NormalizedLandmark: LandmarkPoint {}
extension Landmark: LandmarkPoint {}
