import PureVision
import Testing

@Suite struct SSDAnchorsTests {
    @Test(arguments: [
        ("palm192", SSDAnchorOptions.palmDetection192, 2016),
        ("faceShort128", SSDAnchorOptions.faceShortRange128, 896),
        ("faceFull192", SSDAnchorOptions.faceFullRange192, 2304),
    ])
    func presetCounts(name: String, options: SSDAnchorOptions, count: Int) throws {
        let anchors = try SSDAnchors.generate(options)
        #expect(anchors.count == count, "\(name)")
        #expect(anchors.allSatisfy { $0.width == 1 && $0.height == 1 }, "\(name): fixed anchor size")
    }

    @Test func palmAnchorsByHand() throws {
        let anchors = try SSDAnchors.generate(.palmDetection192)
        // Layer 0: stride 8, 24×24 cells, two anchors (ratio 1 and the interpolated one) per cell.
        let first = Float(0.5) / 24
        #expect(anchors[0] == SSDAnchor(xCenter: first, yCenter: first, width: 1, height: 1))
        #expect(anchors[1] == anchors[0])
        #expect(anchors[2].xCenter == Float(1.5) / 24 && anchors[2].yCenter == first)
        #expect(anchors[48].xCenter == first && anchors[48].yCenter == Float(1.5) / 24)
        #expect(anchors[1151] == SSDAnchor(xCenter: Float(23.5) / 24, yCenter: Float(23.5) / 24, width: 1, height: 1))
        // Layers 1-3 (stride 16) merge into one 12×12 grid with 6 anchors per cell.
        #expect(anchors[1152] == SSDAnchor(xCenter: Float(0.5) / 12, yCenter: Float(0.5) / 12, width: 1, height: 1))
        #expect(anchors[1157] == anchors[1152])
        #expect(anchors[1158].xCenter == Float(1.5) / 12)
        #expect(anchors[2015] == SSDAnchor(xCenter: Float(11.5) / 12, yCenter: Float(11.5) / 12, width: 1, height: 1))
    }

    @Test func faceFullRangeByHand() throws {
        let anchors = try SSDAnchors.generate(.faceFullRange192)
        #expect(anchors[0] == SSDAnchor(xCenter: Float(0.5) / 48, yCenter: Float(0.5) / 48, width: 1, height: 1))
        #expect(anchors[1].xCenter == Float(1.5) / 48)
        #expect(anchors[2303] == SSDAnchor(xCenter: Float(47.5) / 48, yCenter: Float(47.5) / 48, width: 1, height: 1))
    }

    @Test func sizedAnchorsFollowScalesAndRatios() throws {
        let anchors = try SSDAnchors.generate(customOptions)
        #expect(anchors.count == 300)
        // Reduced lowest layer: ratios 1, 2, 0.5 with scales 0.1, s0, s0 (s0 = minScale).
        let root2 = Float(2).squareRoot()
        let rootHalf = Float(0.5).squareRoot()
        #expect(anchors[0].width == 0.1 && anchors[0].height == 0.1)
        #expect(anchors[1].width == Float(0.2) * root2 && anchors[1].height == Float(0.2) / root2)
        #expect(anchors[2].width == Float(0.2) * rootHalf && anchors[2].height == Float(0.2) / rootHalf)
        // Offsets (0.5, 0.25) in cells; 96/16 = 6 rows, 160/16 = 10 columns.
        #expect(anchors[0].xCenter == Float(0.5) / 10 && anchors[0].yCenter == Float(0.25) / 6)
        // Merged stride-32 layers 1 and 2: scale_i = 0.2 + 0.75·i/2 in double, rounded to float.
        let s1 = Float(Double(Float(0.2)) + Double(Float(0.95) - Float(0.2)) * 1 / 2)
        let s2 = Float(Double(Float(0.2)) + Double(Float(0.95) - Float(0.2)) * 2 / 2)
        let cell = Array(anchors[180..<188])
        #expect(
            cell.map(\.width) == [
                s1, s1 * root2, s1 * rootHalf, (s1 * s2).squareRoot(),
                s2, s2 * root2, s2 * rootHalf, s2.squareRoot(),
            ])
        #expect(cell[3].height == (s1 * s2).squareRoot())
        #expect(anchors[299].xCenter == Float(4.5) / 5 && anchors[299].yCenter == Float(2.25) / 3)
    }

    @Test func featureMapsOverrideStrideGrids() throws {
        var options = SSDAnchorOptions.faceFullRange192
        options.featureMapWidth = [3]
        options.featureMapHeight = [2]
        let anchors = try SSDAnchors.generate(options)
        #expect(anchors.count == 6)
        #expect(anchors[5] == SSDAnchor(xCenter: Float(2.5) / 3, yCenter: Float(1.5) / 2, width: 1, height: 1))
    }

    @Test(arguments: invalidAnchorOptions())
    func invalidOptionsThrow(name: String, options: SSDAnchorOptions) {
        #expect(throws: DetectionError.self, "\(name)") { try SSDAnchors.generate(options) }
    }
}

private func invalidAnchorOptions() -> [(String, SSDAnchorOptions)] {
    let base = SSDAnchorOptions.palmDetection192
    var cases: [(String, SSDAnchorOptions)] = []
    var options = base
    options.numLayers = 0
    cases.append(("no layers", options))
    options = base
    options.strides = [8, 16]
    cases.append(("fewer strides than layers", options))
    options = base
    options.strides = [8, 0, 16, 16]
    cases.append(("zero stride", options))
    options = base
    options.inputSizeWidth = 0
    cases.append(("zero input", options))
    options = base
    options.featureMapWidth = [1]
    cases.append(("feature map count", options))
    options = base
    options.featureMapWidth = [1 << 20, 1, 1, 1]
    options.featureMapHeight = [1 << 20, 1, 1, 1]
    cases.append(("too many anchors", options))
    return cases
}

/// Non-fixed anchors with a reduced lowest layer; mirrors the `custom_ssd` case of `tools/make_anchor_goldens.py`.
let customOptions = SSDAnchorOptions(
    inputSizeWidth: 160, inputSizeHeight: 96, minScale: 0.2, maxScale: 0.95,
    anchorOffsetX: 0.5, anchorOffsetY: 0.25, numLayers: 3, strides: [16, 32, 32],
    aspectRatios: [1.0, 2.0, 0.5], reduceBoxesInLowestLayer: true
)
