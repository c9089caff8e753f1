import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTFLite
import PureVisionTestSupport
import Testing

/// `TFLite_Detection_PostProcess` against LiteRT's builtin kernel on small models (fast NMS with one and two classes
/// per box, equal scores, no background column, regular NMS, uint8 inputs), made by
/// `tools/make_detection_postprocess_models.py`: the same count, and the first count detections (LiteRT leaves the
/// other slots unwritten) identical to the bit — boxes, classes and scores. Optimized kernel and reference twin.
@Suite struct DetectionPostProcessTests {
    static let directory = Fixtures.testFile("PureVisionEngineTests/Fixtures/detection_postprocess")

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let model: String
        let inputs: [String]
        let outputs: [String]
        let count: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        guard let data = FileManager.default.contents(atPath: directory + "/cases.json"),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["cases"] as? [[String: Any]]
        else { return [] }
        return list.map {
            Case(
                name: $0["name"] as? String ?? "?", model: $0["model"] as? String ?? "",
                inputs: $0["inputs"] as? [String] ?? [], outputs: $0["outputs"] as? [String] ?? [],
                count: $0["count"] as? Int ?? -1)
        }
    }()

    @Test func casesArePresent() {
        #expect(Self.cases.count == 5)
        #expect(Interpreter.supportedOperators.contains(.resizeNearestNeighbor))
        #expect(Interpreter.supportedCustomOperators.contains("TFLite_Detection_PostProcess"))
    }

    @Test(arguments: cases, [InterpreterOptions(threadCount: 1), InterpreterOptions(kernelMode: .reference)])
    func matchesLiteRT(_ testCase: Case, options: InterpreterOptions) throws {
        let interpreter = try Interpreter(contentsOf: Self.directory + "/" + testCase.model, options: options)
        let inputs = try testCase.inputs.map { try Fixtures.numpy(atPath: Self.directory + "/" + $0) }
        let outputs = try interpreter.run(inputs)
        try #require(outputs.count == 4)
        let golden = try testCase.outputs.map { try Fixtures.numpy(atPath: Self.directory + "/" + $0) }
        #expect(outputs[3].floats == golden[3].floats)
        #expect(Int(outputs[3].floats[0]) == testCase.count)
        let maxDetections = Self.maxDetections(testCase.name)
        let classesPerBox = golden[1].shape.elementCount / maxDetections
        let defined = testCase.count * classesPerBox
        for (index, name) in [(0, "boxes"), (1, "classes"), (2, "scores")] {
            let width = index == 0 ? 4 : 1
            let ours = Array(outputs[index].floats.prefix(defined * width))
            let theirs = Array(golden[index].floats.prefix(defined * width))
            #expect(ours.map(\.bitPattern) == theirs.map(\.bitPattern), "\(testCase.name) \(name)")
        }
    }

    static func maxDetections(_ name: String) -> Int {
        [
            "fast_one_class_per_box": 10, "fast_ties": 12, "fast_two_classes_per_box_no_background": 6,
            "regular_nms": 8, "fast_uint8": 7,
        ][name] ?? 1
    }

    @Test func optionsAreParsedFromFlexBuffers() throws {
        let model = try TFLiteModel(contentsOf: Self.directory + "/regular_nms.tflite")
        let options = try #require(model.subgraphs.first?.operators.first?.customOptions)
        let map = try FlexBufferMap(bytes: options)
        #expect(map.int("max_detections") == 8)
        #expect(map.int("detections_per_class") == 5)
        #expect(map.bool("use_regular_nms") == true)
        #expect(map.float("nms_iou_threshold") == 0.5)
        #expect(map.float("y_scale") == 10)
        #expect(map.int("num_classes") == 4)
        for truncated in [[], [0x00], Array(options.prefix(options.count / 2)), Array(options.dropFirst(3))] {
            _ = try? FlexBufferMap(bytes: truncated)
        }
        #expect(throws: ModelFormatError.self) { try FlexBufferMap(bytes: [1, 2]) }
    }
}
