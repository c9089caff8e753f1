import PureVisionTFLite
import PureVisionTestSupport
import Testing

/// efficientdet_lite0's metadata as the reader decodes it, against the values documented from the model in
/// `docs/tasks/segmenter-detector-embedder.md` §2a (read there with MediaPipe's own metadata tooling).
@Suite struct DetectorMetadataTests {
    @Test func efficientDetLite0DetectorMetadata() throws {
        let model = try TFLiteModel(contentsOf: Fixtures.model("efficientdet_lite0.tflite"))
        let metadata = try #require(try model.modelMetadata())
        let subgraph = try #require(metadata.subgraphs.first)
        #expect(subgraph.outputTensors.map(\.name) == ["score", "location"])
        let box = try #require(subgraph.outputTensors[1].boundingBoxProperties)
        #expect(box.index == [1, 0, 3, 2])
        #expect(box.type == .boundaries)
        #expect(box.coordinateType == .ratio)
        let entry = try #require(subgraph.customMetadata.first { $0.name == ObjectDetectorMetadata.customMetadataName })
        let detector = try ObjectDetectorMetadata(bytes: entry.data)
        let decoding = try #require(detector.decoding)
        #expect(decoding.numClasses == 90)
        #expect(decoding.numBoxes == 19206)
        #expect(decoding.numCoords == 4)
        #expect(decoding.numKeypoints == 0)
        #expect(decoding.numValuesPerKeypoint == 2)
        #expect([decoding.xScale, decoding.yScale, decoding.wScale, decoding.hScale] == [1, 1, 1, 1])
        #expect(decoding.applyExponentialOnBoxSize)
        #expect(!decoding.sigmoidScore)
        let anchors = try #require(detector.fixedAnchors)
        #expect(anchors.count == 19206)
        #expect(
            anchors.first
                == ObjectDetectorMetadata.FixedAnchor(xCenter: 0.0125, yCenter: 0.0125, width: 0.075, height: 0.075))
    }

    @Test func truncatedDetectorMetadataIsAnError() throws {
        let model = try TFLiteModel(contentsOf: Fixtures.model("efficientdet_lite0.tflite"))
        let subgraph = try #require(try model.modelMetadata()?.subgraphs.first)
        let data = try #require(subgraph.customMetadata.first?.data)
        for length in [0, 4, 8, 64, data.count / 2] {
            #expect(throws: ModelFormatError.self) { try ObjectDetectorMetadata(bytes: Array(data.prefix(length))) }
        }
    }
}
