import PureVision
import Testing

private func rect(_ x: Float, _ y: Float, _ w: Float, _ h: Float, rotation: Float = 0) -> NormalizedRect {
    NormalizedRect(xCenter: x, yCenter: y, width: w, height: h, rotation: rotation)
}

@Suite struct HandAssociationTests {
    @Test func tracksAreKeptAndSeparateDetectionsAdded() {
        let tracked = [rect(0.25, 0.5, 0.2, 0.2)]
        let detected = [rect(0.75, 0.5, 0.2, 0.2), rect(0.5, 0.1, 0.1, 0.1)]
        let result = HandAssociation.associate(
            trackedRects: tracked, detectedRects: detected, minSimilarityThreshold: 0.5, maxHands: 4)
        #expect(result == tracked + detected)
    }

    @Test func overlappingDetectionIsRejected() {
        let tracked = [rect(0.5, 0.5, 0.4, 0.4)]
        let detected = [rect(0.52, 0.5, 0.4, 0.4, rotation: 1.2)]
        let result = HandAssociation.associate(
            trackedRects: tracked, detectedRects: detected, minSimilarityThreshold: 0.5, maxHands: 2)
        #expect(result == tracked)
    }

    @Test func detectionsAreComparedWithEarlierAddedDetections() {
        let detected = [rect(0.3, 0.3, 0.2, 0.2), rect(0.31, 0.3, 0.2, 0.2), rect(0.7, 0.7, 0.2, 0.2)]
        let result = HandAssociation.associate(
            trackedRects: [], detectedRects: detected, minSimilarityThreshold: 0.5, maxHands: 3)
        #expect(result == [detected[0], detected[2]])
    }

    /// Boxes [0, 0.5] and [0.25, 0.75] (× [0, 1]) have an IoU of exactly 0.25/0.75 = 1/3 in float as well.
    @Test(arguments: [(Float(1) / 3, 2), (Float(1) / 3 - 1e-6, 1), (0.5, 2), (0.3, 1)])
    func iouEqualToTheThresholdIsAdded(threshold: Float, expectedCount: Int) {
        let tracked = [rect(0.25, 0.5, 0.5, 1)]
        let detected = [rect(0.5, 0.5, 0.5, 1)]
        let result = HandAssociation.associate(
            trackedRects: tracked, detectedRects: detected, minSimilarityThreshold: threshold, maxHands: 2)
        #expect(result.count == expectedCount)
    }

    @Test func touchingBoxesHaveZeroIoU() {
        // Edges meet at x = 0.5: the boxes "intersect" with zero area, so the IoU is 0 and any threshold adds.
        let result = HandAssociation.associate(
            trackedRects: [rect(0.25, 0.5, 0.5, 0.5)], detectedRects: [rect(0.75, 0.5, 0.5, 0.5)],
            minSimilarityThreshold: 0.01, maxHands: 2)
        #expect(result.count == 2)
    }

    @Test func rotationIsIgnored() {
        // A thin rect turned a quarter would cross the other; unrotated they are apart.
        let tracked = [rect(0.5, 0.5, 0.6, 0.05)]
        let detected = [rect(0.5, 0.8, 0.6, 0.05, rotation: Float.pi / 2)]
        let result = HandAssociation.associate(
            trackedRects: tracked, detectedRects: detected, minSimilarityThreshold: 0.1, maxHands: 2)
        #expect(result.count == 2)
    }

    @Test(arguments: [(0, 0), (1, 1), (2, 2), (3, 3), (5, 3), (-1, 0)])
    func resultIsClippedToMaxHands(maxHands: Int, expectedCount: Int) {
        let tracked = [rect(0.1, 0.1, 0.1, 0.1), rect(0.9, 0.9, 0.1, 0.1)]
        let detected = [rect(0.5, 0.5, 0.1, 0.1)]
        let result = HandAssociation.associate(
            trackedRects: tracked, detectedRects: detected, minSimilarityThreshold: 0.5, maxHands: maxHands)
        #expect(result == Array((tracked + detected).prefix(expectedCount)))
    }

    @Test func trackedRectsAreKeptEvenWhenTheyOverlap() {
        let tracked = [rect(0.5, 0.5, 0.3, 0.3), rect(0.5, 0.5, 0.3, 0.3)]
        let result = HandAssociation.associate(
            trackedRects: tracked, detectedRects: [], minSimilarityThreshold: 0.5, maxHands: 2)
        #expect(result == tracked)
    }

    @Test func negativeSizeDetectionsAreSkipped() {
        let detected = [rect(0.5, 0.5, -0.1, 0.1), rect(0.2, 0.2, 0.1, 0.1)]
        let result = HandAssociation.associate(
            trackedRects: [], detectedRects: detected, minSimilarityThreshold: 0.5, maxHands: 2)
        #expect(result == [detected[1]])
    }
}
