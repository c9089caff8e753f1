import PureVision
import Testing

@Suite struct HandDeduplicationTests {
    @Test func identicalHandsKeepTheFirst() {
        let hand = normalizedHand()
        #expect(HandDeduplication.deduplicate([hand, hand], imageWidth: 400, imageHeight: 200) == [0])
    }

    @Test func farApartHandsAreBothKept() {
        let left = normalizedHand { point in (point.x - 100, point.y) }
        let right = normalizedHand { point in (point.x + 100, point.y) }
        #expect(HandDeduplication.deduplicate([left, right], imageWidth: 400, imageHeight: 200) == [0, 1])
    }

    @Test func duplicateOfAKeptHandIsDroppedWherever() {
        let hand = normalizedHand()
        let other = normalizedHand { point in (point.x + 150, point.y) }
        let nearlyHand = normalizedHand { point in (point.x + 2, point.y - 1) }
        #expect(HandDeduplication.deduplicate([other, hand, nearlyHand], imageWidth: 400, imageHeight: 200) == [0, 1])
        #expect(HandDeduplication.deduplicate([nearlyHand, other, hand], imageWidth: 400, imageHeight: 200) == [0, 1])
    }

    @Test func suppressedHandsDoNotSuppressOthers() {
        // b duplicates a and is dropped; c is near b's landmarks only if b had been kept.
        let a = normalizedHand()
        let b = a
        let c = normalizedHand { point in (point.x + 60, point.y) }
        #expect(HandDeduplication.deduplicate([a, b, c], imageWidth: 400, imageHeight: 200) == [0, 2])
    }

    /// The upright hand's base is max(|0–5|, |5–17|, |17–0|) = √6250 ≈ 79.1 px, so landmarks within 15.8 px
    /// match. Moving `moved` non-base landmarks 30 px right leaves `21 − moved` matched, and the boxes' IoU stays
    /// 100/130 in x (> 0.2): 10 matched landmarks suppress, 9 do not.
    @Test(arguments: [(0, [0]), (10, [0]), (11, [0]), (12, [0, 1]), (18, [0, 1])])
    func tenMatchedLandmarksSuppress(moved: Int, kept: [Int]) {
        let original = normalizedHand()
        let movable = [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20]
        var copy = original
        for index in movable.prefix(moved) {
            copy[index].x += 30 / 400
        }
        #expect(HandDeduplication.deduplicate([original, copy], imageWidth: 400, imageHeight: 200) == kept)
    }

    @Test func matchingLandmarksWithoutOverlapAreKept() {
        // Every landmark matches, but a hand flattened onto one row has a zero-area box: the IoU is 0.
        let flat = normalizedHand().map { NormalizedLandmark(x: $0.x, y: 0.5, z: 0) }
        #expect(HandDeduplication.deduplicate([flat, flat], imageWidth: 400, imageHeight: 200) == [0, 1])
    }

    @Test func wrongLandmarkCountsAreKept() {
        let hand = normalizedHand()
        let short = Array(hand.prefix(12))
        #expect(
            HandDeduplication.deduplicate([short, hand, short, hand], imageWidth: 400, imageHeight: 200)
                == [0, 1, 2])
    }

    @Test func noHandsGiveNoIndices() {
        #expect(HandDeduplication.deduplicate([], imageWidth: 400, imageHeight: 200).isEmpty)
    }
}
