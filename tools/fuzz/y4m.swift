// libFuzzer entry point: the YUV4MPEG2 reader (PureVisionImage's Y4MStream) and the RGB conversion of each frame.
import PureVisionImage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzY4M(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard var stream = try? Y4MStream(source: Y4MMemorySource(bytes)) else { return 0 }
    // At most a few frames: a tiny header may describe many small frames.
    for _ in 0..<4 {
        guard let frame = try? stream.nextFrame() else { return 0 }
        precondition(frame.y.count == frame.header.width * frame.header.height)
        guard let image = try? PixelImage(y4mFrame: frame) else { continue }
        var sum = 0
        image.withUnsafePixels { raw in for byte in raw { sum &+= Int(byte) } }
        precondition(sum >= 0 || sum < 0)
    }
    return 0
}
