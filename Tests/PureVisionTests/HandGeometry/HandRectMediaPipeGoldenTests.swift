import PureVision
import Testing

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
            0x3f1c_51e7, 0x3f19_1b87, 0x3f33_dca8, 0x3ea2_a235, 0x3f15_5648, 0x3ef1_0a2a, 0x3f09_2fa0, 0x3f08_c388,
            0x3f21_f82d, 0x3f01_d6a9, 0x3f35_7219, 0x3eac_2121, 0x3f35_d12f, 0x3f08_ac25, 0x3f4a_d8bf, 0x3edd_56eb,
            0x3f3e_f20c, 0x3eb0_18b9, 0x3f14_d272, 0x3eca_e9a7, 0x3f29_c5f3, 0x3e95_84a9, 0x3f3c_81de, 0x3ece_10e4,
            0x3f31_a696, 0x3ec5_e8fb, 0x3f3c_cb77, 0x3ed9_7041, 0x3f33_aa80, 0x3edb_eed9, 0x3f33_2295, 0x3ee3_7345,
            0x3f4f_e266, 0x3eff_115b, 0x3f48_083e, 0x3ef1_f1e1, 0x3f17_cc86, 0x3ebf_8ff4, 0x3f3a_f72a, 0x3eb3_f4d8,
            0x3f52_abc9, 0x3e61_2ed2,
        ],
        rect: [0x3f2b_03c1, 0x3ee9_7cdb, 0x3e66_e8a6, 0x3ea0_a926, 0x3e84_69cc],
        tracking: [0x3f2c_8e34, 0x3ed9_f4b8, 0x3ef0_fdba, 0x3f20_a926, 0x3e84_69cc]
    ),
    HandRectGolden(
        width: 480, height: 640,
        points: [
            0x3eea_2581, 0x3ef7_6d4a, 0x3ea6_c982, 0x3e90_41f5, 0x3ee1_bf73, 0x3eca_5411, 0x3e9b_e822, 0x3ec8_c80a,
            0x3eca_cdc4, 0x3eeb_8736, 0x3ec5_36dd, 0x3e8e_0bfe, 0x3ee6_7d92, 0x3ec1_0087, 0x3ee8_bf22, 0x3e89_535d,
            0x3ee7_34e0, 0x3e89_0a4a, 0x3ea8_f118, 0x3ead_b3e5, 0x3eae_f20f, 0x3e9b_34f7, 0x3ee1_df89, 0x3eba_c464,
            0x3ee5_2e5e, 0x3e81_2a48, 0x3f01_4a0e, 0x3ef1_e333, 0x3ed7_6ce8, 0x3ec4_fc53, 0x3f02_0ea7, 0x3ec7_d4ec,
            0x3ee3_686a, 0x3e8b_c328, 0x3ecc_072c, 0x3ea6_3556, 0x3eea_9270, 0x3eac_836a, 0x3ec7_4dd5, 0x3eba_a785,
            0x3efd_76fd, 0x3e82_dfc6,
        ],
        rect: [0x3ec8_d52b, 0x3ec4_c272, 0x3e2e_34ed, 0x3e69_1d7d, 0xbec9_564c],
        tracking: [0x3ec2_e0b0, 0x3eb9_fe52, 0x3f1b_68fe, 0x3ee9_1d7d, 0xbec9_564c]
    ),
    HandRectGolden(
        width: 1280, height: 720,
        points: [
            0x3ec8_a169, 0x3f02_65f8, 0x3f03_c0f1, 0x3edc_1359, 0x3ec6_8b18, 0x3f07_f893, 0x3f1c_dbe6, 0x3f19_d1ac,
            0x3ef0_b09f, 0x3ee1_79b7, 0x3f0b_d287, 0x3ea4_00a0, 0x3eec_34c0, 0x3ef0_d0b8, 0x3eb9_afe1, 0x3f27_fcae,
            0x3e8b_549d, 0x3ed9_cf75, 0x3ee9_3f09, 0x3f05_0c14, 0x3eb4_6f71, 0x3ece_6e78, 0x3eb5_24cf, 0x3eda_8b38,
            0x3ef4_4c2e, 0x3ef8_8947, 0x3ee5_6f22, 0x3ef2_0939, 0x3ef2_22d8, 0x3efc_d0f7, 0x3f04_1752, 0x3ea3_18c8,
            0x3ecd_b67f, 0x3ee9_47ab, 0x3ed8_fbc2, 0x3eb9_0147, 0x3ef8_5992, 0x3ee0_ad9f, 0x3f08_53cf, 0x3efd_b256,
            0x3ee2_82f1, 0x3edb_3724,
        ],
        rect: [0x3ef7_139e, 0x3f00_8474, 0x3e41_d4e8, 0x3ebf_9347, 0x3f9e_fa18],
        tracking: [0x3f00_a344, 0x3efa_d950, 0x3ed7_85b0, 0x3f3f_9347, 0x3f9e_fa18]
    ),
    HandRectGolden(
        width: 333, height: 517,
        points: [
            0x3f44_ad26, 0x3e86_f189, 0x3f08_fe3e, 0x3e96_b071, 0x3efa_f823, 0x3e7e_978d, 0x3f12_f254, 0x3f09_777f,
            0x3f20_c85b, 0x3eba_da41, 0x3f20_cd6f, 0x3ed2_65ed, 0x3f09_b6be, 0x3eb3_5f4e, 0x3f2c_8a7e, 0x3e7c_7111,
            0x3f1d_0b99, 0x3e90_7807, 0x3f16_8ee8, 0x3ed6_9497, 0x3ee6_d2d6, 0x3ed6_3938, 0x3f1c_bec3, 0x3ec1_d202,
            0x3ecf_2645, 0x3ed2_3489, 0x3f0e_e841, 0x3edc_0e18, 0x3f16_f858, 0x3ed7_adf3, 0x3f32_eb4c, 0x3e91_4505,
            0x3f2b_ecc4, 0x3f05_d8f0, 0x3f32_2452, 0x3ed0_3c92, 0x3f0b_e9d3, 0x3ea4_f01a, 0x3f3b_864e, 0x3f0e_9b6a,
            0x3f1d_55ce, 0x3ef1_3c1e,
        ],
        rect: [0x3f13_3b3e, 0x3eb5_be40, 0x3eaa_14eb, 0x3e96_c9dd, 0xc020_994d],
        tracking: [0x3f0c_506b, 0x3ec1_e84b, 0x3f6a_1b6c, 0x3f16_c9dd, 0xc020_994d]
    ),
    HandRectGolden(
        width: 640, height: 480,
        points: [
            0xbeb9_c67c, 0x3f0e_846e, 0xbecd_04e5, 0x3f0e_279a, 0xbee5_09c6, 0x3efa_92aa, 0xbeac_dffe, 0x3f17_0945,
            0xbea5_c8fc, 0x3f39_1772, 0xbe99_b806, 0x3f0a_70bc, 0xbea9_b9c3, 0x3f26_726d, 0xbe7f_5bf8, 0x3efb_f218,
            0xbe8a_660f, 0x3ee5_600c, 0xbe9a_4f7c, 0x3f12_ff40, 0xbe89_c7e2, 0x3ed6_c368, 0xbecc_2e90, 0x3efe_314c,
            0xbe9a_15d4, 0x3ef6_7a8b, 0xbe9e_d0e2, 0x3f22_90b4, 0xbe9e_4d75, 0x3f0a_eea2, 0xbe88_fce3, 0x3ee2_8853,
            0xbf07_9ed7, 0x3f06_ebf8, 0xbea9_acaa, 0x3ecf_6553, 0xbee6_6f91, 0x3f12_ab79, 0xbea4_6e92, 0x3f01_3879,
            0xbea7_52ce, 0x3ef8_7a44,
        ],
        rect: [0xbebb_869e, 0x3f02_0285, 0x3e3c_2405, 0x3e5e_bfa1, 0x3fef_2627],
        tracking: [0xbeb3_8a33, 0x3f03_a47b, 0x3ebc_2405, 0x3efa_dab1, 0x3fef_2627]
    ),
    HandRectGolden(
        width: 200, height: 100,
        points: [
            0x3eda_88b7, 0x3e9f_fc5a, 0x3eff_87cf, 0x3ebf_ace2, 0x3ebc_bec4, 0x3ec2_09d2, 0x3efa_4deb, 0x3ea0_0714,
            0x3ee2_a2f2, 0x3eac_b613, 0x3f12_1d45, 0x3e57_2bc0, 0x3ee1_dc82, 0x3df8_1976, 0x3ef9_1199, 0x3e9e_fa68,
            0x3eef_3b42, 0x3e31_3763, 0x3f05_f932, 0x3ed4_de80, 0x3f16_0b34, 0x3e9a_2338, 0x3ef4_1d7d, 0x3e87_c77e,
            0x3efc_b00d, 0x3e19_a834, 0x3ecf_ce28, 0x3e93_2114, 0x3ef9_6562, 0x3e4d_b760, 0x3ed2_a195, 0x3eb7_358b,
            0x3f0f_ba87, 0x3eb3_2966, 0x3f06_5e92, 0x3e0b_4ef9, 0x3f01_27ad, 0x3e4b_9c5c, 0x3f00_be95, 0x3e9d_2fc8,
            0x3ecb_fe1b, 0x3e94_a425,
        ],
        rect: [0x3ef6_c720, 0x3e88_5cb8, 0x3e0f_4b71, 0x3ed8_00d7, 0x3fd9_00ea],
        tracking: [0x3f00_bf47, 0x3e8b_0ba1, 0x3ed8_00d7, 0x3f58_00d7, 0x3fd9_00ea]
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
