#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// Same-shape quantized ADD in XNNPACK's arithmetic (``XNNPACKAddTerms``), 16 elements per step, bit-exact with
/// ``Quantized/add(lhs:rhs:output:plan:parameters:subtract:)`` (its reference twin) and split over the pool's threads.
///
/// On x86-64 a step is SSE2: the two inputs' bytes are interleaved into int16 pairs `(a, b)`, and each multiplier is
/// split as `m = high · 2^11 + low` (`low` < 2^11) so that two `pmaddwd` give `a · lhsHigh + b · rhsHigh` and
/// `a · lhsLow + b · rhsLow` exactly; `(first << 11) + second` is then `a · lhsMultiplier + b · rhsMultiplier` modulo
/// 2^32, as the reference's wrapping int32 arithmetic computes it. The zero point is added in int32; the saturating
/// pack to int16, the clamp there and the pack to bytes equal the reference's int32 clamp, because the output range
/// lies inside int16's. Elsewhere a step widens to 16 int32 lanes and multiplies directly. Prepared with
/// `generatesMachineCode` on a CPU with AVX-512, runs go 64 elements a step through generated code
/// (``XNNPACKAddCode``), the remainder through the steps above.
public final class XNNPACKAddKernel: @unchecked Sendable {
    /// Elements per run.
    public let count: Int
    private let terms: XNNPACKAddTerms
    private let zeroPoint: Int32
    private let range: QuantizedRange
    private let taskCount: Int
    private let portable: Bool
    /// Generated AVX-512 code (nil without it).
    private let generated: XNNPACKAddCode?

    /// Whether runs start with the generated AVX-512 steps.
    package var usesGeneratedCode: Bool { generated != nil }

    /// Elements per task at least: below this a second thread costs more than it saves.
    static let minimumChunk = 1 << 14

    /// Prepares the kernel, or returns nil when the terms are outside what XNNPACK produces (a multiplier outside
    /// `0..<2^26`, a shift outside `1...31`), which the reference then runs. `portable` runs the portable step even
    /// on x86-64 (tests compare both with the reference); `generatesMachineCode` asks for the AVX-512 code, used where
    /// the CPU has it and `portable` is false.
    public init?(
        count: Int, terms: XNNPACKAddTerms, zeroPoint: Int32, range: QuantizedRange, threadCount: Int,
        portable: Bool = false, generatesMachineCode: Bool = false
    ) {
        let multipliers: Range<Int32> = 0..<(1 << 26)
        guard count >= 0, multipliers.contains(terms.lhsMultiplier), multipliers.contains(terms.rhsMultiplier),
            (1...31).contains(terms.shift), range.lower <= range.upper, range.lower >= -32768, range.upper <= 32767
        else { return nil }
        self.count = count
        self.terms = terms
        self.zeroPoint = zeroPoint
        self.range = range
        self.portable = portable
        generated =
            generatesMachineCode && !portable ? XNNPACKAddCode(terms: terms, zeroPoint: zeroPoint, range: range) : nil
        taskCount = ThreadPool.chunkCount(count / Self.minimumChunk, threads: threadCount)
    }

    /// Runs the ADD on `count` elements of type `T` (int8 or uint8).
    public func run<T: QuantizedElement>(
        lhs: UnsafePointer<T>, rhs: UnsafePointer<T>, output: UnsafeMutablePointer<T>, pool: ThreadPool
    ) {
        let body = Chunks(
            kernel: .passUnretained(self), lhs: UnsafeRawPointer(lhs), rhs: UnsafeRawPointer(rhs),
            output: UnsafeMutableRawPointer(output), signed: T.isSigned)
        withExtendedLifetime(self) { pool.parallelFor(taskCount, body) }
    }

    private struct Chunks: ParallelTaskBody {
        /// Unmanaged: the caller keeps the kernel alive through the run (see ``QuantizedConv2DKernel``).
        let kernel: Unmanaged<XNNPACKAddKernel>
        let lhs: UnsafeRawPointer
        let rhs: UnsafeRawPointer
        let output: UnsafeMutableRawPointer
        let signed: Bool

        func run(task: Int) {
            kernel._withUnsafeGuaranteedRef { k in
                // Chunk boundaries on multiples of 16, so only the last chunk has a scalar tail.
                let blocks = (k.count + 15) / 16
                let start = min(k.count, blocks * task / k.taskCount * 16)
                let end = min(k.count, blocks * (task + 1) / k.taskCount * 16)
                k.add(lhs + start, rhs + start, output + start, count: end - start, signed: signed)
            }
        }
    }

