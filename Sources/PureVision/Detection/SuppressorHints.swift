/// Which kept box suppressed each detection in greedy suppression (for a kept detection: its own box), so that the
/// detections next to it in the input are tested against that box first.
///
/// An SSD model lists the anchors of one location next to each other (scales and aspect ratios), and the kept box of
/// one of them tends to suppress the others: a single similarity then settles most candidates without a search of
/// the kept boxes.
/// A hint only orders the tests. A candidate counts as suppressed only when a kept box's similarity with it is above
/// the threshold, so the result does not depend on the hints.
struct SuppressorHints {
    /// Per detection (input index), the position among the kept boxes of the box that suppressed it, or of its own box
    /// when it was kept; −1 when neither is known.
    private let ordinals: UnsafeMutablePointer<Int32>
    private let count: Int

    /// Hints for `count` detections, none known.
    init(count: Int) {
        self.count = count
        ordinals = .allocate(capacity: max(1, count))
        ordinals.initialize(repeating: -1, count: max(1, count))
    }

    func deallocate() { ordinals.deallocate() }

    /// How many detections on each side of a candidate lend it their hints. (On EfficientDet-Lite0's 19,206 boxes, 4
    /// settle 13,000 of the 17,000 suppressed ones, 1 settles 9,300; more save few searches and cost more tries.)
    static let reach = 4

    /// Whether a box kept in `grid` suppresses the detection at `index` (its box `rect`): first the boxes hinted by
    /// the ``reach`` detections on each side of it, nearest first, then a search of the grid. Records the suppressor
    /// when it is known.
    func suppressed(_ index: Int, _ rect: RelativeRect, by grid: RetainedRectGrid) -> Bool {
        var distance = 1
        var previous = -1
        while distance <= Self.reach {
            // A hint shared by consecutive neighbours (one kept box for a whole location) is tried once.
            if index >= distance {
                let hint = Int(ordinals[index - distance])
                if hint != previous, tries(hint, index, rect, grid) { return true }
                previous = hint
            }
            if index + distance < count {
                let hint = Int(ordinals[index + distance])
                if hint != previous, tries(hint, index, rect, grid) { return true }
                previous = hint
            }
            distance += 1
        }
        guard let found = grid.suppressor(of: rect) else { return false }
        record(found, for: index)
        return true
    }

    /// Whether the kept box at `ordinal` (if any) suppresses the detection at `index`, recording it when it does.
    @inline(__always)
    private func tries(_ ordinal: Int, _ index: Int, _ rect: RelativeRect, _ grid: RetainedRectGrid) -> Bool {
        guard ordinal >= 0, grid.keptBoxSuppresses(ordinal, rect) else { return false }
        ordinals[index] = Int32(truncatingIfNeeded: ordinal)
        return true
    }

    /// Records that the kept box at `ordinal` (−1: unknown) suppressed the detection at `index`, or is its own.
    func record(_ ordinal: Int, for index: Int) {
        ordinals[index] = Int32(exactly: ordinal) ?? -1
    }

    /// The recorded suppressor of the detection at `index`, or −1.
    func ordinal(for index: Int) -> Int { Int(ordinals[index]) }
}
