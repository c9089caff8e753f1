import PureVisionImage
import PureVisionTestSupport
import Testing

@Suite struct OrientationTests {
    /// The stored 3×2 gray image
    ///     1 2 3
    ///     4 5 6
    func stored(_ orientation: ImageOrientation) throws -> PixelImage {
        try PixelImage(width: 3, height: 2, format: .gray8, pixels: [1, 2, 3, 4, 5, 6], orientation: orientation)
    }

    @Test func upCopies() throws {
        let upright = try stored(.up).applyingOrientation()
        #expect(upright.width == 3 && upright.height == 2 && packedPixels(upright) == [1, 2, 3, 4, 5, 6])
    }

    @Test func rightRotatesClockwise() throws {
        // Rotated 90° clockwise: the left column (1, 4), read bottom-up, becomes the top row.
        //     4 1
        //     5 2
        //     6 3
        let upright = try stored(.right).applyingOrientation()
        #expect(upright.width == 2 && upright.height == 3)
        #expect(packedPixels(upright) == [4, 1, 5, 2, 6, 3])
        #expect(upright.orientation == .up)
    }

    @Test func leftRotatesCounterClockwise() throws {
        //     3 6
        //     2 5
        //     1 4
        let upright = try stored(.left).applyingOrientation()
        #expect(upright.width == 2 && upright.height == 3)
        #expect(packedPixels(upright) == [3, 6, 2, 5, 1, 4])
    }

    @Test func downRotates180() throws {
        let upright = try stored(.down).applyingOrientation()
        #expect(upright.width == 3 && upright.height == 2 && packedPixels(upright) == [6, 5, 4, 3, 2, 1])
    }

    @Test func rotationsKeepChannelsTogether() throws {
        let rgb = try PixelImage(
            width: 2, height: 1, format: .rgb8, pixels: [1, 2, 3, 4, 5, 6], bytesPerRow: 6, orientation: .right)
        #expect(packedPixels(try rgb.applyingOrientation()) == [1, 2, 3, 4, 5, 6])
        let left = try PixelImage(width: 2, height: 1, format: .rgb8, pixels: [1, 2, 3, 4, 5, 6], orientation: .left)
        #expect(packedPixels(try left.applyingOrientation()) == [4, 5, 6, 1, 2, 3])
    }

    @Test func fourRightTurnsAreTheIdentity() throws {
        var image = try PixelImage(contentsOfFile: fixturePath("rgb_baseline.jpg"))
        let original = packedPixels(image)
        for _ in 0..<4 {
            image.orientation = .right
            image = try image.applyingOrientation()
        }
        #expect(packedPixels(image) == original)
    }

    @Test(arguments: ImageOrientation.allCases.filter(\.isMirrored))
    func mirroredOrientationsAreRejected(_ orientation: ImageOrientation) throws {
        #expect(throws: ImageError.mirroredOrientation(orientation)) { try stored(orientation).applyingOrientation() }
    }

    @Test func onlyTheFourRotationsAreUnmirrored() {
        #expect(ImageOrientation.allCases.filter { !$0.isMirrored } == [.up, .down, .left, .right])
    }
}
