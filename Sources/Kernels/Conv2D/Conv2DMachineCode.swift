/// A convolution's filter repacked for the generated GEMM: the output channels rounded up to a multiple of 8 (the
/// extra columns zero), in column panels of 16 (and one panel of 8 when that count `% 16 == 8`), each `K × width`
/// floats row-major, panels one after another. Owned memory at a fixed, 64-byte aligned address, because the
/// generated code embeds it.
final class Conv2DFilterPanels: @unchecked Sendable {
    /// `K · n` floats.
    let floats: UnsafeMutablePointer<Float>
    /// Rows of every panel: `kernelHeight · kernelWidth · inputChannels`.
    let k: Int
    /// Columns of the panels: `outputChannels` rounded up to a multiple of 8.
    let n: Int
    /// The convolution's output channels.
    let outputChannels: Int

    /// Packs `filter`, OHWI flattened to `[outputChannels, k]` (row `o` holds output channel `o`'s `k` weights).
    init(filter: UnsafePointer<Float>, k: Int, outputChannels: Int) {
        precondition(k > 0 && outputChannels > 0, "Conv2DFilterPanels: k=\(k) outputChannels=\(outputChannels)")
        let n = (outputChannels + 7) / 8 * 8
        self.k = k
        self.n = n
        self.outputChannels = outputChannels
        let raw = UnsafeMutableRawPointer.allocate(byteCount: k * n * 4, alignment: 64)
        floats = raw.bindMemory(to: Float.self, capacity: k * n)
        var panelStart = 0
        var column = 0
        while column < n {
            let width = n - column >= 16 ? 16 : 8
            let panel = floats + panelStart
            for p in 0..<k {
                for j in 0..<width {
                    panel[p * width + j] = column + j < outputChannels ? filter[(column + j) * k + p] : 0
                }
            }
            panelStart += k * width
            column += width
        }
    }

    deinit { floats.deallocate() }
}

/// Generated x86-64 AVX2/FMA code for one convolution's GEMM block, `C[rows × N] = epilogue(clamp(A · W + bias))`,
/// with `W` in ``Conv2DFilterPanels`` and the bias, clamp and the leading steps of an ``OutputEpilogue`` applied
/// in registers before the single store of each output tile.
///
/// `A` is `rows × K` with a run-time row stride (the NHWC input itself for a 1×1 convolution, or an im2col block);
/// `C` is `rows × N` contiguous, `N` being the panels' width (`outputChannels` rounded up to a multiple of 8; when
/// that differs from `outputChannels`, the caller stages `C` and applies the epilogue itself); a residual is
/// `rows × N`, or `rows × residualChannels` when it is padded (to a multiple of 8 channels).
///
/// The code walks groups of panels small enough to stay in L2; inside a group, tiles of 6 rows (12 accumulators of
/// 8 lanes, 2 weight vectors, 1 broadcast) sweep the group's panels while those 6 rows of `A` stay in L1. The 1…5
/// leftover rows use their own tiles, generated at load as well.
final class Conv2DGEMMCode: @unchecked Sendable {
    /// Rows of `A` per full tile.
    static let tileRows = 6
    /// Steps of the k loop emitted per iteration.
    static let kUnroll = 4
    /// Bytes of packed weights one group of panels may take (they are reread for every tile of rows).
    static let panelGroupBytes = 192 << 10

    let panels: Conv2DFilterPanels
    /// The epilogue steps the code does not apply (starting at the first step it cannot generate), for the caller
    /// to run in Swift on each block afterwards.
    let remainingEpilogue: OutputEpilogue
    private let constants: UnsafeMutablePointer<Float>
    private let code: ExecutableCode

