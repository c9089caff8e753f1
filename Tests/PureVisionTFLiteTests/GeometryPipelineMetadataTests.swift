import Foundation
import PureVisionTFLite
import PureVisionTestSupport
import Testing

/// The protobuf wire reader and the face geometry metadata it decodes: the real message of `face_landmarker.task`
/// (contents checked against the facts in MediaPipe's `geometry_pipeline_metadata_landmarks.pbtxt` as restated in
/// the project's face-landmarker notes), the packed encoding, and typed errors for truncated and corrupt input.
@Suite struct GeometryPipelineMetadataTests {
    static func realMessage() throws -> [UInt8] {
        let bundle = try Fixtures.bytes(atPath: Fixtures.model("face_landmarker.task"))
        return Array(try ZipArchive(bytes: bundle).data(named: "geometry_pipeline_metadata_landmarks.binarypb"))
    }

    /// The landmark ids of the Procrustes basis, in file order (MediaPipe's pbtxt).
    static let basisIDs: [UInt32] = [
        4, 6, 10, 33, 54, 67, 117, 119, 121, 127, 129, 132, 133, 136, 143, 147, 198, 205, 263, 284, 297, 346, 348, 350,
        356, 358, 361, 362, 365, 372, 376, 420, 425,
    ]

    // MARK: A minimal encoder for test messages.

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value != 0
        return bytes
    }

    static func tag(_ field: Int, _ wireType: Int) -> [UInt8] { varint(UInt64(field << 3 | wireType)) }
    static func fixed32(_ value: Float) -> [UInt8] {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
    }
    static func lengthDelimited(_ field: Int, _ payload: [UInt8]) -> [UInt8] {
        tag(field, 2) + varint(UInt64(payload.count)) + payload
    }

    /// A metadata message: the mesh's floats and indices packed, the basis as given.
    static func message(
        vertices: [Float], indices: [UInt64], basis: [(UInt32, Float)], inputSource: UInt64? = 1, vertexType: UInt64 = 0
    ) -> [UInt8] {
        var mesh = tag(1, 0) + varint(vertexType) + tag(2, 0) + varint(0)
        mesh += lengthDelimited(3, vertices.flatMap(fixed32))
        mesh += lengthDelimited(4, indices.flatMap { varint($0) })
        var bytes = lengthDelimited(1, mesh)
        for (id, weight) in basis {
            bytes += lengthDelimited(2, tag(1, 0) + varint(UInt64(id)) + tag(2, 5) + fixed32(weight))
        }
        if let inputSource { bytes += tag(3, 0) + varint(inputSource) }
        return bytes
    }

    static let triangle: [Float] = [0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]

    // MARK: Tests

    @Test func decodesTheBundledMessage() throws {
        let bytes = try Self.realMessage()
        #expect(bytes.count == 19_376)
        let metadata = try GeometryPipelineMetadata(bytes: bytes)
        #expect(metadata.vertexType == 0 && metadata.primitiveType == 0)
        #expect(metadata.inputSource == .faceLandmarkPipeline)
        #expect(metadata.vertexCount == 468)
        #expect(metadata.vertexBuffer.count == 2_340)
        #expect(metadata.indexBuffer.count == 2_694)
        #expect(metadata.indexBuffer.allSatisfy { $0 < 468 })
        #expect(metadata.procrustesLandmarkBasis.map(\.landmarkID) == Self.basisIDs)
        #expect(metadata.procrustesLandmarkBasis.allSatisfy { $0.weight > 0 })
        let xs = (0..<468).map { metadata.position(of: $0).x }
        let ys = (0..<468).map { metadata.position(of: $0).y }
        let zs = (0..<468).map { metadata.position(of: $0).z }
        // Positions in centimetres: x within ±7.74, y in [−9.40, 8.26], z in [−2.44, 7.59].
        #expect(abs((xs.max() ?? 0) - 7.74) < 0.01 && abs((xs.min() ?? 0) + 7.74) < 0.01)
        #expect(abs((ys.min() ?? 0) + 9.40) < 0.01 && abs((ys.max() ?? 0) - 8.26) < 0.01)
        #expect(abs((zs.min() ?? 0) + 2.44) < 0.01 && abs((zs.max() ?? 0) - 7.59) < 0.01)
    }

    /// The shipped file writes repeated fields unpacked; the packed form of the same values decodes the same.
    @Test func packedAndUnpackedAgree() throws {
        let real = try GeometryPipelineMetadata(bytes: Self.realMessage())
        let packed = Self.message(
            vertices: real.vertexBuffer, indices: real.indexBuffer.map(UInt64.init),
            basis: real.procrustesLandmarkBasis.map { ($0.landmarkID, $0.weight) })
        #expect(try GeometryPipelineMetadata(bytes: packed) == real)
        // Fields in another order, an unknown field skipped, and the mesh split over two occurrences (merged).
        let half = 5 * 234
        let firstHalf =
            Self.tag(3, 2) + Self.varint(UInt64(4 * half)) + real.vertexBuffer[..<half].flatMap(Self.fixed32)
        let secondHalf =
            Self.tag(3, 2) + Self.varint(UInt64(4 * (real.vertexBuffer.count - half)))
            + real.vertexBuffer[half...].flatMap(Self.fixed32)
            + Self.lengthDelimited(
                4,
                real.indexBuffer.flatMap {
                    Self.varint(UInt64($0))
                })
        var reordered = Self.tag(3, 0) + Self.varint(1) + Self.tag(15, 1) + [UInt8](repeating: 7, count: 8)
        for entry in real.procrustesLandmarkBasis {
            reordered += Self.lengthDelimited(
                2, Self.tag(2, 5) + Self.fixed32(entry.weight) + Self.tag(1, 0) + Self.varint(UInt64(entry.landmarkID)))
        }
        reordered += Self.lengthDelimited(1, firstHalf) + Self.lengthDelimited(1, secondHalf)
        #expect(try GeometryPipelineMetadata(bytes: reordered) == real)
    }

    /// Every cut inside the canonical mesh (the first field, most of the file) is a typed error; no cut crashes.
    @Test func truncationIsATypedError() throws {
        let bytes = try Self.realMessage()
        var reader = ProtobufReader(bytes: bytes)
        let key = try #require(try reader.nextField())
        #expect(key.number == 1 && key.wireType == .lengthDelimited)
        let meshEnd = try reader.lengthDelimitedRange().upperBound
        #expect(meshEnd > 18_000)
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            let prefix = Array(bytes[..<cut])
            if cut < meshEnd {
                #expect(throws: ProtobufError.self, "cut at \(cut)") { try GeometryPipelineMetadata(bytes: prefix) }
            } else {
                _ = try? GeometryPipelineMetadata(bytes: prefix)
            }
        }
        #expect(throws: ProtobufError.truncated(what: "GeometryPipelineMetadata.canonical_mesh", offset: 1)) {
            try GeometryPipelineMetadata(bytes: Array(bytes[..<100]))
        }
        #expect(throws: ProtobufError.invalidValue(what: "canonical_mesh", reason: "missing")) {
            try GeometryPipelineMetadata(bytes: [])
        }
    }

    @Test func corruptWireDataIsATypedError() throws {
        // An 11-byte varint, field number 0, wire types 6 and 3 (group), the mesh sent as a varint.
        #expect(throws: ProtobufError.malformedVarint(offset: 1)) {
            try GeometryPipelineMetadata(bytes: [0x18] + [UInt8](repeating: 0xFF, count: 10) + [0x01])
        }
        #expect(throws: ProtobufError.invalidTag(tag: 2, offset: 0)) { try GeometryPipelineMetadata(bytes: [0x02, 0]) }
        #expect(throws: ProtobufError.invalidTag(tag: 0x0E, offset: 0)) { try GeometryPipelineMetadata(bytes: [0x0E]) }
        #expect(throws: ProtobufError.unsupportedGroup(field: 5, offset: 0)) {
            try GeometryPipelineMetadata(bytes: [0x2B, 0x2C])
        }
        #expect(
            throws: ProtobufError.unexpectedWireType(
                message: "GeometryPipelineMetadata", field: 1, wireType: 0, offset: 0)
        ) { try GeometryPipelineMetadata(bytes: [0x08, 0x01]) }
        // Packed floats whose length is not a multiple of 4.
        let badPacked = Self.lengthDelimited(1, Self.tag(3, 2) + Self.varint(3) + [0, 0, 0])
        #expect(throws: ProtobufError.self) { try GeometryPipelineMetadata(bytes: badPacked) }
    }

    @Test func invalidContentIsATypedError() throws {
        let basis: [(UInt32, Float)] = [(0, 1), (2, 0.5)]
        #expect(
            try GeometryPipelineMetadata(
                bytes: Self.message(vertices: Self.triangle, indices: [0, 1, 2], basis: basis)
            )
            .vertexCount == 3)
        let cases: [(what: String, bytes: [UInt8])] = [
            ("canonical_mesh.vertex_buffer", Self.message(vertices: [1, 2, 3], indices: [], basis: basis)),
            (
                "canonical_mesh.vertex_buffer",
                Self.message(vertices: [.nan] + Self.triangle.dropFirst(), indices: [], basis: basis)
            ),
            ("canonical_mesh.index_buffer", Self.message(vertices: Self.triangle, indices: [0, 1], basis: basis)),
            ("canonical_mesh.index_buffer", Self.message(vertices: Self.triangle, indices: [0, 1, 3], basis: basis)),
            ("procrustes_landmark_basis", Self.message(vertices: Self.triangle, indices: [0, 1, 2], basis: [])),
            ("procrustes_landmark_basis", Self.message(vertices: Self.triangle, indices: [], basis: [(3, 1)])),
            ("procrustes_landmark_basis", Self.message(vertices: Self.triangle, indices: [], basis: [(1, -1)])),
            ("input_source", Self.message(vertices: Self.triangle, indices: [], basis: basis, inputSource: 7)),
            (
                "canonical_mesh.vertex_type",
                Self.message(vertices: Self.triangle, indices: [], basis: basis, vertexType: 1)
            ),
        ]
        for (what, bytes) in cases {
            do {
                _ = try GeometryPipelineMetadata(bytes: bytes)
                Issue.record("\(what): accepted")
            } catch {
                guard case .invalidValue(let field, _) = error else {
                    Issue.record("\(what): \(error)")
                    continue
                }
                #expect(field == what)
            }
        }
    }
}
