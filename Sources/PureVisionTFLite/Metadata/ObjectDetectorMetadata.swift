/// MediaPipe's object-detector metadata: the `ObjectDetectorOptions` flatbuffer (identifier `"V001"`, schema
/// `mediapipe/tasks/metadata/object_detector_metadata_schema.fbs`) stored as the subgraph custom metadata named
/// `DETECTOR_METADATA`. It gives the SSD anchors and how to decode a model's raw box and score tensors.
///
/// Every field is optional in the schema; a reader that needs one reports its absence by name.
public struct ObjectDetectorMetadata: Sendable, Hashable {
    /// One fixed SSD anchor, normalized to the model input (schema `FixedAnchor`).
    public struct FixedAnchor: Sendable, Hashable {
        /// Horizontal centre.
        public var xCenter: Float
        /// Vertical centre.
        public var yCenter: Float
        /// Width.
        public var width: Float
        /// Height.
        public var height: Float

        /// Creates an anchor from its fields.
        public init(xCenter: Float, yCenter: Float, width: Float, height: Float) {
            self.xCenter = xCenter
            self.yCenter = yCenter
            self.width = width
            self.height = height
        }
    }

    /// How raw tensors become boxes (schema `TensorsDecodingOptions`); absent integer fields are 0, absent floats
    /// 0, absent booleans false (the flatbuffer defaults).
    public struct TensorsDecodingOptions: Sendable, Hashable {
        /// Score columns per box.
        public var numClasses: Int
        /// Boxes (and anchors) per inference.
        public var numBoxes: Int
        /// Values per box row.
        public var numCoords: Int
        /// Column of the first keypoint coordinate.
        public var keypointCoordOffset: Int
        /// Keypoints per box.
        public var numKeypoints: Int
        /// Values per keypoint.
        public var numValuesPerKeypoint: Int
        /// Divisor of the raw x centre.
        public var xScale: Float
        /// Divisor of the raw y centre.
        public var yScale: Float
        /// Divisor of the raw width.
        public var wScale: Float
        /// Divisor of the raw height.
        public var hScale: Float
        /// Size = exp(raw / scale) · anchor size.
        public var applyExponentialOnBoxSize: Bool
        /// Apply a sigmoid to the raw scores.
        public var sigmoidScore: Bool

        /// Creates the value from its fields.
        public init(
            numClasses: Int, numBoxes: Int, numCoords: Int, keypointCoordOffset: Int, numKeypoints: Int,
            numValuesPerKeypoint: Int, xScale: Float, yScale: Float, wScale: Float, hScale: Float,
            applyExponentialOnBoxSize: Bool, sigmoidScore: Bool
        ) {
            self.numClasses = numClasses
            self.numBoxes = numBoxes
            self.numCoords = numCoords
            self.keypointCoordOffset = keypointCoordOffset
            self.numKeypoints = numKeypoints
            self.numValuesPerKeypoint = numValuesPerKeypoint
            self.xScale = xScale
            self.yScale = yScale
            self.wScale = wScale
            self.hScale = hScale
            self.applyExponentialOnBoxSize = applyExponentialOnBoxSize
            self.sigmoidScore = sigmoidScore
        }
    }

    /// The name of the subgraph custom metadata entry holding this flatbuffer.
    public static let customMetadataName = "DETECTOR_METADATA"
    /// The flatbuffer's file identifier.
    public static let fileIdentifier = "V001"

    /// The oldest parser version that understands the metadata, when recorded.
    public var minParserVersion: String?
    /// The fixed anchors (`ssd_anchors_options.fixed_anchors_schema.anchors`); nil when any level is absent.
    public var fixedAnchors: [FixedAnchor]?
    /// The decoding options (`tensors_decoding_options`); nil when absent.
    public var decoding: TensorsDecodingOptions?

    /// Creates the value from its fields.
    public init(minParserVersion: String? = nil, fixedAnchors: [FixedAnchor]?, decoding: TensorsDecodingOptions?) {
        self.minParserVersion = minParserVersion
        self.fixedAnchors = fixedAnchors
        self.decoding = decoding
    }

    /// Decodes the flatbuffer.
    /// - Throws: `.malformedMetadata` for a wrong identifier, or a structural error wrapped in
    ///   `.context("DETECTOR_METADATA", …)`.
    public init(bytes: [UInt8]) throws(ModelFormatError) {
        let reader = FlatBufferReader(bytes: bytes)
        guard let identifier = reader.fileIdentifier, identifier == Self.fileIdentifier else {
            throw .malformedMetadata(
                "DETECTOR_METADATA identifier is \"\(reader.fileIdentifier ?? "")\", expected \"V001\"")
        }
        self = try withContext(Self.customMetadataName) { () throws(ModelFormatError) in
            let root = try reader.rootTable(what: "ObjectDetectorOptions")
            var anchors: [FixedAnchor]?
            if let ssd = try root.table(1, what: "ObjectDetectorOptions.ssd_anchors_options"),
                let fixed = try ssd.table(0, what: "SsdAnchorsOptions.fixed_anchors_schema"),
                try fixed.vector(0, elementSize: 4, what: "FixedAnchorsSchema.anchors") != nil
            {
                anchors = try fixed.tables(0, what: "FixedAnchorsSchema.anchors").map {
                    anchor throws(ModelFormatError) in
                    FixedAnchor(
                        xCenter: try anchor.float(0, default: 0, what: "FixedAnchor.x_center"),
                        yCenter: try anchor.float(1, default: 0, what: "FixedAnchor.y_center"),
                        width: try anchor.float(2, default: 0, what: "FixedAnchor.width"),
                        height: try anchor.float(3, default: 0, what: "FixedAnchor.height"))
                }
            }
            var decoding: TensorsDecodingOptions?
            if let table = try root.table(2, what: "ObjectDetectorOptions.tensors_decoding_options") {
                func int(_ id: Int, _ name: String) throws(ModelFormatError) -> Int {
                    Int(try table.integer(id, default: Int32(0), what: "TensorsDecodingOptions.\(name)"))
                }
                func float(_ id: Int, _ name: String) throws(ModelFormatError) -> Float {
                    try table.float(id, default: 0, what: "TensorsDecodingOptions.\(name)")
                }
                decoding = TensorsDecodingOptions(
                    numClasses: try int(0, "num_classes"), numBoxes: try int(1, "num_boxes"),
                    numCoords: try int(2, "num_coords"), keypointCoordOffset: try int(3, "keypoint_coord_offset"),
                    numKeypoints: try int(4, "num_keypoints"),
                    numValuesPerKeypoint: try int(5, "num_values_per_keypoint"),
                    xScale: try float(6, "x_scale"), yScale: try float(7, "y_scale"),
                    wScale: try float(8, "w_scale"), hScale: try float(9, "h_scale"),
                    applyExponentialOnBoxSize: try table.bool(
                        10, default: false, what: "TensorsDecodingOptions.apply_exponential_on_box_size"),
                    sigmoidScore: try table.bool(11, default: false, what: "TensorsDecodingOptions.sigmoid_score"))
            }
            return ObjectDetectorMetadata(
                minParserVersion: try root.string(0, what: "ObjectDetectorOptions.min_parser_version"),
                fixedAnchors: anchors, decoding: decoding)
        }
    }
}
