/// How a bounding-box tensor stores its boxes (metadata `BoundingBoxProperties`).
public struct BoundingBoxProperties: Sendable, Hashable {
    /// How the four values describe a box (metadata `BoundingBoxType`).
    public enum BoxType: Sendable, Hashable, SchemaByteEnum {
        /// Not recorded.
        case unknown
        /// Left, top, right, bottom.
        case boundaries
        /// Left, top, width, height.
        case upperLeft
        /// Centre x, centre y, width, height.
        case center
        /// A code this reader has no name for.
        case other(Int8)

        static let byCode: [BoxType] = [.unknown, .boundaries, .upperLeft, .center]

        static func unnamed(_ code: Int8) -> BoxType { .other(code) }

        /// Creates the type for a schema code.
        public init(rawValue: Int8) { self.init(schemaCode: rawValue) }
    }

    /// The unit of the coordinates (metadata `CoordinateType`).
    public enum CoordinateType: Sendable, Hashable, SchemaByteEnum {
        /// Fractions of the image size.
        case ratio
        /// Pixels.
        case pixel
        /// A code this reader has no name for.
        case other(Int8)

        static let byCode: [CoordinateType] = [.ratio, .pixel]

        static func unnamed(_ code: Int8) -> CoordinateType { .other(code) }

        /// Creates the type for a schema code.
        public init(rawValue: Int8) { self.init(schemaCode: rawValue) }
    }

    /// The positions of the box's four values in the tensor's last dimension, in the order the `type` names them
    /// (empty when not recorded).
    public var index: [UInt32]
    /// How the four values describe a box.
    public var type: BoxType
    /// The unit of the coordinates.
    public var coordinateType: CoordinateType

    /// Creates the value from its fields.
    public init(index: [UInt32], type: BoxType, coordinateType: CoordinateType) {
        self.index = index
        self.type = type
        self.coordinateType = coordinateType
    }

    init(_ table: FlatTable) throws(ModelFormatError) {
        index = try table.integers(0, as: UInt32.self, what: "BoundingBoxProperties.index") ?? []
        type = try table.enumeration(1, what: "BoundingBoxProperties.type")
        coordinateType = try table.enumeration(2, what: "BoundingBoxProperties.coordinate_type")
    }
}
