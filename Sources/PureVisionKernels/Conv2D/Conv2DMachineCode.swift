/// A convolution's filter repacked for the generated GEMM: the output channels rounded up to a multiple of 8 (the
/// extra columns zero), in column panels of ``panelWidths`` (for AVX2 16 columns each, and one of 8 when that count
/// `% 16 == 8`, a single panel of 24 when it is 24; for AVX-512 32 columns each, then one of 16 and one of 8 for the
/// rest), each `K × width` floats row-major, panels one after another. Owned memory at a fixed, 64-byte aligned
/// address, because the generated code embeds it.
final class Conv2DFilterPanels: @unchecked Sendable {
    /// `K · n` floats.
    let floats: UnsafeMutablePointer<Float>
    /// Rows of every panel: `kernelHeight · kernelWidth · inputChannels`.
    let k: Int
    /// Columns of the panels: `outputChannels` rounded up to a multiple of 8 (for AVX-512, to 32 when 24 would
    /// remain after the last 32-column panel).
    let n: Int
    /// The convolution's output channels.
    let outputChannels: Int
    /// Columns of each panel, in order (multiples of 8 adding up to `n`).
    let panelWidths: [Int]
    /// Whether the panels are laid out for AVX-512 code (32- and 16-column panels run as two and one 16-lane vectors).
    let instructions: GeneratedInstructionSet

