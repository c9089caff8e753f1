/// How a bounding-box tensor stores its boxes (metadata `BoundingBoxProperties`).
public struct BoundingBoxProperties: Sendable, Hashable {
    /// How the four values describe a box (metadata `BoundingBoxType`).
    public enum BoxType: Sendable, Hashable {
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

        /// Creates the type for a schema code.
        public init(rawValue: Int8) {
            switch rawValue {
            case 0: self = .unknown
            case 1: self = .boundaries
            case 2: self = .upperLeft
            case 3: self = .center
            default: self = .other(rawValue)
            }
        }
    }

    /// The unit of the coordinates (metadata `CoordinateType`).
    public enum CoordinateType: Sendable, Hashable {
        /// Fractions of the image size.
        case ratio
        /// Pixels.
        case pixel
        /// A code this reader has no name for.
        case other(Int8)

        /// Creates the type for a schema code.
        public init(rawValue: Int8) {
            switch rawValue {
            case 0: self = .ratio
            case 1: self = .pixel
            default: self = .other(rawValue)
            }
        }
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
        type = BoxType(rawValue: try table.integer(1, default: Int8(0), what: "BoundingBoxProperties.type"))
        coordinateType = CoordinateType(
            rawValue: try table.integer(2, default: Int8(0), what: "BoundingBoxProperties.coordinate_type"))
    }
}
