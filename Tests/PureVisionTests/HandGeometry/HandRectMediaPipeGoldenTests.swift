import Testing
import PureVision

/// One MediaPipe 0.10.14 case: 21 landmarks (x, y as float bit patterns), the image size, and the outputs of
/// `HandLandmarksToRectCalculator` and of the `RectTransformationCalculator` after it (x, y, w, h, rotation).
struct HandRectGolden: Sendable, CustomTestStringConvertible {
    var width: Int
    var height: Int
    var points: [UInt32]
    var rect: [UInt32]
    var tracking: [UInt32]

    var testDescription: String { "\(width)x\(height) from \(String(points[0], radix: 16))" }
}

/// Goldens printed by MediaPipe 0.10.14 (PyPI) running `ImagePropertiesCalculator` → `HandLandmarksToRectCalculator`
/// → `RectTransformationCalculator` (scale 2, shift_y −0.1, square_long) in a Python `CalculatorGraph`, on seeded
/// random hand-shaped point clouds (NumPy seed 2024): random angles, four image shapes, one hand left of the image.
private let handRectGoldens: [HandRectGolden] = [
    HandRectGolden(
        width: 640, height: 480,
        points: [
            0x3f1c51e7, 0x3f191b87, 0x3f33dca8, 0x3ea2a235, 0x3f155648, 0x3ef10a2a, 0x3f092fa0, 0x3f08c388,
            0x3f21f82d, 0x3f01d6a9, 0x3f357219, 0x3eac2121, 0x3f35d12f, 0x3f08ac25, 0x3f4ad8bf, 0x3edd56eb,
            0x3f3ef20c, 0x3eb018b9, 0x3f14d272, 0x3ecae9a7, 0x3f29c5f3, 0x3e9584a9, 0x3f3c81de, 0x3ece10e4,
            0x3f31a696, 0x3ec5e8fb, 0x3f3ccb77, 0x3ed97041, 0x3f33aa80, 0x3edbeed9, 0x3f332295, 0x3ee37345,
            0x3f4fe266, 0x3eff115b, 0x3f48083e, 0x3ef1f1e1, 0x3f17cc86, 0x3ebf8ff4, 0x3f3af72a, 0x3eb3f4d8,
            0x3f52abc9, 0x3e612ed2,
        ],
        rect: [0x3f2b03c1, 0x3ee97cdb, 0x3e66e8a6, 0x3ea0a926, 0x3e8469cc],
        tracking: [0x3f2c8e34, 0x3ed9f4b8, 0x3ef0fdba, 0x3f20a926, 0x3e8469cc]
    ),
    HandRectGolden(
        width: 480, height: 640,
        points: [
            0x3eea2581, 0x3ef76d4a, 0x3ea6c982, 0x3e9041f5, 0x3ee1bf73, 0x3eca5411, 0x3e9be822, 0x3ec8c80a,
            0x3ecacdc4, 0x3eeb8736, 0x3ec536dd, 0x3e8e0bfe, 0x3ee67d92, 0x3ec10087, 0x3ee8bf22, 0x3e89535d,
            0x3ee734e0, 0x3e890a4a, 0x3ea8f118, 0x3eadb3e5, 0x3eaef20f, 0x3e9b34f7, 0x3ee1df89, 0x3ebac464,
            0x3ee52e5e, 0x3e812a48, 0x3f014a0e, 0x3ef1e333, 0x3ed76ce8, 0x3ec4fc53, 0x3f020ea7, 0x3ec7d4ec,
            0x3ee3686a, 0x3e8bc328, 0x3ecc072c, 0x3ea63556, 0x3eea9270, 0x3eac836a, 0x3ec74dd5, 0x3ebaa785,
            0x3efd76fd, 0x3e82dfc6,
        ],
        rect: [0x3ec8d52b, 0x3ec4c272, 0x3e2e34ed, 0x3e691d7d, 0xbec9564c],
        tracking: [0x3ec2e0b0, 0x3eb9fe52, 0x3f1b68fe, 0x3ee91d7d, 0xbec9564c]
    ),
    HandRectGolden(
        width: 1280, height: 720,
        points: [
            0x3ec8a169, 0x3f0265f8, 0x3f03c0f1, 0x3edc1359, 0x3ec68b18, 0x3f07f893, 0x3f1cdbe6, 0x3f19d1ac,
            0x3ef0b09f, 0x3ee179b7, 0x3f0bd287, 0x3ea400a0, 0x3eec34c0, 0x3ef0d0b8, 0x3eb9afe1, 0x3f27fcae,
            0x3e8b549d, 0x3ed9cf75, 0x3ee93f09, 0x3f050c14, 0x3eb46f71, 0x3ece6e78, 0x3eb524cf, 0x3eda8b38,
            0x3ef44c2e, 0x3ef88947, 0x3ee56f22, 0x3ef20939, 0x3ef222d8, 0x3efcd0f7, 0x3f041752, 0x3ea318c8,
            0x3ecdb67f, 0x3ee947ab, 0x3ed8fbc2, 0x3eb90147, 0x3ef85992, 0x3ee0ad9f, 0x3f0853cf, 0x3efdb256,
            0x3ee282f1, 0x3edb3724,
        ],
        rect: [0x3ef7139e, 0x3f008474, 0x3e41d4e8, 0x3ebf9347, 0x3f9efa18],
        tracking: [0x3f00a344, 0x3efad950, 0x3ed785b0, 0x3f3f9347, 0x3f9efa18]
    ),
    HandRectGolden(
        width: 333, height: 517,
        points: [
            0x3f44ad26, 0x3e86f189, 0x3f08fe3e, 0x3e96b071, 0x3efaf823, 0x3e7e978d, 0x3f12f254, 0x3f09777f,
            0x3f20c85b, 0x3ebada41, 0x3f20cd6f, 0x3ed265ed, 0x3f09b6be, 0x3eb35f4e, 0x3f2c8a7e, 0x3e7c7111,
            0x3f1d0b99, 0x3e907807, 0x3f168ee8, 0x3ed69497, 0x3ee6d2d6, 0x3ed63938, 0x3f1cbec3, 0x3ec1d202,
            0x3ecf2645, 0x3ed23489, 0x3f0ee841, 0x3edc0e18, 0x3f16f858, 0x3ed7adf3, 0x3f32eb4c, 0x3e914505,
            0x3f2becc4, 0x3f05d8f0, 0x3f322452, 0x3ed03c92, 0x3f0be9d3, 0x3ea4f01a, 0x3f3b864e, 0x3f0e9b6a,
            0x3f1d55ce, 0x3ef13c1e,
        ],
        rect: [0x3f133b3e, 0x3eb5be40, 0x3eaa14eb, 0x3e96c9dd, 0xc020994d],
        tracking: [0x3f0c506b, 0x3ec1e84b, 0x3f6a1b6c, 0x3f16c9dd, 0xc020994d]
    ),
    HandRectGolden(
        width: 640, height: 480,
        points: [
            0xbeb9c67c, 0x3f0e846e, 0xbecd04e5, 0x3f0e279a, 0xbee509c6, 0x3efa92aa, 0xbeacdffe, 0x3f170945,
            0xbea5c8fc, 0x3f391772, 0xbe99b806, 0x3f0a70bc, 0xbea9b9c3, 0x3f26726d, 0xbe7f5bf8, 0x3efbf218,
            0xbe8a660f, 0x3ee5600c, 0xbe9a4f7c, 0x3f12ff40, 0xbe89c7e2, 0x3ed6c368, 0xbecc2e90, 0x3efe314c,
            0xbe9a15d4, 0x3ef67a8b, 0xbe9ed0e2, 0x3f2290b4, 0xbe9e4d75, 0x3f0aeea2, 0xbe88fce3, 0x3ee28853,
            0xbf079ed7, 0x3f06ebf8, 0xbea9acaa, 0x3ecf6553, 0xbee66f91, 0x3f12ab79, 0xbea46e92, 0x3f013879,
            0xbea752ce, 0x3ef87a44,
        ],
        rect: [0xbebb869e, 0x3f020285, 0x3e3c2405, 0x3e5ebfa1, 0x3fef2627],
        tracking: [0xbeb38a33, 0x3f03a47b, 0x3ebc2405, 0x3efadab1, 0x3fef2627]
    ),
    HandRectGolden(
        width: 200, height: 100,
        points: [
            0x3eda88b7, 0x3e9ffc5a, 0x3eff87cf, 0x3ebface2, 0x3ebcbec4, 0x3ec209d2, 0x3efa4deb, 0x3ea00714,
            0x3ee2a2f2, 0x3eacb613, 0x3f121d45, 0x3e572bc0, 0x3ee1dc82, 0x3df81976, 0x3ef91199, 0x3e9efa68,
            0x3eef3b42, 0x3e313763, 0x3f05f932, 0x3ed4de80, 0x3f160b34, 0x3e9a2338, 0x3ef41d7d, 0x3e87c77e,
            0x3efcb00d, 0x3e19a834, 0x3ecfce28, 0x3e932114, 0x3ef96562, 0x3e4db760, 0x3ed2a195, 0x3eb7358b,
            0x3f0fba87, 0x3eb32966, 0x3f065e92, 0x3e0b4ef9, 0x3f0127ad, 0x3e4b9c5c, 0x3f00be95, 0x3e9d2fc8,
            0x3ecbfe1b, 0x3e94a425,
        ],
        rect: [0x3ef6c720, 0x3e885cb8, 0x3e0f4b71, 0x3ed800d7, 0x3fd900ea],
        tracking: [0x3f00bf47, 0x3e8b0ba1, 0x3ed800d7, 0x3f5800d7, 0x3fd900ea]
    ),
]

@Suite struct HandRectMediaPipeGoldenTests {
    @Test(arguments: handRectGoldens)
    func matchesMediaPipeBitForBit(_ golden: HandRectGolden) {
        let landmarks = stride(from: 0, to: golden.points.count, by: 2).map { index in
            NormalizedLandmark(
                x: Float(bitPattern: golden.points[index]), y: Float(bitPattern: golden.points[index + 1]), z: 0)
        }
        let rect = HandLandmarksToRect.nextRect(
            landmarks: landmarks, imageWidth: golden.width, imageHeight: golden.height)
        expectBits(rect, golden.rect, "rect")
        let tracking = HandLandmarksToRect.trackingRect(
            landmarks: landmarks, imageWidth: golden.width, imageHeight: golden.height)
        expectBits(tracking, golden.tracking, "tracking rect")
    }

    private func expectBits(
        _ rect: NormalizedRect, _ expected: [UInt32], _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let actual = [rect.xCenter, rect.yCenter, rect.width, rect.height, rect.rotation].map(\.bitPattern)
        #expect(actual == expected, "\(label): \(rect)", sourceLocation: sourceLocation)
    }
}
