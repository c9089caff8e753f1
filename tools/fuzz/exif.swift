// libFuzzer entry point: the JPEG EXIF orientation reader (EXIFOrientationReader, behind PixelImage(encoded:)'s
// orientation), on the raw bytes alone: no pixels are decoded, so every execution exercises the marker walk and
// the TIFF / IFD0 parsing.
import PureVisionImage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEXIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let orientation = EXIFOrientationReader.orientation(ofJPEG: bytes)
    // Whatever it reads is one of the eight orientations, with a valid EXIF value.
    precondition(orientation.map { (1...8).contains($0.exifValue) } ?? true)
    return 0
}
