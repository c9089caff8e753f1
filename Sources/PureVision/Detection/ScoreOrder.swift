import PureVisionKernels

/// The order in which MediaPipe visits detections: `std::sort` of `(index, score)` pairs by score,
/// descending, as libstdc++ implements it (introsort with median-of-three pivots, a 16-element
/// insertion-sort threshold and a heap-sort fallback at depth 2·⌊log₂ n⌋).
///
/// `std::sort` is not stable, so which of two equal scores comes first depends on that exact algorithm;
/// replaying it reproduces MediaPipe's tie order. Up to 16 detections it is a plain insertion sort, so ties
/// keep their input order there. The unguarded loops of the C++ are bounded here, which changes nothing for
/// comparable scores and keeps NaN scores from reading out of bounds.
enum ScoreOrder {
    /// Returns the indices of `scores` in MediaPipe's visiting order.
    ///
    /// With more than one thread, at least ``minimumSplitCount`` scores and no NaN, the two parts of the first
    /// partition are sorted on two threads. That is the same sort: the loop recurses into the right part and
    /// continues on the left one, each with the same depth limit, and neither touches the other's elements; and the
    /// final insertion pass never moves an element of the right part below the cut (every element left of it scores
    /// at least the pivot, every one right of it at most, and an element moves only past strictly lower scores), so
    /// each part can take its own pass, the right one bounded at the cut. NaN scores are left to the serial sort:
    /// with them the median of three need not stop the scans, and the parts need not be ordered.
    static func indices(_ scores: [Float], pool: ThreadPool = .serial) -> [Int] {
        var items = scores.indices.map { Item(index: $0, score: scores[$0]) }
        items.withUnsafeMutableBufferPointer { buffer in
            let count = buffer.count
            guard count > 1 else { return }
            let depthLimit = 2 * (Int.bitWidth - 1 - count.leadingZeroBitCount)
            guard pool.threadCount > 1, count >= minimumSplitCount, !scores.contains(where: \.isNaN) else {
                introsortLoop(buffer, 0, count, depthLimit: depthLimit)
                finalInsertionSort(buffer, 0, count)
                return
            }
            let cut = partitionPivot(buffer, 0, count)
            guard cut > threshold else {
                // The first 16 elements straddle the cut: finish as the serial sort would.
                introsortLoop(buffer, cut, count, depthLimit: depthLimit - 1)
                introsortLoop(buffer, 0, cut, depthLimit: depthLimit - 1)
                finalInsertionSort(buffer, 0, count)
                return
            }
            pool.parallelFor(2) { part in
                if part == 0 {
                    introsortLoop(buffer, 0, cut, depthLimit: depthLimit - 1)
                    finalInsertionSort(buffer, 0, cut)
                } else {
                    introsortLoop(buffer, cut, count, depthLimit: depthLimit - 1)
                    for i in cut..<count { unguardedLinearInsert(buffer, i, lowerBound: cut) }
                }
            }
        }
        return items.map(\.index)
    }

    /// Scores below which the sort stays on one thread.
    static let minimumSplitCount = 4096

    struct Item {
        var index: Int
        var score: Float
    }

    typealias Buffer = UnsafeMutableBufferPointer<Item>

    private static let threshold = 16

    @inline(__always)
    private static func before(_ a: Item, _ b: Item) -> Bool { a.score > b.score }

    private static func introsortLoop(_ v: Buffer, _ first: Int, _ lastIn: Int, depthLimit limitIn: Int) {
        var last = lastIn
        var depthLimit = limitIn
        while last - first > threshold {
            if depthLimit == 0 {
                heapSort(v, first, last)
                return
            }
            depthLimit -= 1
            let cut = partitionPivot(v, first, last)
            introsortLoop(v, cut, last, depthLimit: depthLimit)
            last = cut
        }
    }

    private static func partitionPivot(_ v: Buffer, _ first: Int, _ last: Int) -> Int {
        let mid = first + (last - first) / 2
        moveMedianToFirst(v, first, first + 1, mid, last - 1)
        return unguardedPartition(v, first + 1, last, pivot: first)
    }

    private static func moveMedianToFirst(_ v: Buffer, _ result: Int, _ a: Int, _ b: Int, _ c: Int) {
        let median: Int
        if before(v[a], v[b]) {
            if before(v[b], v[c]) {
                median = b
            } else if before(v[a], v[c]) {
                median = c
            } else {
                median = a
            }
        } else if before(v[a], v[c]) {
            median = a
        } else if before(v[b], v[c]) {
            median = c
        } else {
            median = b
        }
        v.swapAt(result, median)
    }

    private static func unguardedPartition(_ v: Buffer, _ firstIn: Int, _ lastIn: Int, pivot: Int) -> Int {
        var first = firstIn
        var last = lastIn
        while true {
            while first < lastIn - 1 && before(v[first], v[pivot]) { first += 1 }
            last -= 1
            while last > pivot && before(v[pivot], v[last]) { last -= 1 }
            if !(first < last) { return first }
            v.swapAt(first, last)
            first += 1
        }
    }

    private static func finalInsertionSort(_ v: Buffer, _ first: Int, _ last: Int) {
        if last - first > threshold {
            insertionSort(v, first, first + threshold)
            for i in (first + threshold)..<last { unguardedLinearInsert(v, i, lowerBound: first) }
        } else {
            insertionSort(v, first, last)
        }
    }

    private static func insertionSort(_ v: Buffer, _ first: Int, _ last: Int) {
        guard last - first > 1 else { return }
        for i in (first + 1)..<last {
            if before(v[i], v[first]) {
                let value = v[i]
                var j = i
                while j > first {
                    v[j] = v[j - 1]
                    j -= 1
                }
                v[first] = value
            } else {
                unguardedLinearInsert(v, i, lowerBound: first)
            }
        }
    }

    private static func unguardedLinearInsert(_ v: Buffer, _ position: Int, lowerBound: Int) {
        let value = v[position]
        var hole = position
        while hole > lowerBound && before(value, v[hole - 1]) {
            v[hole] = v[hole - 1]
            hole -= 1
        }
        v[hole] = value
    }

    private static func heapSort(_ v: Buffer, _ first: Int, _ last: Int) {
        let length = last - first
        if length >= 2 {
            var parent = (length - 2) / 2
            while true {
                adjustHeap(v, first, hole: parent, length: length, value: v[first + parent])
                if parent == 0 { break }
                parent -= 1
            }
        }
        var end = last
        while end - first > 1 {
            end -= 1
            let value = v[end]
            v[end] = v[first]
            adjustHeap(v, first, hole: 0, length: end - first, value: value)
        }
    }

    private static func adjustHeap(_ v: Buffer, _ base: Int, hole holeIn: Int, length: Int, value: Item) {
        var hole = holeIn
        let top = holeIn
        var child = holeIn
        while child < (length - 1) / 2 {
            child = 2 * (child + 1)
            if before(v[base + child], v[base + child - 1]) { child -= 1 }
            v[base + hole] = v[base + child]
            hole = child
        }
        if length & 1 == 0 && child == (length - 2) / 2 {
            child = 2 * (child + 1)
            v[base + hole] = v[base + child - 1]
            hole = child - 1
        }
        var parent = (hole - 1) / 2
        while hole > top && before(v[base + parent], value) {
            v[base + hole] = v[base + parent]
            hole = parent
            parent = (hole - 1) / 2
        }
        v[base + hole] = value
    }
}