    /// Generates the code, or returns nil when the sizes exceed 32-bit displacements or the code cannot be mapped.
    /// `bias` holds `panels.outputChannels` floats (copied, zero-extended to `N`). When `N` differs from
    /// `panels.outputChannels`, no epilogue step is generated.
    /// `segments` describes how a row of `A` lies in memory (default: contiguous).
    init?(
        panels: Conv2DFilterPanels, bias: UnsafePointer<Float>, clamp: ClampRange, epilogue: OutputEpilogue,
        segments: KSegments = .contiguous
    ) {
        let (k, n) = (panels.k, panels.n)
        guard n % 8 == 0, k * n <= (Int(Int32.max) >> 3), Self.tileRows * n * 4 <= Int(Int32.max) >> 2,
            segments.count > 0, k % segments.count == 0, abs(segments.jumpBytes) <= Int(Int32.max) >> 2
        else {
            return nil
        }
        // The longest prefix of steps the code can apply; a residual padded to a channel count that is not a multiple
        // of 8 (and what follows it) stays in Swift.
        var prefix = 0
        while prefix < epilogue.steps.count, n == panels.outputChannels,
            Self.canGenerate(epilogue.steps[prefix], channels: n)
        {
            prefix += 1
        }
        let steps = Array(epilogue.steps[..<prefix])
        remainingEpilogue = OutputEpilogue(Array(epilogue.steps[prefix...]))

        // Constants: bias [n], then each PReLU step's slopes [n], then (lower, upper) pairs for each clamp.
        let preluCount = steps.filter { if case .prelu = $0 { true } else { false } }.count
        let scalarStart = n * (1 + preluCount)
        let constantCount = scalarStart + 2 * (steps.count + 1)
        constants = UnsafeMutablePointer<Float>.allocate(capacity: constantCount)
        constants.update(from: bias, count: panels.outputChannels)
        (constants + panels.outputChannels).update(repeating: 0, count: n - panels.outputChannels)
        var layout = ConstantLayout(scalarStart: scalarStart)
        var slopeBlock = 1
        var residualColumns = n
        var plan: [EpiloguePlan] = []
        let convClamp = layout.addClamp(clamp, into: constants)
        if let convClamp { plan.append(convClamp) }
        for step in steps {
            switch step {
            case .clamp(let range):
                if let c = layout.addClamp(range, into: constants) { plan.append(c) }
            case .prelu(let alpha):
                (constants + n * slopeBlock).update(from: alpha, count: n)
                plan.append(.prelu(slopeOffset: Int32(n * slopeBlock * 4)))
                slopeBlock += 1
            case .addResidual(let range, let channels):
                plan.append(.addResidual)
                residualColumns = channels ?? n
                if let c = layout.addClamp(range, into: constants) { plan.append(c) }
            }
        }
        self.panels = panels
        var emitter = Emitter(
            k: k, n: n, panels: panels.floats, constants: constants, epilogue: plan, segments: segments,
            residualColumns: residualColumns)
        do {
            code = try ExecutableCode(emitter.generate())
        } catch {
            constants.deallocate()
            return nil
        }
    }

    deinit { constants.deallocate() }

    /// Whether `step` has an in-register form for an output of `channels` channels.
    static func canGenerate(_ step: OutputEpilogue.Step, channels: Int) -> Bool {
        switch step {
        case .clamp: true
        case .prelu(let alpha): alpha.count == channels
        case .addResidual(_, let residualChannels):
            // A padded residual whose channels end on a vector boundary.
            residualChannels.map { $0 >= 0 && $0 <= channels && $0 % 8 == 0 } ?? true
        }
    }

    /// Computes one block: `a` is `rows × K` with row stride `lda` floats (laid out as the code's ``KSegments``), `c`
    /// receives `rows × N` floats, `residual` (rows of `N` floats, or of the padded residual's channels; required
    /// when the generated steps add one) is read. Allocates nothing.
    func run(
        a: UnsafePointer<Float>, lda: Int, c: UnsafeMutablePointer<Float>, rows: Int, residual: UnsafePointer<Float>?
    ) {
        // The argument block: A, lda in bytes, C, rows, residual, then two words of the code's own loop state.
        var arguments = (
            Int(bitPattern: a), lda * 4, Int(bitPattern: c), rows, Int(bitPattern: residual), 0, 0, 0
        )
        let entry = code.entry
        withUnsafeMutablePointer(to: &arguments) { entry(Int(bitPattern: $0), 0, 0, 0, 0, 0) }
    }

