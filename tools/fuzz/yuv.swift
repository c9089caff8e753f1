// libFuzzer entry point: YUV 4:2:0 planes (PixelImage's NV12 / NV21 / I420 wrapping, conversion, copy) and the warp
// that converts only the pixels it samples (ImageToTensorConverter).
//
// Input: an 8-byte header, then the planes back to back.
//   [0] layout: nv12, nv21, i420 (mod 3)    [1] encoding: video/full × BT.601/BT.709 (mod 4)
//   [2] width, [3] height: 0…255 (odd and zero values included, which must be refused)
//   [4] [5] [6] extra stride bytes of the Y, first chroma and V planes (mod 16)
//   [7] the crop: rotation and offset of the rect the converter samples
// The planes are cut from the rest in order, each the length its rows need with its stride, or whatever is left;
// each is wrapped in place (no copy), so a read past a plane is a read past what the fuzzer handed over (ASan).
import PureVision
import PureVisionImage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYUV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 8 else { return 0 }
    let header = UnsafeBufferPointer(start: data, count: 8)
    let format: PixelFormat = [.nv12, .nv21, .i420][Int(header[0]) % 3]
    let encoding = [YUVEncoding.videoBT601, .fullBT601, .videoBT709, .fullBT709][Int(header[1]) % 4]
    let width = Int(header[2])
    let height = Int(header[3])
    let chromaRow = format == .i420 ? width / 2 : width
    let strides = [width + Int(header[4] % 16), chromaRow + Int(header[5] % 16), chromaRow + Int(header[6] % 16)]
    let rows = [height, height / 2, height / 2]
    var offset = 8
    var planes: [UnsafeRawBufferPointer] = []
    for plane in 0..<(format == .i420 ? 3 : 2) {
        let wanted = rows[plane] > 0 ? (rows[plane] - 1) * strides[plane] + (plane == 0 ? width : chromaRow) : 0
        let count = min(max(wanted, 0), size - offset)
        planes.append(UnsafeRawBufferPointer(start: data + offset, count: count))
        offset += count
    }
    let image: PixelImage
    do {
        image =
            format == .i420
            ? try PixelImage.wrapping(
                unsafeLuma: planes[0], lumaBytesPerRow: strides[0], u: planes[1], uBytesPerRow: strides[1],
                v: planes[2], vBytesPerRow: strides[2], width: width, height: height, encoding: encoding)
            : try PixelImage.wrapping(
                unsafeLuma: planes[0], lumaBytesPerRow: strides[0], chroma: planes[1], chromaBytesPerRow: strides[1],
                width: width, height: height, format: format, encoding: encoding)
    } catch {
        return 0
    }
    // Every pixel converted; the packed copy converts to the same levels.
    let rgb = image.converted(to: .rgb8).withUnsafePixels { Array($0) }
    precondition(rgb == image.ownedCopy().converted(to: .rgb8).withUnsafePixels { Array($0) })
    // A rotated crop reaching past the frame, with both borders: only sampled pixels are read.
    let turn = Float(header[7] & 0x0F) * 0.4
    let shift = Float(header[7] >> 4) / 16
    for border in [BorderMode.zero, .replicate] {
        guard
            let converter = try? ImageToTensorConverter(
                options: ImageToTensorOptions(outputWidth: 17, outputHeight: 11, border: border))
        else { return 0 }
        var out = [UInt8](repeating: 0, count: converter.elementCount)
        let rect = NormalizedRect(xCenter: shift, yCenter: 1 - shift, width: 1.3, height: 0.7, rotation: turn)
        out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            _ = try? converter.convert(image, rect: rect, into: base)
        }
    }
    return 0
}
