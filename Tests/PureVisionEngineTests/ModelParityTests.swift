import PureVisionEngine
import Foundation
import PureVisionCore
import Testing
import PureVisionTestSupport

/// Whole-model parity with LiteRT's reference kernels on the bundled models: three SplitMix64-seeded inputs and one
/// real photo per model, every output element within 1e-4 + 1e-3·|LiteRT|. Goldens come from
/// `tools/make_engine_goldens.py`.
@Suite struct ModelParityTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let model: String
        /// A seed, or nil for the photo.
        let seed: UInt64?
        var testDescription: String { "\(model) " + (seed.map { "seed \($0)" } ?? "photo") }
    }

    static let models = [
        "palm_detection_full", "hand_landmark_full", "face_detection_short_range",
        "face_detection_full_range_sparse", "face_landmark", "efficientnet_lite0",
    ]
    static let cases: [Case] = models.flatMap { model in
        [Case(model: model, seed: 1), Case(model: model, seed: 2), Case(model: model, seed: 3), Case(model: model, seed: nil)]
    }

    static func manifest() throws -> [String: Any] {
        let data = try Fixtures.bytes(atPath: Fixtures.testFile("PureVisionEngineTests/Fixtures/models/manifest.json"))
        let root = try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any]
        return try #require(root?["models"] as? [String: Any])
    }

    /// The input the goldens were made from.
    static func inputs(for testCase: Case, interpreter: Interpreter) throws -> [Tensor] {
        if let seed = testCase.seed {
            var random = SplitMix64(seed: seed)
            return try interpreter.inputs.map { description in
                try Tensor(shape: description.shape, floats: random.signedUnitFloats(description.shape.elementCount))
            }
        }
        let entry = try #require(try manifest()[testCase.model] as? [String: Any])
        let photo = try #require(entry["photo"] as? [String: Any])
        let scale = Float(try #require(photo["scale"] as? Double))
        let offset = Float(try #require(photo["offset"] as? Double))
        let pixels = try Fixtures.numpy(
            atPath: Fixtures.testFile("PureVisionEngineTests/Fixtures/models/\(testCase.model)/photo_input_u8.npy"))
        #expect(pixels.elementType == .uint8)
        let values = pixels.floats.map { $0 * scale + offset }
        return [try Tensor(shape: pixels.shape, floats: values)]
    }

    static func goldens(for testCase: Case, count: Int) throws -> [Tensor] {
        let prefix = testCase.seed.map { "seed\($0)" } ?? "photo"
        return try (0..<count).map { index in
            try Fixtures.numpy(
                atPath: Fixtures.testFile("PureVisionEngineTests/Fixtures/models/\(testCase.model)/\(prefix)_output\(index).npy"))
        }
    }

    @Test(arguments: cases)
    func matchesLiteRT(_ testCase: Case) throws {
        let interpreter = try Interpreter(contentsOf: Fixtures.model("\(testCase.model).tflite"))
        let outputs = try interpreter.run(try Self.inputs(for: testCase, interpreter: interpreter))
        let goldens = try Self.goldens(for: testCase, count: outputs.count)
        for (index, (output, golden)) in zip(outputs, goldens).enumerated() {
            #expect(output.shape.elementCount == golden.shape.elementCount, "output \(index) shape")
            let comparison = Comparison(output.floats, golden.floats, tolerance: .modelParity)
            #expect(comparison.passed, "\(testCase.testDescription) output \(index): \(comparison)")
        }
    }

    /// Two threads must give the same answer as one (within float reassociation).
    @Test(arguments: ["palm_detection_full", "efficientnet_lite0"])
    func twoThreadsMatchLiteRT(_ model: String) throws {
        let testCase = Case(model: model, seed: 1)
        let interpreter = try Interpreter(
            contentsOf: Fixtures.model("\(model).tflite"), options: InterpreterOptions(threadCount: 2))
        let outputs = try interpreter.run(try Self.inputs(for: testCase, interpreter: interpreter))
        for (index, (output, golden)) in zip(outputs, try Self.goldens(for: testCase, count: outputs.count)).enumerated() {
            let comparison = Comparison(output.floats, golden.floats, tolerance: .modelParity)
            #expect(comparison.passed, "\(model) 2 threads output \(index): \(comparison)")
        }
    }
}