    /// Packs `filter`, OHWI flattened to `[outputChannels, k]` (row `o` holds output channel `o`'s `k` weights), for
    /// `instructions` (AVX-512 only where the CPU has it).
    init(filter: UnsafePointer<Float>, k: Int, outputChannels: Int, instructions: GeneratedInstructionSet = .best) {
        precondition(k > 0 && outputChannels > 0, "Conv2DFilterPanels: k=\(k) outputChannels=\(outputChannels)")
        let rounded = (outputChannels + 7) / 8 * 8
        let wide = instructions == .avx512 && HostCPU.supportsGeneratedAVX512
        let panelWidths = wide ? Self.wideWidths(n: rounded) : Self.panelWidths(n: rounded)
        let n = panelWidths.reduce(0, +)
        self.k = k
        self.n = n
        self.outputChannels = outputChannels
        self.instructions = wide ? .avx512 : .avx2
        self.panelWidths = panelWidths
        let raw = UnsafeMutableRawPointer.allocate(byteCount: k * n * 4, alignment: 64)
        floats = raw.bindMemory(to: Float.self, capacity: k * n)
        var panelStart = 0
        var column = 0
        for width in panelWidths {
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

    /// 16-column panels and an 8-column one for the rest; for exactly 24 columns one 24-column panel, whose tiles
    /// of 4 rows × 3 vectors keep 12 accumulators busy where 16 + 8 would leave the 8-column tile with 6.
    static func panelWidths(n: Int) -> [Int] {
        if n == 24 { return [24] }
        return [Int](repeating: 16, count: n / 16) + (n % 16 == 8 ? [8] : [])
    }

    /// AVX-512 panels: 32 columns (6 rows × 2 zmm accumulators), then 16 (6 rows × 1 zmm: six accumulators cover
    /// fewer FMA latencies than twelve, but each takes twice the lanes of the ymm tile's, which measured 20–35 % faster
    /// on 16- and 24-channel layers) and 8 (ymm) for the rest.
    /// When 24 columns would remain, they take a 32-column panel whose last 8 are zero: 6 rows × 2 zmm with a masked
    /// store, where 16 + 8 would read `A` twice with half-filled tiles.
    static func wideWidths(n: Int) -> [Int] {
        let rest = n % 32
        if rest == 24 { return [Int](repeating: 32, count: n / 32 + 1) }
        return [Int](repeating: 32, count: n / 32) + (rest >= 16 ? [16] : []) + (rest % 16 == 8 ? [8] : [])
    }

    deinit { floats.deallocate() }
}

/// Generated x86-64 AVX2/FMA code for one convolution's GEMM block, `C[rows × outputChannels] =
/// epilogue(clamp(A · W + bias))`, with `W` in ``Conv2DFilterPanels`` and the bias, clamp and the leading steps of an
/// ``OutputEpilogue`` applied in registers before the single store of each output tile.
///
/// `A` is `rows × K` with a run-time row stride (the NHWC input itself for a 1×1 convolution, or an im2col block);
/// `C` is `rows × outputChannels` contiguous: when `outputChannels % 8 != 0`, the last vector of each row is stored in
/// pieces (4, 2 and 1 lanes), so nothing past a row is written. A residual is `rows × outputChannels`, or
/// `rows × residualChannels` when it is padded; a vector it covers only partly is loaded under a mask.
///
/// The code walks groups of panels small enough to stay in L2; inside a group, tiles of ``tileRows`` rows (6 rows × 2
/// vectors, 4 rows × 3 vectors for a 24-column panel, 6 × 1 for a 16-column zmm or an 8-column panel) sweep the
/// group's panels while those rows of `A` stay in L1. The leftover rows use their own tiles, generated at load as well.
///
/// Each output starts at its bias and takes one fused multiply-add per `k`, in order, with no split of `K`:
/// XNNPACK's arithmetic (`Reference.conv2D(…, arithmetic: .xnnpack)` bit for bit), which is what MediaPipe runs.
final class Conv2DGEMMCode: @unchecked Sendable {
    /// The most rows of `A` per full tile (6; 4 for a 24-column panel).
    static let tileRows = 6
    /// Steps of the k loop emitted per iteration.
    static let kUnroll = 4
    /// Bytes of packed weights one group of panels may take (they are reread for every tile of rows).
    static let panelGroupBytes = 192 << 10

    let panels: Conv2DFilterPanels
    /// Rows of `A` per full tile of this code.
    let tileRows: Int
    /// The epilogue steps the code does not apply (starting at the first step it cannot generate), for the caller
    /// to run in Swift on each block afterwards.
    let remainingEpilogue: OutputEpilogue
    /// Whether each run passes the bias (``run(a:lda:c:rows:residual:bias:)``) instead of the one given at load.
    let takesBiasAtRunTime: Bool
    private let constants: UnsafeMutablePointer<Float>
    private let code: ExecutableCode

    /// Generates the code, or returns nil when the sizes exceed 32-bit displacements or the code cannot be mapped.
    /// `bias` holds `panels.outputChannels` floats (copied, zero-extended to `N`).
    /// `segments` describes how a row of `A` lies in memory (default: contiguous). `panelRange` (indices into
    /// `panels.panelWidths`; default all) limits the code to those panels' output columns: it then computes and
    /// stores only them, still addressing `C`, the bias and the residual by absolute column, so that codes for
    /// disjoint panel ranges can share one output's rows between threads. With `biasAtRunTime` the code reads the
    /// bias each run passes (`bias` is then not read for the sums), so one code serves any bias.
    init?(
        panels: Conv2DFilterPanels, bias: UnsafePointer<Float>, clamp: ClampRange, epilogue: OutputEpilogue,
        segments: KSegments = .contiguous, panelRange: Range<Int>? = nil, biasAtRunTime: Bool = false
    ) {
        let (k, n) = (panels.k, panels.n)
        let channels = panels.outputChannels
        guard n % 8 == 0, k * n <= (Int(Int32.max) >> 3), Self.tileRows * n * 4 <= Int(Int32.max) >> 2,
            segments.count > 0, k % segments.count == 0, abs(segments.jumpBytes) <= Int(Int32.max) >> 2,
            panelRange.map({ !$0.isEmpty && $0.clamped(to: panels.panelWidths.indices) == $0 }) ?? true
        else {
            return nil
        }
        // The longest prefix of steps the code can apply (every residual in it with the same row length).
        var prefix = 0
        var residualColumns: Int? = nil
        while prefix < epilogue.steps.count, Self.canGenerate(epilogue.steps[prefix], channels: channels) {
            if case .addResidual(_, let padded) = epilogue.steps[prefix] {
                let columns = padded ?? channels
                if let residualColumns, residualColumns != columns { break }
                residualColumns = columns
            }
            prefix += 1
        }
        let steps = Array(epilogue.steps[..<prefix])
        remainingEpilogue = OutputEpilogue(Array(epilogue.steps[prefix...]))

        // Constants: bias [n], then each PReLU step's slopes [n], then a lane mask table (8 × all-ones, 8 × zero),
        // then (lower, upper) pairs for each clamp.
        let preluCount = steps.filter { if case .prelu = $0 { true } else { false } }.count
        let maskStart = n * (1 + preluCount)
        let scalarStart = maskStart + 16
        let constantCount = scalarStart + 2 * (steps.count + 1)
        // 64-byte aligned, so that no vector of bias or slopes straddles two cache lines.
        constants = UnsafeMutableRawPointer.allocate(byteCount: constantCount * 4, alignment: 64)
            .bindMemory(to: Float.self, capacity: constantCount)
        constants.update(from: bias, count: channels)
        (constants + channels).update(repeating: 0, count: n - channels)
        for lane in 0..<16 { constants[maskStart + lane] = Float(bitPattern: lane < 8 ? UInt32.max : 0) }
        var layout = ConstantLayout(scalarStart: scalarStart)
        var slopeBlock = 1
        var plan: [EpiloguePlan] = []
        let convClamp = layout.addClamp(clamp, into: constants)
        if let convClamp { plan.append(convClamp) }
        for step in steps {
            switch step {
            case .clamp(let range):
                if let c = layout.addClamp(range, into: constants) { plan.append(c) }
            case .prelu(let alpha):
                (constants + n * slopeBlock).update(from: alpha, count: channels)
                (constants + n * slopeBlock + channels).update(repeating: 0, count: n - channels)
                plan.append(.prelu(slopeOffset: Int32(n * slopeBlock * 4)))
                slopeBlock += 1
            case .addResidual(let range, _):
                plan.append(.addResidual)
                if let c = layout.addClamp(range, into: constants) { plan.append(c) }
            }
        }
        self.panels = panels
        takesBiasAtRunTime = biasAtRunTime
        tileRows = panels.panelWidths.contains(24) ? 4 : Self.tileRows
        var emitter = Emitter(
            k: k, panels: panels, panelRange: panelRange ?? panels.panelWidths.indices, constants: constants,
            epilogue: plan, segments: segments,
            residualColumns: residualColumns ?? channels, maskOffset: Int32(maskStart * 4), tileRows: tileRows,
            biasAtRunTime: biasAtRunTime)
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
        case .addResidual(_, let residualChannels): residualChannels.map { $0 >= 0 && $0 <= channels } ?? true
        }
    }

    /// Computes one block: `a` is `rows × K` with row stride `lda` floats (laid out as the code's ``KSegments``), `c`
    /// receives `rows × outputChannels` floats, `residual` (rows of `outputChannels` floats, or of the padded
    /// residual's channels; required when the generated steps add one) is read; `bias` (``runBiasFloatCount``
    /// floats, zero past the output channels) is required by, and read only by, code that ``takesBiasAtRunTime``.
    /// Allocates nothing.
    func run(
        a: UnsafePointer<Float>, lda: Int, c: UnsafeMutablePointer<Float>, rows: Int, residual: UnsafePointer<Float>?,
        bias: UnsafePointer<Float>? = nil
    ) {
        precondition(!takesBiasAtRunTime || bias != nil, "Conv2DGEMMCode: this code reads the bias of each run")
        // The argument block: A, lda in bytes, C, rows, residual, two words of the code's own loop state, the bias.
        var arguments = (
            Int(bitPattern: a), lda * 4, Int(bitPattern: c), rows, Int(bitPattern: residual), 0, 0,
            Int(bitPattern: bias)
        )
        let entry = code.entry
        withUnsafeMutablePointer(to: &arguments) { entry(Int(bitPattern: $0), 0, 0, 0, 0, 0) }
    }

    /// Floats of a run's bias for code that ``takesBiasAtRunTime``: one per column of the panels (`N`).
    var runBiasFloatCount: Int { panels.n }

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

    /// What a tile's code depends on besides its row count: the panel's vectors, how many lanes of each vector the
    /// residual covers (8, part, or 0 past a padded residual's channels) and how many lanes of the last vector are
    /// stored (8, or fewer at the end of a row whose length is not a multiple of 8).
    private struct PanelKind: Hashable {
        /// 8 (ymm) or 16 (zmm, a 32-column AVX-512 panel).
        var lanes: Int
        var vectors: Int
        var residualLanes: [Int]
        var storedLanes: Int

        /// Columns of the panel.
        var width: Int { lanes * vectors }
        /// Bytes of one vector.
        var vectorBytes: Int32 { Int32(4 * lanes) }
        /// Whether the tile runs in zmm registers.
        var isWide: Bool { lanes == 16 }
        /// The tile's vector instructions.
        var vector: FloatVectorWidth { isWide ? .avx512 : .avx2 }
    }

    /// Consecutive panels of one kind.
    private struct PanelRun: Hashable {
        var kind: PanelKind
        var count: Int
    }

    /// Writes the code. Register use: `rdi` argument block · `rsi` lda (bytes) · `rcx` rows left ·
    /// `r9`/`r10`/`r11` current rows of A / C / residual · `rbp` the group's first panel · `rax` the weights being
    /// read · `rbx` column byte offset (into bias, slopes, C, residual) · `r12` constants · `r13` panels left ·
    /// `r14`/`r15` A rows 0 and 3 of the tile · `rdx` k-loop counter (before the loop, a run's bias). `ymm0`…`ymm11`
    /// accumulate; with 2 vectors a panel `ymm12`/`ymm13` hold weights and `ymm14` the broadcast, with 3
    /// `ymm12`…`ymm14` and `ymm15`; in the epilogue `ymm12`…`ymm15` are scratch (mask, masked load, bound, partial
    /// store halves).
    private struct Emitter {
        let k: Int
        let n: Int
        /// Output row length in floats (`C`'s row stride).
        let outputColumns: Int
        let panels: Conv2DFilterPanels
        /// The panels (indices into `panels.panelWidths`) whose columns the code computes.
        let panelRange: Range<Int>
        let constants: UnsafeMutablePointer<Float>
        let epilogue: [EpiloguePlan]
        let segments: KSegments
        /// Channels per pixel of the residual (its row stride): the first this many output columns add it.
        let residualColumns: Int
        /// Byte offset of the lane mask table from `r12`.
        let maskOffset: Int32
        let tileRows: Int
        /// Whether the bias comes from ``biasSlot`` rather than the constants.
        let biasAtRunTime: Bool
        var asm = X86Assembler()

        static let aBase = Memory(.rdi, 0)
        static let ldaSlot = Memory(.rdi, 8)
        static let cBase = Memory(.rdi, 16)
        static let rowsSlot = Memory(.rdi, 24)
        static let residualBase = Memory(.rdi, 32)
        static let groupColumnSlot = Memory(.rdi, 40)
        static let groupCountSlot = Memory(.rdi, 48)
        static let biasSlot = Memory(.rdi, 56)
        static let calleeSaved: [GPR] = [.rbx, .rbp, .r12, .r13, .r14, .r15]

        init(
            k: Int, panels: Conv2DFilterPanels, panelRange: Range<Int>, constants: UnsafeMutablePointer<Float>,
            epilogue: [EpiloguePlan], segments: KSegments, residualColumns: Int, maskOffset: Int32, tileRows: Int,
            biasAtRunTime: Bool
        ) {
            self.k = k
            self.n = panels.n
            self.outputColumns = panels.outputChannels
            self.panels = panels
            self.panelRange = panelRange
            self.constants = constants
            self.epilogue = epilogue
            self.segments = segments
            self.residualColumns = residualColumns
            self.maskOffset = maskOffset
            self.tileRows = tileRows
            self.biasAtRunTime = biasAtRunTime
        }

        mutating func generate() throws(MachineCodeError) -> [UInt8] {
            for register in Self.calleeSaved { asm.push(register) }
            asm.mov(.rsi, Self.ldaSlot)
            asm.mov(.r12, Int(bitPattern: constants))

            // Groups of consecutive panels whose weights fit the budget (an 8-column panel at the end joins the
            // group before it rather than make A be streamed once more for it alone), each a list of runs.
            var groups: [[PanelRun]] = []
            var groupBytes = 0
            let start = panels.panelWidths[..<panelRange.lowerBound].reduce(0, +)
            var column = start
            for index in panelRange {
                let width = panels.panelWidths[index]
                let bytes = k * width * 4
                let joinsLast = width == 8 && index == panelRange.upperBound - 1
                if groups.isEmpty || (groupBytes + bytes > Conv2DGEMMCode.panelGroupBytes && !joinsLast) {
                    groups.append([])
                    groupBytes = 0
                }
                let kind = panelKind(column: column, width: width)
                if let last = groups[groups.count - 1].last, last.kind == kind {
                    groups[groups.count - 1][groups[groups.count - 1].count - 1].count += 1
                } else {
                    groups[groups.count - 1].append(PanelRun(kind: kind, count: 1))
                }
                groupBytes += bytes
                column += width
            }
            // Consecutive groups of the same runs share one copy of the code, looped over at run time.
            var firstColumn = start
            var index = 0
            while index < groups.count {
                var count = 1
                while index + count < groups.count && groups[index + count] == groups[index] { count += 1 }
                emitGroups(groups[index], count: count, firstColumn: firstColumn)
                let groupColumns = groups[index].reduce(0) { $0 + $1.kind.width * $1.count }
                firstColumn += groupColumns * count
                index += count
            }

            asm.vzeroupper()
            for register in Self.calleeSaved.reversed() { asm.pop(register) }
            asm.ret()
            return try asm.finish()
        }

        private func panelKind(column: Int, width: Int) -> PanelKind {
            // AVX-512 panels of 32 and 16 columns run in zmm registers (the 8-column one in ymm).
            let lanes = width == 32 || (width == 16 && panels.instructions == .avx512) ? 16 : 8
            let vectors = width / lanes
            let residualLanes = (0..<vectors).map { j in min(lanes, max(0, residualColumns - (column + lanes * j))) }
            return PanelKind(
                lanes: lanes, vectors: vectors, residualLanes: residualLanes,
                storedLanes: min(lanes, outputColumns - (column + width - lanes))
            )
        }

        /// `count` consecutive groups of panels laid out as `runs`, starting at output column `firstColumn`.
        private mutating func emitGroups(_ runs: [PanelRun], count: Int, firstColumn: Int) {
            let rows = tileRows
            let groupColumns = runs.reduce(0) { $0 + $1.kind.width * $1.count }
            asm.mov(.rbp, Int(bitPattern: panels.floats + firstColumn * k))
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
            emitPanels(rows: rows, runs)
            // Next tile of rows: A advances rows · lda, C and the residual as many rows.
            switch rows {
            case 6:
                asm.lea(.r9, Memory(.r9, index: .rsi, scale: 4))
                asm.lea(.r9, Memory(.r9, index: .rsi, scale: 2))
            default:
                asm.lea(.r9, Memory(.r9, index: .rsi, scale: 4))
            }
            asm.add(.r10, Int32(rows * outputColumns * 4))
            asm.add(.r11, Int32(rows * residualColumns * 4))
            asm.sub(.rcx, Int32(rows))
            asm.cmp(.rcx, Int32(rows))
            asm.jge(rowLoop)
            asm.bind(remainder)
            for leftover in 1..<rows {
                let next = asm.makeLabel()
                asm.cmp(.rcx, Int32(leftover))
                asm.jnz(next)
                emitPanels(rows: leftover, runs)
                asm.jmp(groupDone)
                asm.bind(next)
            }
            asm.bind(groupDone)
            if count > 1 {
                asm.mov(.rax, groupColumns * k * 4)
                asm.add(.rbp, .rax)
                asm.mov(.rax, Self.groupColumnSlot)
                asm.add(.rax, Int32(groupColumns * 4))
                asm.storeQuadword(.rax, at: Self.groupColumnSlot)
                asm.mov(.rax, Self.groupCountSlot)
                asm.sub(.rax, 1)
                asm.storeQuadword(.rax, at: Self.groupCountSlot)
                asm.jnz(groupLoop)
            }
        }

        /// One tile of `rows` rows across the group's panels (a run-time loop over each run of several).
        private mutating func emitPanels(rows: Int, _ runs: [PanelRun]) {
            asm.mov(.rax, .rbp)
            asm.mov(.rbx, Self.groupColumnSlot)
            for (index, run) in runs.enumerated() {
                let panelLoop = asm.makeLabel()
                if run.count > 1 {
                    asm.mov(.r13, run.count)
                    asm.bind(panelLoop)
                }
                // Each tile leaves `rax` at the next panel.
                emitTile(rows: rows, kind: run.kind)
                if run.count > 1 || index + 1 < runs.count { asm.add(.rbx, Int32(run.kind.width * 4)) }
                if run.count > 1 {
                    asm.dec(.r13)
                    asm.jnz(panelLoop)
                }
            }
        }

        private func accumulator(_ row: Int, _ vector: Int, vectors: Int) -> Int { row * vectors + vector }

        /// `k` = the low `lanes` bits set (through `rdx`, free outside the k loop).
        private mutating func setMask(_ k: OpMask, lanes: Int) {
            asm.mov(.rdx, (1 << lanes) - 1)
            asm.kmovw(k, .rdx)
        }

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
        private mutating func emitTile(rows: Int, kind: PanelKind) {
            let vectors = kind.vectors
            let width = kind.width
            let (wide, vectorBytes, vector) = (kind.isWide, kind.vectorBytes, kind.vector)
            // Every sum starts at the bias and takes the products in k order, one FMA each: XNNPACK's order. A run's
            // own bias is addressed through rdx, free until the k loop counts in it.
            let biasBase: GPR = biasAtRunTime ? .rdx : .r12
            if biasAtRunTime { asm.mov(.rdx, Self.biasSlot) }
            for i in 0..<rows {
                for j in 0..<vectors {
                    let y = accumulator(i, j, vectors: vectors)
                    vector.load(&asm, y, Memory(biasBase, index: .rbx, scale: 1, vectorBytes * Int32(j)))
                }
            }
            asm.mov(.r14, .r9)
            if rows > 3 {
                asm.lea(.r15, Memory(.r9, index: .rsi, scale: 2))
                asm.add(.r15, .rsi)
            }
            let length = k / segments.count
            let unroll = Conv2DGEMMCode.kUnroll
            for segment in 0..<segments.count {
                let iterations = length / unroll
                if iterations > 0 {
                    let kLoop = asm.makeLabel()
                    asm.mov(.rdx, iterations)
                    asm.bind(kLoop)
                    for step in 0..<unroll {
                        emitStep(
                            rows: rows, kind: kind, aOffset: Int32(step * 4), weightOffset: Int32(step * width * 4))
                    }
                    asm.add(.rax, Int32(unroll * width * 4))
                    asm.add(.r14, Int32(unroll * 4))
                    if rows > 3 { asm.add(.r15, Int32(unroll * 4)) }
                    asm.dec(.rdx)
                    asm.jnz(kLoop)
                }
                let leftover = length % unroll
                for step in 0..<leftover {
                    emitStep(
                        rows: rows, kind: kind, aOffset: Int32(step * 4), weightOffset: Int32(step * width * 4))
                }
                if leftover > 0 { asm.add(.rax, Int32(leftover * width * 4)) }
                if segment + 1 < segments.count {
                    // On to the next run of K: the next input row of the receptive field.
                    asm.add(.r14, Int32(leftover * 4 + segments.jumpBytes))
                    if rows > 3 { asm.add(.r15, Int32(leftover * 4 + segments.jumpBytes)) }
                }
            }
            emitEpilogue(rows: rows, kind: kind)
            let partial = kind.storedLanes < kind.lanes
            if wide && partial { setMask(OpMask(1), lanes: kind.storedLanes) }
            for i in 0..<rows {
                for j in 0..<vectors {
                    let address = Memory(
                        .r10, index: .rbx, scale: 1, Int32(i * outputColumns * 4) + vectorBytes * Int32(j))
                    let y = accumulator(i, j, vectors: vectors)
                    if j == vectors - 1 && partial {
                        if wide {
                            asm.vmovups(address, mask: OpMask(1), ZMM(y))
                        } else {
                            emitPartialStore(YMM(y), lanes: kind.storedLanes, at: address)
                        }
                    } else {
                        vector.store(&asm, address, y)
                    }
                }
            }
        }

        /// The first `lanes` (1…7) lanes of `value` to `address`: 4, 2 and 1 lanes at a time (`ymm13` scratch).
        private mutating func emitPartialStore(_ value: YMM, lanes: Int, at address: Memory) {
            var source = value
            var memory = address
            var left = lanes
            if left >= 4 {
                asm.vmovupsLow128(memory, source)
                left -= 4
                if left == 0 { return }
                let upper = YMM(13)
                asm.vextractf128(upper, source, half: 1)
                source = upper
                memory.displacement += 16
            }
            if left >= 2 {
                asm.vmovlps(memory, source)
                if left == 3 {
                    var last = memory
                    last.displacement += 8
                    asm.vextractps(last, source, lane: 2)
                }
            } else {
                asm.vextractps(memory, source, lane: 0)
            }
        }

        /// One k step at byte offsets `aOffset` (from `r14`/`r15`) and `weightOffset` (from `rax`).
        private mutating func emitStep(rows: Int, kind: PanelKind, aOffset: Int32, weightOffset: Int32) {
            let (vectors, vector) = (kind.vectors, kind.vector)
            let weights = (0..<vectors).map { 12 + $0 }
            let value = 12 + vectors
            for j in 0..<vectors {
                vector.load(&asm, weights[j], Memory(.rax, weightOffset + kind.vectorBytes * Int32(j)))
            }
            for i in 0..<rows {
                vector.broadcast(&asm, value, aAddress(i, aOffset))
                for j in 0..<vectors {
                    vector.fma(&asm, accumulator(i, j, vectors: vectors), weights[j], value)
                }
            }
        }

        /// The clamp and epilogue steps on the accumulators, in order. Operand order follows Swift's `max(y, b)` /
        /// `min(y, b)`: the bound is the first source, so a NaN accumulator stays NaN.
        private mutating func emitEpilogue(rows: Int, kind: PanelKind) {
            let (vectors, wide, vectorBytes, vector) = (kind.vectors, kind.isWide, kind.vectorBytes, kind.vector)
            let scratch = 14
            let bound = 15
            for operation in epilogue {
                switch operation {
                case .clamp(let lowerOffset, let upperOffset):
                    // The lower bound first (max), then the upper (min).
                    for (offset, isLower) in [(lowerOffset, true), (upperOffset, false)] {
                        guard let offset else { continue }
                        vector.broadcast(&asm, bound, Memory(.r12, offset))
                        for i in 0..<rows {
                            for j in 0..<vectors {
                                let y = accumulator(i, j, vectors: vectors)
                                if isLower {
                                    vector.maximum(&asm, y, bound, y)
                                } else {
                                    vector.minimum(&asm, y, bound, y)
                                }
                            }
                        }
                    }
                case .prelu(let slopeOffset):
                    // max(y, 0) + alpha · min(y, 0): one term is an exact zero, so the fused multiply-add rounds
                    // exactly like PReLU's own alpha · y.
                    vector.zero(&asm, bound)
                    for i in 0..<rows {
                        for j in 0..<vectors {
                            let y = accumulator(i, j, vectors: vectors)
                            vector.minimum(&asm, scratch, bound, y)
                            vector.maximum(&asm, y, bound, y)
                            vector.fma(
                                &asm, y, scratch,
                                Memory(.r12, index: .rbx, scale: 1, slopeOffset + vectorBytes * Int32(j)))
                        }
                    }
                case .addResidual:
                    // Columns past a padded residual's channels add its zero padding: nothing. A vector the
                    // residual covers in part is loaded under a mask (the lanes past it read as zero, unread).
                    let mask = YMM(12)
                    let loaded = 13
                    for j in 0..<vectors {
                        let lanes = kind.residualLanes[j]
                        if lanes > 0 && lanes < kind.lanes {
                            if wide {
                                setMask(OpMask(2), lanes: lanes)
                            } else {
                                asm.vmovups(mask, Memory(.r12, maskOffset + Int32((8 - lanes) * 4)))
                            }
                        }
                        for i in 0..<rows {
                            let y = accumulator(i, j, vectors: vectors)
                            let address = Memory(
                                .r11, index: .rbx, scale: 1, Int32(i * residualColumns * 4) + vectorBytes * Int32(j))
                            if lanes == kind.lanes {
                                vector.add(&asm, y, y, address)
                            } else if lanes > 0 {
                                if wide {
                                    asm.vmovups(ZMM(loaded), mask: OpMask(2), address)
                                    asm.vaddps(ZMM(y), ZMM(y), ZMM(loaded))
                                } else {
                                    asm.vmaskmovps(YMM(loaded), mask: mask, address)
                                    asm.vaddps(YMM(y), YMM(y), YMM(loaded))
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
