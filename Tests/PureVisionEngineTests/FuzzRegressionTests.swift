import Foundation
import PureVisionCore
import PureVisionEngine
import PureVisionTestSupport
import Testing

/// Inputs found by the `tflite_model` fuzz target (tools/fuzz) that once crashed the engine, kept in
/// `Fixtures/regressions/`: each must now load and run, or be refused with a typed error.
@Suite struct FuzzRegressionTests {
    static let directory = Fixtures.testFile("PureVisionEngineTests/Fixtures/regressions")

    static func load(_ name: String) throws -> [UInt8] {
        try Fixtures.bytes(atPath: directory + "/" + name)
    }

    /// What the fuzz target does with every input: load with a 64 MiB memory limit, run once on zeros.
    @Test func everyRegressionInputLoadsOrThrows() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let bytes = try Self.load(name)
            for mode in [InterpreterOptions.KernelMode.optimized, .reference] {
                let options = InterpreterOptions(threadCount: 2, kernelMode: mode, memoryLimit: 64 << 20)
                guard let interpreter = try? Interpreter(bytes: bytes, options: options) else { continue }
                _ = try? interpreter.run(
                    interpreter.inputs.map { Tensor(zeros: $0.shape, elementType: $0.elementType) })
            }
        }
    }

    /// `TFLite_Detection_PostProcess` whose FlexBuffers options store a keys-vector byte width of 2⁶⁴ − 1: the
    /// width was converted to `Int` before being checked, which trapped. Now a typed error names it.
    @Test func flexBufferKeyWidthPastIntIsRefused() throws {
        let bytes = try Self.load("detection_postprocess_flexbuffer_huge_key_width.tflite")
        #expect {
            try Interpreter(bytes: bytes)
        } throws: { error in
            "\(error)".contains("key width")
        }
    }

    /// RESIZE_BILINEAR of a [1, 83886084, 0, 3] input (no pixels) tripped the kernel's precondition at run time;
    /// it is now refused at load, like every operator on an empty tensor (`EmptyTensorTests`).
    @Test func resizeBilinearOfAnImageWithoutPixelsIsRefused() throws {
        let bytes = try Self.load("resize_bilinear_empty_input.tflite")
        #expect {
            try Interpreter(bytes: bytes)
        } throws: { error in
            guard case .emptyTensor(0, "RESIZE_BILINEAR", _, _, let shape) = error as? InterpreterError else {
                return false
            }
            return shape == TensorShape([1, 83_886_084, 0, 3])
        }
    }

    /// DEPTHWISE_CONV_2D of a [0, 16777216, 6, 4] input (batch 0) tripped the kernel's geometry precondition at
    /// load; it is now refused with the operator named, before any kernel is prepared.
    @Test func depthwiseConvolutionOfAnEmptyBatchIsRefused() throws {
        let bytes = try Self.load("depthwise_conv_2d_empty_batch.tflite")
        for mode in [InterpreterOptions.KernelMode.optimized, .reference] {
            #expect {
                try Interpreter(bytes: bytes, options: InterpreterOptions(kernelMode: mode))
            } throws: { error in
                guard case .emptyTensor(2, "DEPTHWISE_CONV_2D", _, _, let shape) = error as? InterpreterError else {
                    return false
                }
                return shape.elementCount == 0
            }
        }
    }

    /// DEPTH_TO_SPACE of a [889323522, 0, 3, 4] input (no elements) loaded, and its run spent seconds in the batch
    /// loop (12 s under ASan). The kernel returned at once on it since; now the model is refused at load, like every
    /// operator on an empty tensor.
    @Test func depthToSpaceOfAnEmptyTensorIsRefused() throws {
        let bytes = try Self.load("depth_to_space_empty_huge_batch.tflite")
        #expect {
            try Interpreter(bytes: bytes)
        } throws: { error in
            guard case .emptyTensor(_, "DEPTH_TO_SPACE", _, _, let shape) = error as? InterpreterError else {
                return false
            }
            return shape.elementCount == 0
        }
    }

    /// RESHAPE to [1, 6, 917504, 1310746, 786448, 262155, 14] overflowed Int while multiplying the target shape out
    /// (a trap at load); it is now refused.
    @Test func reshapeToAnOverflowingShapeIsRefused() throws {
        let bytes = try Self.load("reshape_overflowing_target_shape.tflite")
        #expect {
            try Interpreter(bytes: bytes)
        } throws: { error in
            guard case .invalidOperator(3, "RESHAPE", let reason) = error as? InterpreterError else { return false }
            return reason.contains("too many elements")
        }
    }
}
