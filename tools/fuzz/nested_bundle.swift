// libFuzzer entry point: nested .task bundles (a ZIP whose stored entries are ZIPs, each possibly preceded by other
// bytes, as MediaPipe's gesture_recognizer.task). The input is read as a ZIP archive and every entry is opened as a
// nested archive, recursively, down to ZipArchive.maximumNestingDepth (every entry's data is read and CRC-checked
// on the way); the innermost entries are also tried as models.
import PureVisionTFLite

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNestedBundle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let archive = try? ZipArchive(bytes: bytes) { walk(archive) }
    return 0
}

private func walk(_ archive: ZipArchive) {
    for name in archive.names {
        if let nested = try? archive.nestedArchive(named: name) {
            precondition(nested.nestingDepth == archive.nestingDepth + 1)
            precondition(nested.nestingDepth <= ZipArchive.maximumNestingDepth)
            walk(nested)
        } else if let member = try? archive.data(named: name), let model = try? TFLiteModel(bytes: Array(member)) {
            _ = try? model.modelMetadata()
        }
    }
}
