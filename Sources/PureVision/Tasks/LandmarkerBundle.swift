import PureVisionTFLite

extension LoadedModel {
    /// The detector's and the landmark model's bytes from a two-stage landmarker's `.task` bundle (a stored ZIP); a
    /// bundle without either entry is refused, naming it.
    /// - Parameter landmarker: names the bundle in errors ("hand landmarker").
    static func landmarkerBundle(
        _ baseOptions: BaseOptions, detectorEntry: String, landmarksEntry: String, landmarker: String
    ) throws(VisionTaskError) -> (detector: [UInt8], landmarks: [UInt8]) {
        let bundle = try bytes(of: baseOptions)
        do throws(ModelFormatError) {
            let archive = try ZipArchive(bytes: bundle)
            let detector = try archive.data(named: detectorEntry)
            let landmarks = try archive.data(named: landmarksEntry)
            return (Array(detector), Array(landmarks))
        } catch {
            throw .model("\(landmarker) bundle: \(error)")
        }
    }
}
