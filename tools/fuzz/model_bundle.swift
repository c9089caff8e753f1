// libFuzzer entry point: the ZIP reader (.task bundles, and the associated files appended to a .tflite) and the
// model metadata reader (TFLITE_METADATA, "M001" flatbuffers). The input is tried as a ZIP archive (every member
// read, CRC checked, members parsed as models), as a model with metadata and associated files, and as a bare
// metadata buffer.
import PureVisionTFLite

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelBundle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let archive = try? ZipArchive(bytes: bytes) {
        for name in archive.names {
            guard let member = try? archive.data(named: name) else { continue }
            if let model = try? TFLiteModel(bytes: Array(member)) { inspect(model) }
        }
    }
    if let model = try? TFLiteModel(bytes: bytes) { inspect(model) }
    _ = try? ModelMetadata(bytes: bytes)
    return 0
}

private func inspect(_ model: TFLiteModel) {
    _ = try? model.modelMetadata()
    if let files = model.associatedFiles() {
        for name in files.names { _ = try? files.data(named: name) }
    }
}
