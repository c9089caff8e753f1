import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTestSupport
import Testing

/// The int8 model `efficientnet_lite0_int8` against LiteRT's builtin kernels (`tools/make_int8_goldens.py`): three
/// SplitMix64-seeded int8 inputs and one photo; every output value identical (the integer kernels reproduce LiteRT's
/// builtin int8 arithmetic bit for bit, which is what the README claims), on 1, 2 and 3 threads.
@Suite struct QuantizedModelParityTests {
    static let directory = Fixtures.testFile("PureVisionEngineTests/Fixtures/models")

    /// The seeded input: the SplitMix64 stream f mapped onto int8 as floor((f + 1) · 128) − 128.
    static func seededInput(seed: UInt64, shape: TensorShape) throws -> Tensor {
        var random = SplitMix64(seed: seed)
        let values = random.signedUnitFloats(shape.elementCount).map { f in
            Int8(Int(((Double(f) + 1) * 128).rounded(.down)) - 128)
        }
        return try Tensor(shape: shape, elementType: .int8, bytes: values.map { UInt8(bitPattern: $0) })
    }

    /// The photo of the float model's fixture, normalized (p − 127) / 128 and quantized with the input's parameters.
    static func photoInput(_ description: TensorDescription) throws -> Tensor {
        let pixels = try Fixtures.numpy(atPath: directory + "/efficientnet_lite0/photo_input_u8.npy")
        let q = try #require(description.quantization)
        let bytes = pixels.bytes.map { p -> UInt8 in
            let value = (Float(p) - 127) / 128
            let scaled = (value / q.scale).rounded(.toNearestOrAwayFromZero)
            return UInt8(bitPattern: Int8(clamping: Int(scaled) + q.zeroPoint))
        }
        return try Tensor(shape: description.shape, elementType: .int8, bytes: bytes)
    }

    @Test(arguments: [UInt64(1), 2, 3, 0], [1, 2, 3])
    func efficientNetInt8MatchesLiteRT(seed: UInt64, threads: Int) throws {
        let interpreter = try Interpreter(
            contentsOf: Fixtures.model("efficientnet_lite0_int8.tflite"),
            options: InterpreterOptions(threadCount: threads))
        let description = try #require(interpreter.inputs.first)
        #expect(description.elementType == .int8)
        let input =
            seed == 0 ? try Self.photoInput(description) : try Self.seededInput(seed: seed, shape: description.shape)
        let output = try #require(try interpreter.run([input]).first)
        #expect(output.elementType == .int8)
        let name = seed == 0 ? "photo" : "seed\(seed)"
        let golden = try Fixtures.numpy(atPath: Self.directory + "/efficientnet_lite0_int8/\(name)_output0.npy")
        #expect(golden.elementType == .int8 && golden.bytes.count == output.bytes.count)
        let differences = zip(output.bytes, golden.bytes).map {
            abs(Int(Int8(bitPattern: $0)) - Int(Int8(bitPattern: $1)))
        }
        try #require(differences.count == 1000)
        let identical = differences.filter { $0 == 0 }.count
        #expect(
            identical == differences.count,
            "\(name): \(identical) of \(differences.count) identical, max difference \(differences.max() ?? 0)")
    }
}
