import PureVisionCore
// libFuzzer entry point: the TFLite reader and the interpreter's load (graph building, shape inference, constant
// folding and packing, memory planning), and one run when the load succeeds. The memory limit is small (64 MiB)
// so that a fuzzed shape cannot make a load or run allocate gigabytes.
import PureVisionEngine
import PureVisionTFLite

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTFLiteModel(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let model = try? TFLiteModel(bytes: bytes) else { return 0 }
    let options = InterpreterOptions(threadCount: 1, memoryLimit: 64 << 20)
    guard let interpreter = try? Interpreter(model: model, options: options) else { return 0 }
    let inputs = interpreter.inputs.map { Tensor(zeros: $0.shape, elementType: $0.elementType) }
    _ = try? interpreter.run(inputs)
    return 0
}