    /// How each row of `A` is laid out: `count` equal runs of `K / count` contiguous floats, each run starting
    /// `jumpBytes` after the end of the previous one. One run for an im2col block or a 1×1 input; `kernelHeight`
    /// runs of `kernelWidth · inputChannels` floats (one per input row, `jumpBytes` = the rest of an input row)
    /// when the code reads a k×k convolution's receptive fields straight from the input.
    struct KSegments: Sendable, Hashable {
        var count: Int
        var jumpBytes: Int

        static let contiguous = KSegments(count: 1, jumpBytes: 0)
    }

    /// One in-register epilogue operation on every accumulator.
    fileprivate enum EpiloguePlan {
        /// `y = max(y, lower)` and/or `y = min(y, upper)` with the bounds at these byte offsets (nil: no bound).
        case clamp(lowerOffset: Int32?, upperOffset: Int32?)
        /// `y = max(y, 0) + alpha[c] · min(y, 0)`, slopes at this byte offset from the bias.
        case prelu(slopeOffset: Int32)
        /// `y += residual`.
        case addResidual
    }

    private struct ConstantLayout {
        var next: Int

        init(scalarStart: Int) { next = scalarStart }

        /// Stores the bounds of a clamp that can change values; nil for the identity.
        mutating func addClamp(_ range: ClampRange, into constants: UnsafeMutablePointer<Float>) -> EpiloguePlan? {
            if range.isIdentity { return nil }
            constants[next] = range.lower
            constants[next + 1] = range.upper
            let lower: Int32? = range.lower == -.infinity ? nil : Int32(next * 4)
            let upper: Int32? = range.upper == .infinity ? nil : Int32((next + 1) * 4)
            next += 2
            return .clamp(lowerOffset: lower, upperOffset: upper)
        }
    }

    /// Writes the code. Register use: `rdi` argument block · `rsi` lda (bytes) · `rcx` rows left ·
    /// `r9`/`r10`/`r11` current rows of A / C / residual · `rbp` the group's first panel · `rax` the weights being
    /// read · `rbx` column byte offset (into bias, slopes, C, residual) · `r12` constants · `r13` panels left ·
    /// `r14`/`r15` A rows 0 and 3 of the tile · `rdx` k-loop counter. `ymm0`…`ymm11` accumulate, `ymm12`/`ymm13`
    /// hold weights, `ymm14` the broadcast (and epilogue scratch), `ymm15` epilogue constants.
    private struct Emitter {
        let k: Int
        let n: Int
        let panels: UnsafeMutablePointer<Float>
        let constants: UnsafeMutablePointer<Float>
        let epilogue: [EpiloguePlan]
        let segments: KSegments
        /// Channels per pixel of the residual: the first this many output columns add it (`n` when not padded).
        let residualColumns: Int
        var asm = X86Assembler()

        static let aBase = Memory(.rdi, 0)
        static let ldaSlot = Memory(.rdi, 8)
        static let cBase = Memory(.rdi, 16)
        static let rowsSlot = Memory(.rdi, 24)
        static let residualBase = Memory(.rdi, 32)
        static let groupColumnSlot = Memory(.rdi, 40)
        static let groupCountSlot = Memory(.rdi, 48)
        static let calleeSaved: [GPR] = [.rbx, .rbp, .r12, .r13, .r14, .r15]

        init(
            k: Int, n: Int, panels: UnsafeMutablePointer<Float>, constants: UnsafeMutablePointer<Float>,
            epilogue: [EpiloguePlan], segments: KSegments, residualColumns: Int
        ) {
            self.segments = segments
            self.residualColumns = residualColumns
            self.k = k
            self.n = n
            self.panels = panels
            self.constants = constants
            self.epilogue = epilogue
        }

