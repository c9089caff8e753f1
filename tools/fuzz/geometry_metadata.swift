// libFuzzer entry point: the protobuf wire reader (ProtobufReader) and the face geometry metadata decoder
// (GeometryPipelineMetadata, `geometry_pipeline_metadata_landmarks.binarypb` of face_landmarker.task). The input is
// decoded as the metadata message, and walked as a generic message: every field read or skipped, every
// length-delimited value tried as an embedded message (to a bounded depth) and as packed floats and varints.
import PureVisionTFLite

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeometryMetadata(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let metadata = try? GeometryPipelineMetadata(bytes: bytes) {
        // Every accessor on a decoded value must stay in bounds.
        for i in 0..<metadata.vertexCount { _ = metadata.position(of: i) }
    }
    var reader = ProtobufReader(bytes: bytes)
    walk(&reader, depth: 0)
    return 0
}

private func walk(_ reader: inout ProtobufReader, depth: Int) {
    while let key = try? reader.nextField() {
        switch key.wireType {
        case .lengthDelimited:
            var copy = reader
            var floats: [Float] = []
            var varints: [UInt64] = []
            _ = try? copy.appendFloats(key, to: &floats, message: "fuzz")
            copy = reader
            _ = try? copy.appendVarints(key, to: &varints, message: "fuzz")
            guard var inner = try? reader.message(what: "fuzz") else { return }
            if depth < 8 { walk(&inner, depth: depth + 1) }
        default:
            guard (try? reader.skip(key)) != nil else { return }
        }
    }
}
