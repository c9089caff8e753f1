// libFuzzer entry point: the `.npy` reader (PureVisionCore.NumpyFile), which the CLI's `run` command feeds with
// user files. A decoded tensor is re-encoded and decoded again: the round trip must give the same tensor.
import PureVisionCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNumpy(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let tensor = try? NumpyFile.decode(bytes) else { return 0 }
    let again = try? NumpyFile.decode(NumpyFile.encode(tensor))
    precondition(again?.shape == tensor.shape && again?.bytes == tensor.bytes, "npy round trip differs")
    return 0
}
