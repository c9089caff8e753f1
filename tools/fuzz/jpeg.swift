// libFuzzer entry point: the JPEG decoder (libjpeg through CJPEGSupport, behind PureVisionImage's PixelImage(encoded:)).
import PureVisionImage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let image = try? PixelImage(encoded: bytes) else { return 0 }
    // Read every pixel, so a buffer shorter than the header claims is caught by ASan.
    var sum = 0
    image.withUnsafePixels { raw in for byte in raw { sum &+= Int(byte) } }
    precondition(sum >= 0 || sum < 0)
    return 0
}
