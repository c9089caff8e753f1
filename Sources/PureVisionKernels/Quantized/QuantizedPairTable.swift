/// Same-shape quantized ADD or SUB as one lookup per element: the output byte depends only on the two input bytes,
/// so all 65,536 pairs are computed at load, by ``Quantized/add(lhs:rhs:output:plan:parameters:subtract:)`` itself
/// (the reference), into a 64 KiB table indexed by `lhs byte << 8 | rhs byte`.
///
/// TFLite rounds the input terms of a same-shape ADD one way in its vector loop (whole blocks of
/// ``Quantized/addVectorBlock(_:)`` elements) and another in its scalar tail; the table holds the vector loop's
/// results (for SUB the one rounding it uses throughout), and the last `count % block` elements of an ADD run through
/// the reference, which gives them the tail's rounding. Runs split the elements over the pool's threads.
public final class QuantizedPairTable: @unchecked Sendable {
    /// Elements per run.
    public let count: Int
    private let table: UnsafeMutablePointer<UInt8>
    /// Elements `0..<tableEnd` are looked up; the rest (an ADD's tail) run through the reference.
    private let tableEnd: Int
    private let parameters: QuantizedAddParameters
    private let subtract: Bool
    private let taskCount: Int

    /// Whether a same-shape operation of `count` elements is worth the table's 64 KiB and its ~65,536 steps at load.
    public static func pays(count: Int) -> Bool { count >= 8192 }

    /// Builds the table for 8-bit type `T` (int8 or uint8).
    public init<T: QuantizedElement>(
        _: T.Type, count: Int, parameters: QuantizedAddParameters, subtract: Bool, threadCount: Int
    ) {
        precondition(count >= 0, "negative element count")
        self.count = count
        self.parameters = parameters
        self.subtract = subtract
        let block = Quantized.addVectorBlock(T.self)
        tableEnd = subtract ? count : count / block * block
        table = .allocate(capacity: 1 << 16)
        let pairs = 1 << 16
        let lhs = UnsafeMutablePointer<T>.allocate(capacity: pairs)
        let rhs = UnsafeMutablePointer<T>.allocate(capacity: pairs)
        defer {
            lhs.deallocate()
            rhs.deallocate()
        }
        for pair in 0..<pairs {
            (lhs + pair).initialize(to: T(truncatingIfNeeded: pair >> 8))
            (rhs + pair).initialize(to: T(truncatingIfNeeded: pair & 0xFF))
        }
        // 65,536 is a whole number of vector blocks: every entry gets the vector loop's rounding (ADD).
        table.withMemoryRebound(to: T.self, capacity: pairs) { output in
            Quantized.add(
                lhs: lhs, rhs: rhs, output: output,
                plan: BroadcastPlan(lhsShape: [pairs], rhsShape: [pairs], outputShape: [pairs]),
                parameters: parameters, subtract: subtract)
        }
        // Chunks of at least 16 Ki elements, several per thread so that a late or descheduled thread's share is
        // taken over by the others.
        taskCount = ThreadPool.chunkCount(tableEnd / (1 << 14), threads: threadCount)
    }

    deinit { table.deallocate() }

    /// Runs the operation on `count` elements of type `T` (the type the table was built for).
    public func run<T: QuantizedElement>(
        lhs: UnsafePointer<T>, rhs: UnsafePointer<T>, output: UnsafeMutablePointer<T>, pool: ThreadPool
    ) {
        pool.parallelFor(
            taskCount,
            Lookup(
                table: table, lhs: UnsafeRawPointer(lhs), rhs: UnsafeRawPointer(rhs),
                output: UnsafeMutableRawPointer(output), count: tableEnd, taskCount: taskCount))
        if tableEnd < count {
            let tail = count - tableEnd
            Quantized.add(
                lhs: lhs + tableEnd, rhs: rhs + tableEnd, output: output + tableEnd,
                plan: BroadcastPlan(lhsShape: [tail], rhsShape: [tail], outputShape: [tail]), parameters: parameters,
                subtract: subtract)
        }
    }

    private struct Lookup: ParallelTaskBody {
        let table: UnsafeMutablePointer<UInt8>
        let lhs: UnsafeRawPointer
        let rhs: UnsafeRawPointer
        let output: UnsafeMutableRawPointer
        let count: Int
        let taskCount: Int

        func run(task: Int) {
            let start = count * task / taskCount
            let end = count * (task + 1) / taskCount
            let (x, y) = (lhs.assumingMemoryBound(to: UInt8.self), rhs.assumingMemoryBound(to: UInt8.self))
            let out = output.assumingMemoryBound(to: UInt8.self)
            for i in start..<end {
                out[i] = table[Int(x[i]) &<< 8 | Int(y[i])]
            }
        }
    }
}
