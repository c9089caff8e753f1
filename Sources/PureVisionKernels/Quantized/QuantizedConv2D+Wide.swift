// The Swift integer path of ``QuantizedConv2DKernel`` in 256-bit vectors, compiled only when the package is built
// for AVX2 (`-Xswiftc -target-cpu -Xswiftc haswell`, or any later x86 CPU): the `AVX2` submodule of
// CPureVisionTargetFeatures requires the feature, so `canImport` of it is the compile-time test Swift lacks.
#if arch(x86_64) && canImport(CPureVisionTargetFeatures.AVX2)
    extension QuantizedConv2DKernel {
        /// Whether the Swift integer path multiplies in 256-bit vectors, twice the 128-bit path's lanes: then it
        /// multiplies int16 pairs at about twice the float micro-kernel's rate, so ``QuantizedGEMMArithmetic/automatic``
        /// prefers it.
        static var multipliesWideIntegers: Bool { true }

        /// ``multiply(rows:count:output:)`` with 256-bit `vpmaddwd`: one weight load covers a whole block (its k pair
        /// for all 8 channels, even channels then odd, exactly as packed), so two blocks and the 4 rows take 8
        /// accumulators, 2 weight loads and 4 broadcasts per k pair (with the product before it is added, 12 of the 16
        /// registers; three blocks would need 17 and spill); an odd block left goes alone. Sums are the 128-bit
        /// path's, lane for lane (the low half the even channels, the high half the odd ones).
        @inline(__always)
        func multiplyWide(rows: UnsafeMutablePointer<Int16>, count: Int, output: UnsafeMutablePointer<Int8>) {
            let r = UnsafeRawPointer(rows)
            var block = 0
            while block + 2 <= blockCount {
                multiplyTwoBlocksWide(block, rows: r, count: count, output: output)
                block += 2
            }
            if block < blockCount {
                multiplyBlockWide(block, rows: r, count: count, output: output)
            }
        }

        /// Blocks `block` and `block + 1` against the 4 gathered rows.
        @inline(__always)
        private func multiplyTwoBlocksWide(
            _ block: Int, rows r: UnsafeRawPointer, count: Int, output: UnsafeMutablePointer<Int8>
        ) {
            let stride = paddedDepth * 2
            let blockBytes = paddedDepth * 16
            // a<row><block>
            var a00 = SIMD8<Int32>()
            var a01 = SIMD8<Int32>()
            var a10 = SIMD8<Int32>()
            var a11 = SIMD8<Int32>()
            var a20 = SIMD8<Int32>()
            var a21 = SIMD8<Int32>()
            var a30 = SIMD8<Int32>()
            var a31 = SIMD8<Int32>()
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

        /// Block `block` alone against the 4 gathered rows.
        @inline(__always)
        private func multiplyBlockWide(
            _ block: Int, rows r: UnsafeRawPointer, count: Int, output: UnsafeMutablePointer<Int8>
        ) {
            let stride = paddedDepth * 2
            var a0 = SIMD8<Int32>()
            var a1 = SIMD8<Int32>()
            var a2 = SIMD8<Int32>()
            var a3 = SIMD8<Int32>()
            let w = UnsafeRawPointer(weights + block * paddedDepth * 8)
            var k = 0
            while k < paddedDepth {
                let w0 = w.loadUnaligned(fromByteOffset: k &* 16, as: SIMD16<Int16>.self)
                let x = r + k &* 2
                a0 &+= Self.multiplyAdd(Self.broadcastPairs(x), w0)
                a1 &+= Self.multiplyAdd(Self.broadcastPairs(x + stride), w0)
                a2 &+= Self.multiplyAdd(Self.broadcastPairs(x + 2 * stride), w0)
                a3 &+= Self.multiplyAdd(Self.broadcastPairs(x + 3 * stride), w0)
                k &+= 2
            }
            store(block: block, sums: (a0, a1, a2, a3), count: count, output: output)
        }
    }
#else
    extension QuantizedConv2DKernel {
        /// Whether the Swift integer path multiplies in 256-bit vectors: not in this build (no AVX2).
        static var multipliesWideIntegers: Bool { false }
    }
#endif
