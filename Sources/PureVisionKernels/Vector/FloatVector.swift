/// The float vectors the portable Swift kernels are written generically over.
///
/// Each requirement is the concrete type's own arithmetic (which maps straight to vector instructions), not the
/// generic `SIMD` lane loop a generic body would otherwise call, so a specialised loop is the code written for the
/// concrete type. `SIMD4<Float>` is one NEON or SSE register; `SIMD8<Float>` one AVX register or a pair of NEON ones;
/// wider blocks are ``FloatVectorPair``s of them.
package protocol FloatVector {
    /// Every lane `value`.
    init(broadcasting value: Float)
    /// `sum += x · w` lane by lane: a multiply and an add, each rounded (no fused multiply-add), on every target.
    static func addProduct(_ sum: inout Self, _ x: Self, _ w: Self)
    /// `sum += x · w` lane by lane, fused into one rounding where the Swift kernels are compiled for a target with a
    /// fused multiply-add instruction (``SwiftKernelTarget/fusesMultiplyAdd``: arm64, or x86 built with FMA), else
    /// as ``addProduct(_:_:_:)``.
    static func multiplyAdd(_ sum: inout Self, _ x: Self, _ w: Self)
    /// Each lane limited to `lower ... upper`: the scalar `min(max(v, lower), upper)` lane by lane, a NaN lane
    /// staying NaN as it does there.
    func clamped(lower: Self, upper: Self) -> Self
    /// The vector at `byteOffset` bytes from `pointer`, which need not be aligned.
    static func load(_ pointer: UnsafeRawPointer, byteOffset: Int) -> Self
    /// Writes the vector at `byteOffset` bytes from `pointer`, which need not be aligned.
    func store(_ pointer: UnsafeMutableRawPointer, byteOffset: Int)
}

// Loads and stores, one implementation for the SIMD types: specialised, each is one unaligned vector move.
extension FloatVector where Self: SIMD, Self.Scalar == Float {
    @inline(__always)
    package static func load(_ pointer: UnsafeRawPointer, byteOffset: Int) -> Self {
        pointer.loadUnaligned(fromByteOffset: byteOffset, as: Self.self)
    }

    @inline(__always)
    package func store(_ pointer: UnsafeMutableRawPointer, byteOffset: Int) {
        pointer.storeBytes(of: self, toByteOffset: byteOffset, as: Self.self)
    }
}

// The arithmetic, written in each concrete type's own extension: there the operators resolve to the concrete
// types' vector implementations, where a body generic over `SIMD` would get the protocol's lane-by-lane loops (which
// measured twenty times slower in these kernels).

extension SIMD4: FloatVector where Scalar == Float {
    @inline(__always)
    package init(broadcasting value: Float) { self.init(repeating: value) }

    @inline(__always)
    package static func addProduct(_ sum: inout Self, _ x: Self, _ w: Self) { sum += x * w }

    @inline(__always)
    package static func multiplyAdd(_ sum: inout Self, _ x: Self, _ w: Self) {
        // A constant per build: the branch folds away.
        if SwiftKernelTarget.fusesMultiplyAdd { sum = sum.addingProduct(x, w) } else { sum += x * w }
    }

    @inline(__always)
    package func clamped(lower: Self, upper: Self) -> Self {
        // The scalar `max(v, lower)` is `lower >= v ? lower : v` and `min(r, upper)` is `upper < r ? upper : r`:
        // the same selects, so a zero of either sign and a NaN (every comparison false) come out as they do there.
        let raised = replacing(with: lower, where: self .<= lower)
        return raised.replacing(with: upper, where: raised .> upper)
    }
}

extension SIMD8: FloatVector where Scalar == Float {
    @inline(__always)
    package init(broadcasting value: Float) { self.init(repeating: value) }

    @inline(__always)
    package static func addProduct(_ sum: inout Self, _ x: Self, _ w: Self) { sum += x * w }

    @inline(__always)
    package static func multiplyAdd(_ sum: inout Self, _ x: Self, _ w: Self) {
        // A constant per build: the branch folds away.
        if SwiftKernelTarget.fusesMultiplyAdd { sum = sum.addingProduct(x, w) } else { sum += x * w }
    }

    @inline(__always)
    package func clamped(lower: Self, upper: Self) -> Self {
        // The scalar `max(v, lower)` is `lower >= v ? lower : v` and `min(r, upper)` is `upper < r ? upper : r`:
        // the same selects, so a zero of either sign and a NaN (every comparison false) come out as they do there.
        let raised = replacing(with: lower, where: self .<= lower)
        return raised.replacing(with: upper, where: raised .> upper)
    }
}

/// Two vectors side by side in memory, as independent accumulators: `Low`'s lanes, then `High`'s.
package struct FloatVectorPair<Low: FloatVector, High: FloatVector>: FloatVector {
    /// The first vector in memory.
    package var low: Low
    /// The second vector in memory, right after `low`.
    package var high: High

    @inline(__always)
    package init(low: Low, high: High) {
        self.low = low
        self.high = high
    }

    @inline(__always)
    package init(broadcasting value: Float) {
        self.init(low: Low(broadcasting: value), high: High(broadcasting: value))
    }

    @inline(__always)
    package static func addProduct(_ sum: inout Self, _ x: Self, _ w: Self) {
        Low.addProduct(&sum.low, x.low, w.low)
        High.addProduct(&sum.high, x.high, w.high)
    }

    @inline(__always)
    package static func multiplyAdd(_ sum: inout Self, _ x: Self, _ w: Self) {
        Low.multiplyAdd(&sum.low, x.low, w.low)
        High.multiplyAdd(&sum.high, x.high, w.high)
    }

    @inline(__always)
    package func clamped(lower: Self, upper: Self) -> Self {
        Self(
            low: low.clamped(lower: lower.low, upper: upper.low),
            high: high.clamped(lower: lower.high, upper: upper.high))
    }

    @inline(__always)
    package static func load(_ pointer: UnsafeRawPointer, byteOffset: Int) -> Self {
        Self(
            low: Low.load(pointer, byteOffset: byteOffset),
            high: High.load(pointer, byteOffset: byteOffset + MemoryLayout<Low>.stride))
    }

    @inline(__always)
    package func store(_ pointer: UnsafeMutableRawPointer, byteOffset: Int) {
        low.store(pointer, byteOffset: byteOffset)
        high.store(pointer, byteOffset: byteOffset + MemoryLayout<Low>.stride)
    }
}

/// 16 floats: two `SIMD8<Float>`.
package typealias FloatVector16 = FloatVectorPair<SIMD8<Float>, SIMD8<Float>>
/// 24 floats: a ``FloatVector16`` and a `SIMD8<Float>`.
package typealias FloatVector24 = FloatVectorPair<FloatVector16, SIMD8<Float>>
/// 32 floats: two ``FloatVector16``s.
package typealias FloatVector32 = FloatVectorPair<FloatVector16, FloatVector16>
