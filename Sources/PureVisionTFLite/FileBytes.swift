import PureVisionCore

/// Reads a whole model file into memory.
///
/// - Throws: `.fileNotFound` when nothing exists at `path`, `.fileTooLarge` (before reading) when it is larger than
///   `ModelLimits.maximumFileByteCount`, `.unreadableFile` for any other failure.
package func readFileBytes(_ path: String) throws(ModelFormatError) -> [UInt8] {
    do {
        return try readFileContents(atPath: path, byteLimit: ModelLimits.maximumFileByteCount)
    } catch .notFound {
        throw .fileNotFound(path)
    } catch .tooLarge(let byteCount) {
        throw .fileTooLarge(path: path, byteCount: byteCount, limit: ModelLimits.maximumFileByteCount)
    } catch {
        throw .unreadableFile(path: path, reason: error.reason)
    }
}
