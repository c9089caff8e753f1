/// MediaPipe's `GeometryPipelineMetadata` message (`mediapipe/tasks/cc/vision/face_geometry/proto/
/// geometry_pipeline_metadata.proto` and `mesh_3d.proto`): the canonical face model and the landmark weights the
/// face geometry pipeline fits it with. `face_landmarker.task` carries it as
/// `geometry_pipeline_metadata_landmarks.binarypb` (proto2 binary).
///
/// Fields read (number, wire type):
/// - `GeometryPipelineMetadata`: 1 `canonical_mesh` (Mesh3d, length-delimited); 2 `procrustes_landmark_basis`
///   (repeated WeightedLandmarkRef); 3 `input_source` (enum varint).
/// - `Mesh3d`: 1 `vertex_type` (enum: 0 VERTEX_PT = x, y, z, u, v per vertex); 2 `primitive_type` (enum: 0
///   TRIANGLE); 3 `vertex_buffer` (repeated float); 4 `index_buffer` (repeated uint32).
/// - `WeightedLandmarkRef`: 1 `landmark_id` (uint32); 2 `weight` (float).
///
/// Repeated scalars are accepted packed or unpacked (the shipped file is unpacked), fields in any order; a message
/// field that occurs twice is merged, as protobuf does; unknown fields are skipped. Decoding also checks what
/// MediaPipe's `ValidateGeometryPipelineMetadata` checks, so a value of this type is always usable.
public struct GeometryPipelineMetadata: Sendable, Equatable {
    /// Where the screen landmarks come from (`InputSource`).
    public enum InputSource: Int, Sendable {
        /// Unset; MediaPipe treats it as `faceLandmarkPipeline`.
        case `default` = 0
        /// Landmarks of the face landmark model (468 points, with depth).
        case faceLandmarkPipeline = 1
        /// The 6 face-detector keypoints (depth taken from the canonical model).
        case faceDetectionPipeline = 2
    }

    /// A landmark of the Procrustes basis and its weight.
    public struct WeightedLandmark: Sendable, Equatable {
        /// The landmark (and canonical vertex) index.
        public var landmarkID: UInt32
        /// Its weight, ≥ 0.
        public var weight: Float
    }

    /// The canonical mesh's vertex layout; only VERTEX_PT (0) exists.
    public var vertexType: Int
    /// The canonical mesh's primitive; only TRIANGLE (0) exists.
    public var primitiveType: Int
    /// The canonical mesh's vertices, 5 floats each: x, y, z (centimetres), u, v.
    public var vertexBuffer: [Float]
    /// The canonical mesh's triangles, 3 vertex indices each.
    public var indexBuffer: [UInt32]
    /// The weighted landmarks the Procrustes fit uses (the others weigh 0).
    public var procrustesLandmarkBasis: [WeightedLandmark]
    /// The landmark source the metadata is made for.
    public var inputSource: InputSource

    /// Floats per vertex of the VERTEX_PT layout.
    public static let vertexSize = 5

    /// The number of canonical vertices.
    public var vertexCount: Int { vertexBuffer.count / Self.vertexSize }

    /// The x, y, z of canonical vertex `index`.
    public func position(of index: Int) -> (x: Float, y: Float, z: Float) {
        let base = index * Self.vertexSize
        return (vertexBuffer[base], vertexBuffer[base + 1], vertexBuffer[base + 2])
    }

