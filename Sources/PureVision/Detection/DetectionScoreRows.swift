/// The score tensor of a `DetectionDecoder` run, one row of `numClasses` values per box.
protocol DetectionScoreRows {
    /// MediaPipe's scan over box `box`'s competing classes: start at −FLT_MAX with class −1 and take every score
    /// strictly greater than the best so far.
    func bestClass(box: Int) -> (classID: Int, score: Float)
}

/// Float scores, clipped and passed through the sigmoid as the options say, class by class.
struct FloatScoreRows: DetectionScoreRows {
    let base: UnsafePointer<Float>
    let options: DetectionDecoderOptions
    /// Nil when every class competes.
    let competing: [Bool]?

    init(base: UnsafePointer<Float>, options: DetectionDecoderOptions) {
        self.base = base
        self.options = options
        competing = DetectionDecoder.competingClasses(options)
    }

    func bestClass(box: Int) -> (classID: Int, score: Float) {
        let count = options.numClasses
        let row = base + box * count
        if competing == nil && !options.sigmoidScore { return DetectionDecoder.firstBestClass(row, count: count) }
        return scan(count: count, competing: competing) { DetectionDecoder.classScore(row[$0], options: options) }
    }
}

extension DetectionScoreRows {
    /// The scan itself over `count` classes (those `competing` allows, all when nil) with each class's `score`.
    @inline(__always)
    func scan(count: Int, competing: [Bool]?, score: (Int) -> Float) -> (classID: Int, score: Float) {
        var best = (classID: -1, score: -Float.greatestFiniteMagnitude)
        for classIndex in 0..<count {
            if let competing, !competing[classIndex] { continue }
            let value = score(classIndex)
            if best.score < value { best = (classIndex, value) }
        }
        return best
    }
}

/// The score each byte of a uint8 score tensor stands for, as the decoder compares it: `scale · (q − zeroPoint)`
/// (as MediaPipe dequantizes the tensor), then clipped and passed through the sigmoid when the options say so.
///
/// Made once per model. When the scores never decrease as the byte grows and none is NaN (any positive scale), the
/// scan's answer for a row follows from its largest byte alone: see ``ByteScoreRows``.
package final class QuantizedScoreTable: @unchecked Sendable {
    // @unchecked: the storage is written only in `init` and read-only afterwards.
    /// The score of every byte value (256).
    let scores: UnsafeMutablePointer<Float>
    /// For each byte q, the smallest byte whose score equals q's (256); nil when the scores decrease somewhere or
    /// hold a NaN.
    let tieStart: UnsafeMutablePointer<UInt8>?
    /// The options the scores were made with.
    let sigmoidScore: Bool
    let scoreClippingThresh: Float?

    /// The table for a tensor quantized with `scale` and `zeroPoint`, decoded with `options`.
    package init(scale: Float, zeroPoint: Int, options: DetectionDecoderOptions) {
        let scores = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        for q in 0..<256 {
            (scores + q).initialize(to: DetectionDecoder.classScore(scale * Float(q - zeroPoint), options: options))
        }
        self.scores = scores
        if (1..<256).allSatisfy({ scores[$0 - 1] <= scores[$0] }) {
            let starts = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
            starts.initialize(to: 0)
            for q in 1..<256 { (starts + q).initialize(to: scores[q] == scores[q - 1] ? starts[q - 1] : UInt8(q)) }
            tieStart = starts
        } else {
            tieStart = nil
        }
        sigmoidScore = options.sigmoidScore
        scoreClippingThresh = options.scoreClippingThresh
    }

    deinit {
        scores.deallocate()
        tieStart?.deallocate()
    }
}

/// uint8 scores read through a ``QuantizedScoreTable``.
///
/// With every class competing and a non-decreasing table, a row's scan needs only its largest byte m: the scan ends
/// on the first class whose score equals the largest score `table[m]` (when that is above −FLT_MAX), and since equal
/// scores of a non-decreasing table form one run of bytes, those classes are exactly the ones whose byte lies in
/// `tieStart[m] ... m`: the first byte at least `tieStart[m]`. Its own score is returned (equal to `table[m]`, though
/// not necessarily the same zero's sign). Otherwise each class's score is looked up and scanned.
struct ByteScoreRows: DetectionScoreRows {
    let base: UnsafePointer<UInt8>
    let count: Int
    let table: QuantizedScoreTable
    let competing: [Bool]?

    init(base: UnsafePointer<UInt8>, table: QuantizedScoreTable, options: DetectionDecoderOptions) {
        self.base = base
        self.table = table
        count = options.numClasses
        competing = DetectionDecoder.competingClasses(options)
    }

    func bestClass(box: Int) -> (classID: Int, score: Float) {
        let row = base + box * count
        let scores = table.scores
        if competing == nil, let tieStart = table.tieStart {
            let largest = Self.largestByte(row, count: count)
            guard -Float.greatestFiniteMagnitude < scores[Int(largest)] else { return (-1, -.greatestFiniteMagnitude) }
            let first = Self.firstByte(row, count: count, atLeast: tieStart[Int(largest)])
            return (first, scores[Int(row[first])])
        }
        return scan(count: count, competing: competing) { scores[Int(row[$0])] }
    }

    typealias Lanes = SIMD16<UInt8>

    /// The largest of `count` (≥ 1) bytes.
    static func largestByte(_ row: UnsafePointer<UInt8>, count: Int) -> UInt8 {
        var lanes = Lanes(repeating: 0)
        var index = 0
        while index + Lanes.scalarCount <= count {
            lanes = pointwiseMax(lanes, UnsafeRawPointer(row + index).loadUnaligned(as: Lanes.self))
            index += Lanes.scalarCount
        }
        var largest = lanes.max()
        while index < count {
            largest = max(largest, row[index])
            index += 1
        }
        return largest
    }

    /// The index of the first of `count` bytes that is at least `bound`; one of them must be.
    static func firstByte(_ row: UnsafePointer<UInt8>, count: Int, atLeast bound: UInt8) -> Int {
        var index = 0
        let bounds = Lanes(repeating: bound)
        while index + Lanes.scalarCount <= count {
            if any(UnsafeRawPointer(row + index).loadUnaligned(as: Lanes.self) .>= bounds) { break }
            index += Lanes.scalarCount
        }
        while index < count - 1 && row[index] < bound { index += 1 }
        return index
    }
}
