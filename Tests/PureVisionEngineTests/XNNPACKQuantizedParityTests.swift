import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTestSupport
import Testing

/// efficientdet_lite0 (int8) and efficientnet_lite0_uint8 with `quantizedArithmetic: .xnnpack` against LiteRT's
/// XNNPACK delegate, the arithmetic MediaPipe runs (`tools/make_xnnpack_int8_goldens.py`): SplitMix64-seeded inputs,
/// every output byte identical (compared through the SHA-256 of the output's bytes), on 1 and 2 threads and with and
/// without generated code.
@Suite struct XNNPACKQuantizedParityTests {
    struct Run: Sendable, CustomTestStringConvertible {
        let model: String
        let seed: UInt64
        let digests: [String]
        let first: [[Double]]
        var testDescription: String { "\(model) seed \(seed)" }
    }

    static let runs: [Run] = {
        let path = Fixtures.testFile("PureVisionEngineTests/Fixtures/models/xnnpack_int8/goldens.json")
        guard let data = FileManager.default.contents(atPath: path),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let runs = root["runs"] as? [[String: Any]]
        else { return [] }
        return runs.map { run in
            let outputs = run["outputs"] as? [[String: Any]] ?? []
            return Run(
                model: run["model"] as? String ?? "?", seed: UInt64(run["seed"] as? Int ?? 0),
                digests: outputs.map { $0["sha256"] as? String ?? "" },
                first: outputs.map { $0["first"] as? [Double] ?? [] })
        }
    }()

    @Test func goldensArePresent() {
        #expect(Self.runs.count == 5)
    }

    /// floor((f + 1) · 128) of the SplitMix64 stream f, minus 128 for int8.
    static func seededInput(seed: UInt64, _ description: TensorDescription) throws -> Tensor {
        var random = SplitMix64(seed: seed)
        let signed = description.elementType == .int8
        let bytes = random.signedUnitFloats(description.shape.elementCount).map { f -> UInt8 in
            let q = Int(((Double(f) + 1) * 128).rounded(.down))
            return signed ? UInt8(bitPattern: Int8(q - 128)) : UInt8(q)
        }
        return try Tensor(shape: description.shape, elementType: description.elementType, bytes: bytes)
    }

    @Test(arguments: runs, [(1, true), (2, true), (1, false)])
    func matchesXNNPACK(_ run: Run, configuration: (threads: Int, generatesMachineCode: Bool)) throws {
        var options = InterpreterOptions(
            threadCount: configuration.threads, generatesMachineCode: configuration.generatesMachineCode)
        options.quantizedArithmetic = .xnnpack
        let interpreter = try Interpreter(contentsOf: Fixtures.model(run.model), options: options)
        let input = try Self.seededInput(seed: run.seed, try #require(interpreter.inputs.first))
        let outputs = try interpreter.run([input])
        #expect(outputs.count == run.digests.count)
        for (index, (output, digest)) in zip(outputs, run.digests).enumerated() {
            let first: [Double] =
                output.elementType == .float32
                ? output.floats.prefix(16).map(Double.init)
                : output.bytes.prefix(16).map {
                    Double(output.elementType == .int8 ? Int(Int8(bitPattern: $0)) : Int($0))
                }
            let context =
                "\(run.testDescription) output \(index) threads \(configuration.threads) codegen "
                + "\(configuration.generatesMachineCode): first values \(first), LiteRT \(run.first[index])"
            #expect(SHA256.hexDigest(output.bytes) == digest, "\(context)")
        }
    }
}
