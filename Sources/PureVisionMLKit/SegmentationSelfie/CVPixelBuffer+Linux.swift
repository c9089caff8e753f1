// Where CoreVideo does not exist (Linux): the part of CoreVideo that ML Kit's mask-reading code calls, so that code
// compiles unchanged. On Apple platforms the real CoreVideo is used (see SegmentationMask.swift).
#if !canImport(CoreVideo)
    /// A block of pixels: the stand-in for CoreVideo's `CVPixelBuffer` where CoreVideo does not exist. It holds one
    /// plane of one-channel float32 values (`kCVPixelFormatType_OneComponent32Float`), rows packed, in memory that
    /// stays at one address for the buffer's lifetime.
    public final class CVPixelBuffer: @unchecked Sendable {
        // @unchecked: the values are written once, at creation; afterwards they are read through the base address,
        // as CoreVideo's buffers are (which are shared the same way).
        let width: Int
        let height: Int
        let baseAddress: UnsafeMutableRawPointer

        /// A buffer holding `values`, `width · height` float32 values, row by row.
        init(width: Int, height: Int, values: [Float]) {
            self.width = width
            self.height = height
            let count = width * height
            let floats = UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1))
            floats.initialize(repeating: 0, count: max(count, 1))
            values.withUnsafeBufferPointer { source in
                if let from = source.baseAddress { floats.update(from: from, count: min(count, source.count)) }
            }
            baseAddress = UnsafeMutableRawPointer(floats)
        }

        deinit { baseAddress.deallocate() }
    }

    /// CoreVideo's status code (`CVReturn`); these functions only return `kCVReturnSuccess`.
    public typealias CVReturn = Int32
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// CoreVideo's success status.
    public let kCVReturnSuccess: CVReturn = 0
    /// CoreVideo's pixel format code (`OSType`).
    public typealias OSType = UInt32
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// CoreVideo's `kCVPixelFormatType_OneComponent32Float` (`'fL00'`): the format of a segmentation mask.
    public let kCVPixelFormatType_OneComponent32Float: OSType = 0x664C_3030

    /// CoreVideo's `CVPixelBufferLockFlags`: how the base address is locked.
    public struct CVPixelBufferLockFlags: OptionSet, Sendable {
        /// The flags' bits.
        public let rawValue: UInt64
        /// Creates flags from their bits.
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        /// Only read through the base address (`kCVPixelBufferLock_ReadOnly`).
        public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// CoreVideo's `kCVPixelBufferLock_ReadOnly`.
    public let kCVPixelBufferLock_ReadOnly = CVPixelBufferLockFlags.readOnly

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// CoreVideo's `CVPixelBufferLockBaseAddress`: here the memory is always accessible, so locking only succeeds.
    @discardableResult
    public func CVPixelBufferLockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags)
        -> CVReturn
    { kCVReturnSuccess }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// CoreVideo's `CVPixelBufferUnlockBaseAddress`: the counterpart of `CVPixelBufferLockBaseAddress`.
    @discardableResult
    public func CVPixelBufferUnlockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags)
        -> CVReturn
    { kCVReturnSuccess }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// CoreVideo's `CVPixelBufferGetBaseAddress`: the first row's first value.
    public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? {
        pixelBuffer.baseAddress
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// CoreVideo's `CVPixelBufferGetWidth`: columns.
    public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.width }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// CoreVideo's `CVPixelBufferGetHeight`: rows.
    public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.height }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// CoreVideo's `CVPixelBufferGetBytesPerRow`: the distance between rows (`width · 4`: rows are packed).
    public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int {
        pixelBuffer.width * MemoryLayout<Float>.size
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// CoreVideo's `CVPixelBufferGetPixelFormatType`: always `kCVPixelFormatType_OneComponent32Float`.
    public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType {
        kCVPixelFormatType_OneComponent32Float
    }
#endif