    /// Decodes and validates the message.
    ///
    /// - Throws: `ProtobufError` for malformed wire data (`.truncated`, `.malformedVarint`, `.invalidTag`,
    ///   `.unexpectedWireType`, …) and `.invalidValue` naming the field for what MediaPipe's validation refuses:
    ///   an unknown enum value, a missing canonical mesh, a vertex buffer that is not whole vertices or holds a
    ///   non-finite value, a triangle list that is not whole triangles or names a vertex that does not exist, an
    ///   empty basis, a basis landmark that is not a vertex, a negative or non-finite weight.
    public init(bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes: bytes)
        var vertexType: UInt64 = 0
        var primitiveType: UInt64 = 0
        var vertices: [Float] = []
        var indices: [UInt64] = []
        var basis: [WeightedLandmark] = []
        var source: UInt64 = 0
        var hasMesh = false
        let name = "GeometryPipelineMetadata"
        while let key = try reader.nextField() {
            switch key.number {
            case 1:
                hasMesh = true
                var mesh = try reader.embeddedMessage(key, message: name, field: "canonical_mesh")
                while let field = try mesh.nextField() {
                    switch field.number {
                    case 1: vertexType = try mesh.singularVarint(field, message: "Mesh3d")
                    case 2: primitiveType = try mesh.singularVarint(field, message: "Mesh3d")
                    case 3: try mesh.appendFloats(field, to: &vertices, message: "Mesh3d")
                    case 4: try mesh.appendVarints(field, to: &indices, message: "Mesh3d")
                    default: try mesh.skip(field)
                    }
                }
            case 2:
                var entry = try reader.embeddedMessage(key, message: name, field: "procrustes_landmark_basis")
                var landmark = WeightedLandmark(landmarkID: 0, weight: 0)
                while let field = try entry.nextField() {
                    switch field.number {
                    case 1:
                        let id = try entry.singularVarint(field, message: "WeightedLandmarkRef")
                        // uint32 fields keep the low 32 bits of a longer varint, as protobuf parsers do.
                        landmark.landmarkID = UInt32(truncatingIfNeeded: id)
                    case 2: landmark.weight = try entry.singularFloat(field, message: "WeightedLandmarkRef")
                    default: try entry.skip(field)
                    }
                }
                basis.append(landmark)
            case 3:
                source = try reader.singularVarint(key, message: name)
            default:
                try reader.skip(key)
            }
        }

        guard hasMesh else { throw .invalidValue(what: "canonical_mesh", reason: "missing") }
        guard vertexType == 0 else {
            throw .invalidValue(what: "canonical_mesh.vertex_type", reason: "\(vertexType) is not VERTEX_PT (0)")
        }
        guard primitiveType == 0 else {
            throw .invalidValue(
                what: "canonical_mesh.primitive_type", reason: "\(primitiveType) is not TRIANGLE (0)")
        }
        guard let inputSource = InputSource(rawValue: Int(truncatingIfNeeded: source)), source <= 2 else {
            throw .invalidValue(what: "input_source", reason: "\(source) is not 0, 1 or 2")
        }
        guard !vertices.isEmpty, vertices.count % Self.vertexSize == 0 else {
            throw .invalidValue(
                what: "canonical_mesh.vertex_buffer",
                reason: "\(vertices.count) floats are not a positive whole number of 5-float vertices")
        }
        if let bad = vertices.firstIndex(where: { !$0.isFinite }) {
            throw .invalidValue(what: "canonical_mesh.vertex_buffer", reason: "value \(bad) is not finite")
        }
        let vertexCount = vertices.count / Self.vertexSize
        guard indices.count % 3 == 0 else {
            throw .invalidValue(
                what: "canonical_mesh.index_buffer", reason: "\(indices.count) indices are not whole triangles")
        }
        if let bad = indices.first(where: { $0 >= UInt64(vertexCount) }) {
            throw .invalidValue(
                what: "canonical_mesh.index_buffer", reason: "index \(bad) names no vertex (there are \(vertexCount))")
        }
        guard !basis.isEmpty else { throw .invalidValue(what: "procrustes_landmark_basis", reason: "empty") }
        for landmark in basis {
            guard Int(landmark.landmarkID) < vertexCount else {
                throw .invalidValue(
                    what: "procrustes_landmark_basis",
                    reason: "landmark \(landmark.landmarkID) names no vertex (there are \(vertexCount))")
            }
            guard landmark.weight >= 0, landmark.weight.isFinite else {
                throw .invalidValue(
                    what: "procrustes_landmark_basis",
                    reason: "landmark \(landmark.landmarkID) has weight \(landmark.weight), not finite and ≥ 0")
            }
        }
        self.vertexType = Int(vertexType)
        self.primitiveType = Int(primitiveType)
        vertexBuffer = vertices
        indexBuffer = indices.map { UInt32($0) }
        procrustesLandmarkBasis = basis
        self.inputSource = inputSource
    }
}
