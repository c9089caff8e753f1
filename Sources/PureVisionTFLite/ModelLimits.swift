/// The sizes the model readers accept.
///
/// Beyond `maximumFileByteCount` a model file (`.tflite` or `.task`) is refused with
/// `ModelFormatError.fileTooLarge` before any of it is read into memory. What a model may allocate once loaded
/// (activations, single tensors) is bounded separately, by `InterpreterOptions.memoryLimit` in `Engine`.
public enum ModelLimits {
    /// The largest model file, in bytes: 4 GiB. Files are read whole into memory; FlatBuffers address at most 2 GiB,
    /// and models over 2 GB keep their weights after the flatbuffer (`BufferLocation.isExternal`), which this
    /// leaves room for. MediaPipe's vision models are a few MB. With a 32-bit `Int`: `Int.max` (2 GiB − 1).
    public static let maximumFileByteCount = maximumFileByteCount(as: Int.self)

    /// `maximumFileByteCount` computed in `Integer`: 4 GiB when the type holds it, else the type's maximum.
    package static func maximumFileByteCount<Integer: FixedWidthInteger>(as: Integer.Type) -> Integer {
        Integer.bitWidth - (Integer.isSigned ? 1 : 0) > 32 ? Integer(1) << 32 : Integer.max
    }
}
