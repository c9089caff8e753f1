import Foundation

/// The element type a `Mask` was made with: MediaPipe's `MaskDataType` (`MPPMaskDataType`).
public enum MaskDataType: Sendable, Hashable {
    /// One byte per pixel, 0…255 (category masks).
    case uInt8
    /// One `Float` per pixel, 0…1 (confidence masks).
    case float32
}

/// A single-channel mask the size of the input image: MediaPipe's `Mask` (`MPPMask`).
///
/// The mask owns its memory, row-major, `width · height` elements. Reading it as the other type converts once, as
/// MediaPipe does (bytes are divided by 255; floats are multiplied by 255 and truncated, clamped to 0…255), and
/// keeps the conversion.
public final class Mask: @unchecked Sendable {
    // @unchecked: the primary buffer never changes after init; the converted one is created once, under `lock`.
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The type the mask was made with.
    public let dataType: MaskDataType
    private let bytes: UnsafeMutablePointer<UInt8>?
    private let floats: UnsafeMutablePointer<Float>?
    private var convertedBytes: UnsafeMutablePointer<UInt8>?
    private var convertedFloats: UnsafeMutablePointer<Float>?
    private let lock = NSLock()

    private var count: Int { width * height }

    /// A mask of `width` × `height` (negative sizes count as 0) holding `bytes` or `floats`, exactly one of them: the
    /// type it was made with.
    private init(width: Int, height: Int, bytes: UnsafeMutablePointer<UInt8>?, floats: UnsafeMutablePointer<Float>?) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        dataType = bytes == nil ? .float32 : .uInt8
        self.bytes = bytes
        self.floats = floats
    }

    /// MediaPipe's `init(uInt8Data:width:height:shouldCopy:)`. The data is always copied here (a PureVision mask never
    /// refers to memory it does not own), whatever `shouldCopy` says.
    public convenience init(uInt8Data: UnsafePointer<UInt8>, width: Int, height: Int, shouldCopy: Bool) {
        self.init(width: width, height: height, bytes: Self.copy(uInt8Data, width: width, height: height), floats: nil)
    }

    /// MediaPipe's `init(float32Data:width:height:shouldCopy:)`. The data is always copied here.
    public convenience init(float32Data: UnsafePointer<Float>, width: Int, height: Int, shouldCopy: Bool) {
        self.init(
            width: width, height: height, bytes: nil, floats: Self.copy(float32Data, width: width, height: height))
    }

    /// A copy of the `width · height` elements at `data` (negative sizes count as 0), in memory the mask owns: at
    /// least one element, so that an empty mask's pointers are valid too.
    private static func copy<Element>(_ data: UnsafePointer<Element>, width: Int, height: Int)
        -> UnsafeMutablePointer<Element>
    {
        let count = max(width, 0) * max(height, 0)
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
        storage.initialize(from: data, count: count)
        return storage
    }

    /// A mask holding a copy of `values` (`width · height` bytes).
    convenience init(bytes values: [UInt8], width: Int, height: Int) {
        self.init(uInt8Data: values, width: width, height: height, shouldCopy: true)
    }

    /// A mask holding a copy of `values` (`width · height` floats).
    convenience init(floats values: [Float], width: Int, height: Int) {
        self.init(float32Data: values, width: width, height: height, shouldCopy: true)
    }

    deinit {
        bytes?.deallocate()
        floats?.deallocate()
        convertedBytes?.deallocate()
        convertedFloats?.deallocate()
    }

    /// The mask as bytes, 0…255 (converted from floats on first access for a `.float32` mask). Valid while the mask
    /// lives.
    public var uint8Data: UnsafePointer<UInt8> {
        data(stored: bytes, converted: \.convertedBytes) { converted in
            guard let floats else { return }
            for i in 0..<count {
                let scaled = floats[i] * 255
                // Truncated, as MediaPipe's C cast.
                converted[i] = scaled.isNaN ? 0 : UInt8(min(max(scaled, 0), 255))
            }
        }
    }

    /// The mask as floats, 0…1 (converted from bytes on first access for a `.uInt8` mask). Valid while the mask
    /// lives.
    public var float32Data: UnsafePointer<Float> {
        data(stored: floats, converted: \.convertedFloats) { converted in
            guard let bytes else { return }
            for i in 0..<count { converted[i] = Float(bytes[i]) / 255 }
        }
    }

    /// The mask's elements as `Element`: `stored` when the mask was made with that type, else the conversion kept at
    /// `converted`, which `convert` fills on first access (under `lock`, so that concurrent readers share one).
    private func data<Element>(
        stored: UnsafeMutablePointer<Element>?,
        converted: ReferenceWritableKeyPath<Mask, UnsafeMutablePointer<Element>?>,
        convert: (UnsafeMutablePointer<Element>) -> Void
    ) -> UnsafePointer<Element> {
        if let stored { return UnsafePointer(stored) }
        lock.lock()
        defer { lock.unlock() }
        if let kept = self[keyPath: converted] { return UnsafePointer(kept) }
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
        convert(storage)
        self[keyPath: converted] = storage
        return UnsafePointer(storage)
    }
}