        mutating func generate() throws(MachineCodeError) -> [UInt8] {
            for register in Self.calleeSaved { asm.push(register) }
            asm.mov(.rsi, Self.ldaSlot)
            asm.mov(.r12, Int(bitPattern: constants))

            let wide = n / 16
            let hasNarrow = n % 16 == 8
            // Wide panels in runs that add the residual to both vectors, to the first only (a padded residual
            // ending mid-panel), or to neither (past a padded residual's channels).
            var runs: [(first: Int, count: Int, residualVectors: Int)] = []
            let below = min(wide, residualColumns / 16)
            if below > 0 { runs.append((0, below, 2)) }
            var next = below
            if next < wide && residualColumns > next * 16 {
                runs.append((next, 1, 1))
                next += 1
            }
            if next < wide { runs.append((next, wide - next, 0)) }
            if runs.isEmpty { runs.append((wide, 0, 0)) }
            for (index, run) in runs.enumerated() {
                emitRun(
                    firstPanel: run.first, widePanels: run.count, residualVectors: run.residualVectors,
                    narrow: hasNarrow && index == runs.count - 1)
            }

            asm.vzeroupper()
            for register in Self.calleeSaved.reversed() { asm.pop(register) }
            asm.ret()
            return try asm.finish()
        }

        /// Wide panels `firstPanel ..< firstPanel + widePanels` (and the narrow panel when `narrow`) in groups whose
        /// weights fit ``Conv2DGEMMCode/panelGroupBytes``.
        private mutating func emitRun(firstPanel: Int, widePanels: Int, residualVectors: Int, narrow: Bool) {
            let perGroup = max(1, min(widePanels, Conv2DGEMMCode.panelGroupBytes / (k * 64)))
            var fullGroups = widePanels / perGroup
            var tail = widePanels % perGroup
            if tail == 0 && narrow && fullGroups > 0 {
                // The narrow panel joins the last group instead of making A be streamed once more for it alone.
                fullGroups -= 1
                tail = perGroup
            }
            let modes = (wide: residualVectors, narrow: residualColumns >= n ? 1 : 0)
            if fullGroups > 0 {
                emitGroups(
                    widePanels: perGroup, narrow: false, count: fullGroups, firstColumn: firstPanel * 16,
                    residualVectors: modes)
            }
            if tail > 0 || narrow {
                emitGroups(
                    widePanels: tail, narrow: narrow, count: 1, firstColumn: (firstPanel + fullGroups * perGroup) * 16,
                    residualVectors: modes)
            }
        }

        /// `count` consecutive groups of `widePanels` 16-column panels (plus the 8-column panel when `narrow`),
        /// starting at output column `firstColumn`.
        private mutating func emitGroups(
            widePanels: Int, narrow: Bool, count: Int, firstColumn: Int, residualVectors: (wide: Int, narrow: Int)
        ) {
            let rows = Conv2DGEMMCode.tileRows
            asm.mov(.rbp, Int(bitPattern: panels + firstColumn * k))
            asm.mov(.rax, firstColumn * 4)
            asm.storeQuadword(.rax, at: Self.groupColumnSlot)
            if count > 1 {
                asm.mov(.rax, count)
                asm.storeQuadword(.rax, at: Self.groupCountSlot)
            }
            let groupLoop = asm.makeLabel()
            let remainder = asm.makeLabel()
            let groupDone = asm.makeLabel()
            asm.bind(groupLoop)
            asm.mov(.r9, Self.aBase)
            asm.mov(.r10, Self.cBase)
            asm.mov(.r11, Self.residualBase)
            asm.mov(.rcx, Self.rowsSlot)
            asm.cmp(.rcx, Int32(rows))
            asm.jl(remainder)
            let rowLoop = asm.makeLabel()
            asm.bind(rowLoop)
            emitPanels(rows: rows, widePanels: widePanels, narrow: narrow, residualVectors: residualVectors)
            // Next tile of rows: A advances 6 · lda, C and the residual 6 rows.
            asm.lea(.r9, Memory(.r9, index: .rsi, scale: 4))
            asm.lea(.r9, Memory(.r9, index: .rsi, scale: 2))
            asm.add(.r10, Int32(rows * n * 4))
            asm.add(.r11, Int32(rows * residualColumns * 4))
            asm.sub(.rcx, Int32(rows))
            asm.cmp(.rcx, Int32(rows))
            asm.jge(rowLoop)
            asm.bind(remainder)
            for leftover in 1..<rows {
                let next = asm.makeLabel()
                asm.cmp(.rcx, Int32(leftover))
                asm.jnz(next)
                emitPanels(rows: leftover, widePanels: widePanels, narrow: narrow, residualVectors: residualVectors)
                asm.jmp(groupDone)
                asm.bind(next)
            }
            asm.bind(groupDone)
            if count > 1 {
                asm.mov(.rax, widePanels * k * 64)
                asm.add(.rbp, .rax)
                asm.mov(.rax, Self.groupColumnSlot)
                asm.add(.rax, Int32(widePanels * 64))
                asm.storeQuadword(.rax, at: Self.groupColumnSlot)
                asm.mov(.rax, Self.groupCountSlot)
                asm.sub(.rax, 1)
                asm.storeQuadword(.rax, at: Self.groupCountSlot)
                asm.jnz(groupLoop)
            }
        }

