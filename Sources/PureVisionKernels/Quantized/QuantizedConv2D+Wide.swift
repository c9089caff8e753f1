// The Swift integer path of ``QuantizedConv2DKernel`` in 256-bit vectors, compiled only when the package is built
// for AVX2 (`-Xswiftc -target-cpu -Xswiftc haswell`, or any later x86 CPU): the `AVX2` submodule of
// CPureVisionTargetFeatures requires the feature, so `canImport` of it is the compile-time test Swift lacks.
#if arch(x86_64) && canImport(CPureVisionTargetFeatures.AVX2)
    extension QuantizedConv2DKernel {
        /// Whether the Swift integer path multiplies in 256-bit vectors, twice the 128-bit path's lanes: then it
        /// multiplies int16 pairs at about twice the float micro-kernel's rate, so ``QuantizedGEMMArithmetic/automatic``
        /// prefers it.
        static var multipliesWideIntegers: Bool { true }

        /// ``multiplyBlock(_:rows:count:output:)`` for blocks `block` and `block + 1` together: 8 accumulators, 2
        /// weight loads and 4 broadcasts per k pair (with the product before it is added, 12 of AVX2's 16 registers;
        /// three blocks would need 17 and spilled).
        @inline(__always)
        func multiplyTwoBlocks(
            _ block: Int, rows r: UnsafeRawPointer, count: Int, output: UnsafeMutablePointer<Int8>
        ) {
            let stride = paddedDepth * 2
            let blockBytes = paddedDepth * 16
            // a<row><block>
            let zero = SIMD8<Int32>()
            var (a00, a01, a10, a11, a20, a21, a30, a31) = (zero, zero, zero, zero, zero, zero, zero, zero)
            let w = UnsafeRawPointer(weights + block * paddedDepth * 8)
            var k = 0
            while k < paddedDepth {
                // k < paddedDepth, so these offsets stay within the two packed blocks and the gathered rows.
                let w0 = w.loadUnaligned(fromByteOffset: k &* 16, as: SIMD16<Int16>.self)
                let w1 = w.loadUnaligned(fromByteOffset: k &* 16 &+ blockBytes, as: SIMD16<Int16>.self)
                let x = r + k &* 2
                let x0 = Self.broadcastPairs(x)
                a00 &+= Self.multiplyAdd(x0, w0)
                a01 &+= Self.multiplyAdd(x0, w1)
                let x1 = Self.broadcastPairs(x + stride)
                a10 &+= Self.multiplyAdd(x1, w0)
                a11 &+= Self.multiplyAdd(x1, w1)
                let x2 = Self.broadcastPairs(x + 2 * stride)
                a20 &+= Self.multiplyAdd(x2, w0)
                a21 &+= Self.multiplyAdd(x2, w1)
                let x3 = Self.broadcastPairs(x + 3 * stride)
                a30 &+= Self.multiplyAdd(x3, w0)
                a31 &+= Self.multiplyAdd(x3, w1)
                k &+= 2
            }
            store(block: block, sums: (a00, a10, a20, a30), count: count, output: output)
            store(block: block + 1, sums: (a01, a11, a21, a31), count: count, output: output)
        }
    }
#else
    extension QuantizedConv2DKernel {
        /// Whether the Swift integer path multiplies in 256-bit vectors: not in this build (no AVX2).
        static var multipliesWideIntegers: Bool { false }
    }
#endif
