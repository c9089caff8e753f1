import PureVisionCore
import PureVisionKernels

/// Makes the run step of a float32 operator from its input's and output's addresses (and the binder, for scratch).
typealias FloatStepMaker = (
    _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ binder: TensorBinder
) -> ExecutionStep

/// Makes the run step of an 8-bit operator of element type `T` from its input's and output's addresses.
typealias QuantizedStepMaker<T: QuantizedElement> = (
    _ input: UnsafePointer<T>, _ output: UnsafeMutablePointer<T>
) -> ExecutionStep

/// Makes the run step of an 8-bit operator of element type `T` with two inputs.
typealias QuantizedPairStepMaker<T: QuantizedElement> = (
    _ lhs: UnsafePointer<T>, _ rhs: UnsafePointer<T>, _ output: UnsafeMutablePointer<T>
) -> ExecutionStep

extension LoweringContext {
    /// A lowered operator reading the float32 tensor `input` and writing the float32 output 0. When the tensors are
    /// bound, `step` receives their addresses and returns the run step; it runs once per binding, never per run.
    func loweredFloat(
        reading input: GraphTensor, scratchBytes: Int = 0, step: @escaping FloatStepMaker
    ) -> LoweredOperator {
        let output = output(0).index
        return lowered(reading: [input], scratchBytes: scratchBytes) { binder in
            step(UnsafePointer(binder.floats(input)), binder.floats(output), binder)
        }
    }

    /// A lowered operator reading the float32 tensors `lhs` and `rhs` and writing the float32 output 0; `step`
    /// receives their addresses when the tensors are bound and returns the run step.
    func loweredFloat(
        reading lhs: GraphTensor, _ rhs: GraphTensor,
        step: @escaping (UnsafePointer<Float>, UnsafePointer<Float>, UnsafeMutablePointer<Float>) -> ExecutionStep
    ) -> LoweredOperator {
        let output = output(0).index
        return lowered(reading: [lhs, rhs]) { binder in
            step(UnsafePointer(binder.floats(lhs)), UnsafePointer(binder.floats(rhs)), binder.floats(output))
        }
    }

    /// A lowered operator reading the 8-bit tensor `input` and writing output 0 of the same type: when the tensors
    /// are bound, `int8` or `uint8` (as `input`'s type says) receives their typed addresses and returns the run
    /// step. Callers usually pass one generic function as both, which the compiler specialises for each type.
    func loweredQuantized(
        reading input: GraphTensor, scratchBytes: Int = 0, int8: @escaping QuantizedStepMaker<Int8>,
        uint8: @escaping QuantizedStepMaker<UInt8>
    ) -> LoweredOperator {
        let (output, unsigned) = (output(0).index, input.elementType == .uint8)
        return lowered(reading: [input], scratchBytes: scratchBytes) { binder in
            let (x, y) = (UnsafeRawPointer(binder.raw(input)), binder.raw(output))
            return unsigned
                ? uint8(x.assumingMemoryBound(to: UInt8.self), y.assumingMemoryBound(to: UInt8.self))
                : int8(x.assumingMemoryBound(to: Int8.self), y.assumingMemoryBound(to: Int8.self))
        }
    }

    /// A lowered operator reading the 8-bit tensors `lhs` and `rhs` (of one type) and writing output 0 of that type;
    /// `int8` or `uint8`, as `lhs`'s type says, makes the run step from their typed addresses when they are bound.
    func loweredQuantized(
        reading lhs: GraphTensor, _ rhs: GraphTensor, int8: @escaping QuantizedPairStepMaker<Int8>,
        uint8: @escaping QuantizedPairStepMaker<UInt8>
    ) -> LoweredOperator {
        let (output, unsigned) = (output(0).index, lhs.elementType == .uint8)
        return lowered(reading: [lhs, rhs]) { binder in
            let (a, b, y) = (UnsafeRawPointer(binder.raw(lhs)), UnsafeRawPointer(binder.raw(rhs)), binder.raw(output))
            return unsigned
                ? uint8(
                    a.assumingMemoryBound(to: UInt8.self), b.assumingMemoryBound(to: UInt8.self),
                    y.assumingMemoryBound(to: UInt8.self))
                : int8(
                    a.assumingMemoryBound(to: Int8.self), b.assumingMemoryBound(to: Int8.self),
                    y.assumingMemoryBound(to: Int8.self))
        }
    }
}

extension TensorBinder {
    /// The memory of a tensor at run time: its constant storage, or the arena slot bound to it.
    func raw(_ tensor: GraphTensor) -> UnsafeMutableRawPointer { tensor.constant?.pointer ?? raw(tensor.index) }

    /// The memory of a float32 tensor at run time, as `raw(_:)` gives it.
    func floats(_ tensor: GraphTensor) -> UnsafeMutablePointer<Float> {
        raw(tensor).assumingMemoryBound(to: Float.self)
    }
}

extension LoweringContext {
    /// A lowered operator that moves the bytes of `input`, of any element type, into output 0: `step` receives
    /// their addresses when the tensors are bound and returns the run step.
    func loweredBytes(
        reading input: GraphTensor,
        step: @escaping (_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer) -> ExecutionStep
    ) -> LoweredOperator {
        let output = output(0).index
        return lowered(reading: [input]) { binder in step(UnsafeRawPointer(binder.raw(input)), binder.raw(output)) }
    }
}