        /// One tile of `rows` rows across the group's panels (a run-time loop over the wide ones).
        private mutating func emitPanels(
            rows: Int, widePanels: Int, narrow: Bool, residualVectors: (wide: Int, narrow: Int)
        ) {
            asm.mov(.rax, .rbp)
            asm.mov(.rbx, Self.groupColumnSlot)
            if widePanels > 0 {
                let panelLoop = asm.makeLabel()
                if widePanels > 1 { asm.mov(.r13, widePanels) }
                asm.bind(panelLoop)
                emitTile(rows: rows, vectors: 2, residualVectors: residualVectors.wide)
                asm.add(.rbx, 64)
                if widePanels > 1 {
                    asm.dec(.r13)
                    asm.jnz(panelLoop)
                }
            }
            // The narrow panel follows the group's last wide panel in memory, where `rax` now points.
            if narrow { emitTile(rows: rows, vectors: 1, residualVectors: residualVectors.narrow) }
        }

        private func accumulator(_ row: Int, _ vector: Int, vectors: Int) -> YMM { YMM(row * vectors + vector) }

        /// Row `row` of the tile's A at byte offset `offset`: rows 0…2 from `r14`, 3…5 from `r15`, + 0/1/2 · lda.
        private func aAddress(_ row: Int, _ offset: Int32) -> Memory {
            let base: GPR = row < 3 ? .r14 : .r15
            switch row % 3 {
            case 0: return Memory(base, offset)
            case 1: return Memory(base, index: .rsi, scale: 1, offset)
            default: return Memory(base, index: .rsi, scale: 2, offset)
            }
        }

        /// `rows × (8 · vectors)` outputs at column `rbx`: the k loop over the panel at `rax` (left pointing at the
        /// next panel), the bias, the epilogue, the store.
        private mutating func emitTile(rows: Int, vectors: Int, residualVectors: Int) {
            let width = vectors * 8
            for i in 0..<rows {
                for j in 0..<vectors {
                    let y = accumulator(i, j, vectors: vectors)
                    asm.vxorps(y, y, y)
                }
            }
            asm.mov(.r14, .r9)
            if rows > 3 {
                asm.lea(.r15, Memory(.r9, index: .rsi, scale: 2))
                asm.add(.r15, .rsi)
            }
            let unroll = Conv2DGEMMCode.kUnroll
            let length = k / segments.count
            for segment in 0..<segments.count {
                let iterations = length / unroll
                if iterations > 0 {
                    let kLoop = asm.makeLabel()
                    asm.mov(.rdx, iterations)
                    asm.bind(kLoop)
                    emitSteps(unroll, rows: rows, vectors: vectors)
                    asm.add(.rax, Int32(unroll * width * 4))
                    asm.add(.r14, Int32(unroll * 4))
                    if rows > 3 { asm.add(.r15, Int32(unroll * 4)) }
                    asm.dec(.rdx)
                    asm.jnz(kLoop)
                }
                let leftover = length % unroll
                if leftover > 0 {
                    emitSteps(leftover, rows: rows, vectors: vectors)
                    asm.add(.rax, Int32(leftover * width * 4))
                }
                if segment + 1 < segments.count {
                    // On to the next run of K: the next input row of the receptive field.
                    asm.add(.r14, Int32(leftover * 4 + segments.jumpBytes))
                    if rows > 3 { asm.add(.r15, Int32(leftover * 4 + segments.jumpBytes)) }
                }
            }
            // The bias is added to the finished sum, as LiteRT's kernels round it (not used as its starting value).
            for i in 0..<rows {
                for j in 0..<vectors {
                    let y = accumulator(i, j, vectors: vectors)
                    asm.vaddps(y, y, Memory(.r12, index: .rbx, scale: 1, Int32(32 * j)))
                }
            }
            emitEpilogue(rows: rows, vectors: vectors, residualVectors: residualVectors)
            for i in 0..<rows {
                for j in 0..<vectors {
                    asm.vmovups(
                        Memory(.r10, index: .rbx, scale: 1, Int32(i * n * 4 + 32 * j)),
                        accumulator(i, j, vectors: vectors))
                }
            }
        }

