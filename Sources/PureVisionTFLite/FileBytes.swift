#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole model file into memory with stdio.
///
/// - Throws: `.fileNotFound` when nothing exists at `path`, `.fileTooLarge` (before reading) when it is larger than
///   `ModelLimits.maximumFileByteCount`, `.unreadableFile` for any other failure.
package func readFileBytes(_ path: String) throws(ModelFormatError) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        let code = errno
        if code == ENOENT { throw .fileNotFound(path) }
        throw .unreadableFile(path: path, reason: String(cString: strerror(code)))
    }
    defer { fclose(file) }
    var status = stat()
    guard fstat(fileno(file), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
        throw .unreadableFile(path: path, reason: "not a regular file")
    }
    guard fseek(file, 0, SEEK_END) == 0 else { throw .unreadableFile(path: path, reason: "not seekable") }
    let size = ftell(file)
    guard size >= 0, fseek(file, 0, SEEK_SET) == 0 else {
        throw .unreadableFile(path: path, reason: "cannot determine the size")
    }
    let count = Int(size)
    guard count <= ModelLimits.maximumFileByteCount else {
        throw .fileTooLarge(path: path, byteCount: count, limit: ModelLimits.maximumFileByteCount)
    }
    // An empty file: no `Array(unsafeUninitializedCapacity: 0)`, which writes into the shared empty-array singleton.
    guard count > 0 else { return [] }
    var readCount = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        if let base = buffer.baseAddress, count > 0 {
            readCount = fread(base, 1, count, file)
        }
        // Bytes past a short read are zeroed so the array is always fully initialized.
        for index in readCount..<count { buffer[index] = 0 }
        initialized = count
    }
    guard readCount == count else { throw .unreadableFile(path: path, reason: "short read (\(readCount) of \(count))") }
    return bytes
}
