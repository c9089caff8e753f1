import PureVision
import PureVisionKernels
import PureVisionTFLite
import PureVisionTestSupport
import Testing

/// Every size limit of the package computed in `Int32` arithmetic, as a 32-bit `Int` (watchOS's arm64_32) would:
/// each must be positive and representable, and the largest sizes derived from it (bytes of the largest image,
/// tensor or anchor table) must not overflow. The limits that are 2³¹ or 2³² on 64-bit machines become the
/// largest `Int32` there; the ones below 2³¹ are the same.
@Suite struct ThirtyTwoBitLimitsTests {
    @Test func modelFileLimit() {
        #expect(ModelLimits.maximumFileByteCount(as: Int32.self) == Int32.max)
        #expect(ModelLimits.maximumFileByteCount(as: Int64.self) == 1 << 32)
        #expect(ModelLimits.maximumFileByteCount(as: UInt32.self) == UInt32.max)
        #expect(Int64(ModelLimits.maximumFileByteCount) == ModelLimits.maximumFileByteCount(as: Int64.self))
    }

    @Test func interpreterMemoryLimit() {
        #expect(InterpreterLimits.defaultMemoryLimit(as: Int32.self) == Int32.max)
        #expect(InterpreterLimits.defaultMemoryLimit(as: Int64.self) == 1 << 31)
        #expect(Int64(InterpreterLimits.defaultMemoryLimit) == InterpreterLimits.defaultMemoryLimit(as: Int64.self))
        #expect(InterpreterOptions().memoryLimit == InterpreterLimits.defaultMemoryLimit)
        #expect(Int32(exactly: InterpreterLimits.maximumRank) != nil)
    }

    @Test func imageLimits() throws {
        let side = try #require(Int32(exactly: ImageLimits.maximumDimension))
        let pixels = try #require(Int32(exactly: ImageLimits.maximumPixelCount))
        // The largest interleaved image (4 bytes a pixel) and the largest YUV 4:2:0 frame (1.5 bytes a pixel).
        #expect(!pixels.multipliedReportingOverflow(by: 4).overflow)
        #expect(!(pixels / 2).multipliedReportingOverflow(by: 3).overflow)
        // A full row of the widest image, and the tensor of the largest crop ImageToTensorConverter accepts.
        #expect(!side.multipliedReportingOverflow(by: 4).overflow)
        let tensorSide = try #require(Int32(exactly: ImageToTensorOptions.maximumDimension))
        let (tensorElements, overflow) = tensorSide.multipliedReportingOverflow(by: tensorSide)
        #expect(!overflow && !tensorElements.multipliedReportingOverflow(by: 3 * 4).overflow)
    }

    @Test func anchorAndNumpyLimits() throws {
        let anchors = try #require(Int32(exactly: SSDAnchors.maximumAnchorCount))
        // Four floats of four bytes per anchor.
        #expect(!anchors.multipliedReportingOverflow(by: 16).overflow)
        #expect(Int32(exactly: NumpyFile.maximumHeaderLength) != nil)
    }

    @Test func threadPoolTaskCountAndShares() {
        #expect(ThreadPool.maximumTaskCount(as: Int32.self) == Int32.max)
        #expect(ThreadPool.maximumTaskCount(as: Int64.self) == Int64(UInt32.max))
        #expect(Int64(ThreadPool.maximumTaskCount(as: Int.self)) == Int64(UInt32.max))
        // Shares of the largest call: `count · part / parts` must not overflow in 32 bits.
        var random = SplitMix64(seed: 32)
        for _ in 0..<2000 {
            let count = Int32.max - Int32(truncatingIfNeeded: random.next() % 1000)
            let parts = Int32(truncatingIfNeeded: random.next() % 64) + 1
            let part = Int32(truncatingIfNeeded: random.next() % UInt64(parts + 1))
            let expected = Int64(count) * Int64(part) / Int64(parts)
            #expect(Int64(ThreadPool.boundary(count, part: part, of: parts)) == expected)
            #expect(ThreadPool.boundary(Int64(count), part: Int64(part), of: Int64(parts)) == expected)
        }
        #expect(ThreadPool.boundary(Int32.max, part: 4, of: 4) == Int32.max)
    }
}