        /// `count` consecutive k steps at byte offsets from `rax`, `r14`, `r15`.
        private mutating func emitSteps(_ count: Int, rows: Int, vectors: Int) {
            let weights = [YMM(12), YMM(13)]
            let broadcast = YMM(14)
            for step in 0..<count {
                for j in 0..<vectors {
                    asm.vmovups(weights[j], Memory(.rax, Int32((step * vectors + j) * 32)))
                }
                for i in 0..<rows {
                    asm.vbroadcastss(broadcast, aAddress(i, Int32(step * 4)))
                    for j in 0..<vectors {
                        asm.vfmadd231ps(accumulator(i, j, vectors: vectors), weights[j], broadcast)
                    }
                }
            }
        }

        /// The clamp and epilogue steps on the accumulators, in order. Operand order follows Swift's `max(y, b)` /
        /// `min(y, b)`: the bound is the first source, so a NaN accumulator stays NaN.
        private mutating func emitEpilogue(rows: Int, vectors: Int, residualVectors: Int) {
            let scratch = YMM(14)
            let bound = YMM(15)
            for operation in epilogue {
                switch operation {
                case .clamp(let lowerOffset, let upperOffset):
                    if let lowerOffset {
                        asm.vbroadcastss(bound, Memory(.r12, lowerOffset))
                        for i in 0..<rows {
                            for j in 0..<vectors {
                                let y = accumulator(i, j, vectors: vectors)
                                asm.vmaxps(y, bound, y)
                            }
                        }
                    }
                    if let upperOffset {
                        asm.vbroadcastss(bound, Memory(.r12, upperOffset))
                        for i in 0..<rows {
                            for j in 0..<vectors {
                                let y = accumulator(i, j, vectors: vectors)
                                asm.vminps(y, bound, y)
                            }
                        }
                    }
                case .prelu(let slopeOffset):
                    // max(y, 0) + alpha · min(y, 0): one term is an exact zero, so the fused multiply-add rounds
                    // exactly like PReLU's own alpha · y.
                    asm.vxorps(bound, bound, bound)
                    for i in 0..<rows {
                        for j in 0..<vectors {
                            let y = accumulator(i, j, vectors: vectors)
                            asm.vminps(scratch, bound, y)
                            asm.vmaxps(y, bound, y)
                            asm.vfmadd231ps(
                                y, scratch, Memory(.r12, index: .rbx, scale: 1, slopeOffset + Int32(32 * j)))
                        }
                    }
                case .addResidual:
                    // Columns past a padded residual's channels add its zero padding: nothing.
                    for i in 0..<rows {
                        for j in 0..<residualVectors {
                            let y = accumulator(i, j, vectors: vectors)
                            asm.vaddps(
                                y, y, Memory(.r11, index: .rbx, scale: 1, Int32(i * residualColumns * 4 + 32 * j)))
                        }
                    }
                }
            }
        }
    }
}
