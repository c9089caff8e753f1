#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why `readFileContents(atPath:byteLimit:)` read nothing.
package enum FileReadFailure: Error, Equatable, Sendable {
    /// Nothing exists at the path.
    case notFound
    /// The path names a directory, a device or a pipe: only regular files are read.
    case notRegularFile
    /// The file holds `byteCount` bytes, more than the caller's limit; nothing was read.
    case tooLarge(byteCount: Int)
    /// Opening, sizing or reading failed; `reason` is the system's message.
    case unreadable(reason: String)

    /// A sentence for an error message, without the path.
    package var reason: String {
        switch self {
        case .notFound: "no such file"
        case .notRegularFile: "not a regular file"
        case .tooLarge(let byteCount): "the file is too large (\(byteCount) bytes)"
        case .unreadable(let reason): reason
        }
    }
}

/// Reads a whole regular file with stdio.
///
/// Every file the package opens (models, images, label files) goes through here rather than
/// `FileManager.contents(atPath:)`, which on Linux keeps its 4 KiB read buffer when the file is empty (swift-foundation
/// 6.3, seen by LeakSanitizer) and gives no reason when it fails.
/// - Parameter byteLimit: files larger than this are refused before anything is allocated.
/// - Throws: `FileReadFailure`.
package func readFileContents(atPath path: String, byteLimit: Int = .max) throws(FileReadFailure) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        let code = errno
        if code == ENOENT { throw .notFound }
        throw .unreadable(reason: String(cString: strerror(code)))
    }
    defer { fclose(file) }
    var status = stat()
    guard fstat(fileno(file), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile }
    guard fseek(file, 0, SEEK_END) == 0 else { throw .unreadable(reason: "not seekable") }
    let size = ftell(file)
    guard size >= 0, fseek(file, 0, SEEK_SET) == 0 else { throw .unreadable(reason: "cannot determine the size") }
    let count = Int(size)
    guard count <= byteLimit else { throw .tooLarge(byteCount: count) }
    // An empty file: no `Array(unsafeUninitializedCapacity: 0)`, which writes into the shared empty-array singleton.
    guard count > 0 else { return [] }
    var readCount = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        if let base = buffer.baseAddress { readCount = fread(base, 1, count, file) }
        // Bytes past a short read are zeroed so the array is always fully initialized.
        for index in readCount..<count { buffer[index] = 0 }
        initialized = count
    }
    guard readCount == count else { throw .unreadable(reason: "short read (\(readCount) of \(count) bytes)") }
    return bytes
}