    /// Adds `count` elements: whole steps of 16 in the vector code, the rest one at a time.
    private func add(
        _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, count: Int, signed: Bool
    ) {
        let done = count / 16 * 16
        // Generated steps of 64 first, where there are any; the 16-element steps take what they leave.
        var generatedCount = 0
        if let generated, count >= XNNPACKAddCode.elementsPerStep {
            let steps = count / XNNPACKAddCode.elementsPerStep
            generated.run(lhs, rhs, output, steps: steps, signed: signed)
            generatedCount = steps * XNNPACKAddCode.elementsPerStep
        }
        let (a, b, y, rest) = (
            lhs + generatedCount, rhs + generatedCount, output + generatedCount, done - generatedCount
        )
        #if arch(x86_64)
            if portable {
                addLanes(a, b, y, count: rest, signed: signed)
            } else {
                addSSE2(a, b, y, count: rest, signed: signed)
            }
        #else
            addLanes(a, b, y, count: rest, signed: signed)
        #endif
        for i in done..<count {
            let a = lhs.load(fromByteOffset: i, as: UInt8.self)
            let b = rhs.load(fromByteOffset: i, as: UInt8.self)
            let (x, y) = signed ? (Int32(Int8(bitPattern: a)), Int32(Int8(bitPattern: b))) : (Int32(a), Int32(b))
            let value = range.clamp(terms.apply(x, y) &+ zeroPoint)
            output.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: i, as: UInt8.self)
        }
    }

    /// The portable step: 16 lanes of int32 (`count` a multiple of 16).
    private func addLanes(
        _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, count: Int, signed: Bool
    ) {
        let (lm, rm) = (SIMD16<Int32>(repeating: terms.lhsMultiplier), SIMD16<Int32>(repeating: terms.rhsMultiplier))
        let constant = SIMD16<Int32>(repeating: terms.bias &+ (1 &<< (terms.shift &- 1)))
        let shift = SIMD16<Int32>(repeating: terms.shift)
        let offset = SIMD16<Int32>(repeating: zeroPoint)
        let (lower, upper) = (SIMD16<Int32>(repeating: range.lower), SIMD16<Int32>(repeating: range.upper))
        func widened(_ source: UnsafeRawPointer) -> SIMD16<Int32> {
            let bytes = source.loadUnaligned(as: SIMD16<UInt8>.self)
            if signed { return SIMD16<Int32>(truncatingIfNeeded: SIMD16<Int8>(truncatingIfNeeded: bytes)) }
            return SIMD16<Int32>(truncatingIfNeeded: bytes)
        }
        var i = 0
        while i < count {
            let sum = widened(lhs + i) &* lm &+ widened(rhs + i) &* rm &+ constant
            var value = (sum &>> shift) &+ offset
            value.replace(with: lower, where: value .< lower)
            value.replace(with: upper, where: value .> upper)
            (output + i).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: value), as: SIMD16<UInt8>.self)
            i &+= 16
        }
    }

    #if arch(x86_64)
        /// The SSE2 step (`count` a multiple of 16); see the type's documentation.
        private func addSSE2(
            _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, count: Int,
            signed: Bool
        ) {
            func pair(_ lhsPart: Int32, _ rhsPart: Int32) -> __m128i { _mm_set1_epi32(lhsPart | rhsPart << 16) }
            let high = pair(terms.lhsMultiplier >> 11, terms.rhsMultiplier >> 11)
            let low = pair(terms.lhsMultiplier & 0x7FF, terms.rhsMultiplier & 0x7FF)
            let constant = _mm_set1_epi32(terms.bias &+ (1 &<< (terms.shift &- 1)))
            let shift = _mm_cvtsi32_si128(terms.shift)
            let offset = _mm_set1_epi32(zeroPoint)
            let lower = _mm_set1_epi16(Int16(range.lower))
            let upper = _mm_set1_epi16(Int16(range.upper))
            // Four (a, b) int16 pairs from the doubled bytes of an interleaved vector: each lane's high byte is the
            // value, shifted down with or without its sign.
            @inline(__always) func pairs(_ doubled: __m128i) -> __m128i {
                signed ? _mm_srai_epi16(doubled, 8) : _mm_srli_epi16(doubled, 8)
            }
            @inline(__always) func scaled(_ pairs: __m128i) -> __m128i {
                let sum = _mm_add_epi32(
                    _mm_slli_epi32(_mm_madd_epi16(pairs, high), 11), _mm_madd_epi16(pairs, low))
                return _mm_add_epi32(_mm_sra_epi32(_mm_add_epi32(sum, constant), shift), offset)
            }
            var i = 0
            while i < count {
                let a = (lhs + i).loadUnaligned(as: __m128i.self)
                let b = (rhs + i).loadUnaligned(as: __m128i.self)
                let first = _mm_unpacklo_epi8(a, b)
                let second = _mm_unpackhi_epi8(a, b)
                var low16 = _mm_packs_epi32(
                    scaled(pairs(_mm_unpacklo_epi8(first, first))), scaled(pairs(_mm_unpackhi_epi8(first, first))))
                var high16 = _mm_packs_epi32(
                    scaled(pairs(_mm_unpacklo_epi8(second, second))), scaled(pairs(_mm_unpackhi_epi8(second, second))))
                low16 = _mm_min_epi16(_mm_max_epi16(low16, lower), upper)
                high16 = _mm_min_epi16(_mm_max_epi16(high16, lower), upper)
                let bytes = signed ? _mm_packs_epi16(low16, high16) : _mm_packus_epi16(low16, high16)
                (output + i).storeBytes(of: bytes, as: __m128i.self)
                i &+= 16
            }
        }
    #endif
}
