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

    /// MediaPipe's `init(uInt8Data:width:height:shouldCopy:)`. The data is always copied here (a PureVision mask never
    /// refers to memory it does not own), whatever `shouldCopy` says.
    public init(uInt8Data: UnsafePointer<UInt8>, width: Int, height: Int, shouldCopy: Bool) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        dataType = .uInt8
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(self.width * self.height, 1))
        storage.initialize(from: uInt8Data, count: self.width * self.height)
        bytes = storage
        floats = nil
    }

    /// MediaPipe's `init(float32Data:width:height:shouldCopy:)`. The data is always copied here.
    public init(float32Data: UnsafePointer<Float>, width: Int, height: Int, shouldCopy: Bool) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        dataType = .float32
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: max(self.width * self.height, 1))
        storage.initialize(from: float32Data, count: self.width * self.height)
        floats = storage
        bytes = nil
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
        if let bytes { return UnsafePointer(bytes) }
        lock.lock()
        defer { lock.unlock() }
        if let convertedBytes { return UnsafePointer(convertedBytes) }
        let converted = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
        if let floats {
            for i in 0..<count {
                let scaled = floats[i] * 255
                converted[i] = scaled.isNaN ? 0 : UInt8(min(max(scaled, 0), 255))  // truncated, as MediaPipe's C cast
            }
        }
        convertedBytes = converted
        return UnsafePointer(converted)
    }

    /// The mask as floats, 0…1 (converted from bytes on first access for a `.uInt8` mask). Valid while the mask
    /// lives.
    public var float32Data: UnsafePointer<Float> {
        if let floats { return UnsafePointer(floats) }
        lock.lock()
        defer { lock.unlock() }
        if let convertedFloats { return UnsafePointer(convertedFloats) }
        let converted = UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1))
        if let bytes {
            for i in 0..<count { converted[i] = Float(bytes[i]) / 255 }
        }
        convertedFloats = converted
        return UnsafePointer(converted)
    }
}
