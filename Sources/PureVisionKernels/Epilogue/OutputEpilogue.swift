/// Element-wise work a convolution kernel applies to each block of its output while the block is still in cache,
/// after the convolution's own bias and clamp: what a graph would otherwise run as separate ADD, PRELU or
/// activation passes over the whole tensor.
///
/// The output block is `rows × channels` floats, row-major and contiguous (NHWC with the channels innermost). Steps
/// run in order and compute exactly what the unfused operators compute, so fused and unfused results are equal.
public struct OutputEpilogue: Sendable, Hashable {
    /// One element-wise step.
    public enum Step: Sendable, Hashable {
        /// `y = clamp(y + residual)`, the residual laid out like the output. With `residualChannels` set, the
        /// residual has only that many channels per pixel (a row stride of `residualChannels`), and the output's
        /// other channels get `clamp(y + 0)`: the ADD of a residual zero-padded on the channel axis (PAD then ADD).
        case addResidual(clamp: ClampRange, residualChannels: Int? = nil)
        /// `y = y ≥ 0 ? y : alpha[c] · y`, one slope per output channel (`alpha.count == channels`).
        case prelu(alpha: [Float])
        /// `y = clamp(y)`: a separate activation operator such as RELU or RELU6.
        case clamp(ClampRange)
    }

    /// The steps, applied in order.
    public let steps: [Step]

    /// An epilogue of `steps`. At most one step may add a residual.
    public init(_ steps: [Step]) {
        precondition(
            steps.filter { if case .addResidual = $0 { true } else { false } }.count <= 1,
            "OutputEpilogue: at most one residual")
        self.steps = steps
    }

    /// No steps.
    public static let none = OutputEpilogue([])

    /// Whether there is nothing to do.
    public var isEmpty: Bool { steps.isEmpty }

    /// Floats per pixel of the residual for an output of `channels` channels (`channels` when it is not padded).
    public func residualChannels(outputChannels channels: Int) -> Int {
        for step in steps {
            if case .addResidual(_, let residualChannels?) = step { return residualChannels }
        }
        return channels
    }

    /// Whether a step reads a residual tensor.
    public var addsResidual: Bool {
        steps.contains { if case .addResidual = $0 { true } else { false } }
    }

    /// The same steps followed by `step`.
    public func appending(_ step: Step) -> OutputEpilogue { OutputEpilogue(steps + [step]) }

    /// Applies the steps to `rows × channels` contiguous floats at `output`. `residual` points at the residual
    /// element matching `output[0]` (rows of ``residualChannels(outputChannels:)`` floats); it is required when
    /// ``addsResidual`` and must not overlap `output`. Allocates nothing.
    public func apply(
        rows: Int, channels: Int, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?
    ) {
        apply(rows: rows, channels: channels, columns: 0..<channels, output: output, residual: residual)
    }

    /// Applies the steps to columns `columns` of `rows` rows of `channels` floats at `output` (the other columns
    /// untouched): the share of a block that a kernel cutting its output by columns computed. `output` and
    /// `residual` point at the rows' column 0, as in ``apply(rows:channels:output:residual:)``. Allocates nothing.
    public func apply(
        rows: Int, channels: Int, columns: Range<Int>, output: UnsafeMutablePointer<Float>,
        residual: UnsafePointer<Float>?
    ) {
        precondition(columns.lowerBound >= 0 && columns.upperBound <= channels, "OutputEpilogue: columns")
        guard rows > 0, !columns.isEmpty else { return }
        // Whole rows are one run of floats for the steps that do not depend on the channel.
        let whole = columns.count == channels
        let runs = Runs(
            count: whole ? 1 : rows, length: whole ? rows * channels : columns.count, stride: channels,
            first: columns.lowerBound)
        var index = 0
        while index < steps.count {
            switch steps[index] {
            case .addResidual(let clamp, let residualChannels):
                guard let residual else { preconditionFailure("OutputEpilogue: residual missing") }
                if let residualChannels, residualChannels != channels {
                    precondition(
                        residualChannels >= 0 && residualChannels < channels, "OutputEpilogue: residual channels")
                    Self.addPadded(
                        rows: rows, channels: channels, columns: columns, output: output, residual: residual,
                        residualChannels: residualChannels, clamp: clamp)
                    index += 1
                    continue
                }
                // The common ADD-then-PRELU pair runs as one pass.
                if index + 1 < steps.count, case .prelu(let alpha) = steps[index + 1] {
                    alpha.withUnsafeBufferPointer { slopes in
                        guard let a = slopes.baseAddress else { return }
                        Self.addThenPReLU(
                            rows: rows, channels: channels, columns: columns, output: output, residual: residual,
                            clamp: clamp, alpha: a)
                    }
                    index += 2
                    continue
                }
                runs.visit { offset, length in
                    Self.add(count: length, output: output + offset, residual: residual + offset, clamp: clamp)
                }
            case .prelu(let alpha):
                alpha.withUnsafeBufferPointer { slopes in
                    guard let a = slopes.baseAddress else { return }
                    Self.prelu(rows: rows, channels: channels, columns: columns, output: output, alpha: a)
                }
            case .clamp(let clamp):
                if !clamp.isIdentity {
                    let (lower, upper) = (clamp.lower, clamp.upper)
                    runs.visit { offset, length in
                        let run = output + offset
                        for i in 0..<length { run[i] = min(max(run[i], lower), upper) }
                    }
                }
            }
            index += 1
        }
    }

    /// The runs of contiguous floats an ``apply(rows:channels:columns:output:residual:)`` covers.
    private struct Runs {
        let count: Int
        let length: Int
        let stride: Int
        let first: Int

        /// Calls `body` with each run's offset from the block's first float and its length.
        @inline(__always)
        func visit(_ body: (Int, Int) -> Void) {
            for run in 0..<count { body(run * stride + first, length) }
        }
    }

    private static func add(
        count: Int, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>, clamp: ClampRange
    ) {
        if clamp.isIdentity {
            for i in 0..<count { output[i] = output[i] + residual[i] }
        } else {
            let (lower, upper) = (clamp.lower, clamp.upper)
            for i in 0..<count { output[i] = min(max(output[i] + residual[i], lower), upper) }
        }
    }

    private static func addPadded(
        rows: Int, channels: Int, columns: Range<Int>, output: UnsafeMutablePointer<Float>,
        residual: UnsafePointer<Float>, residualChannels: Int, clamp: ClampRange
    ) {
        let (lower, upper) = (clamp.lower, clamp.upper)
        let added = columns.clamped(to: 0..<residualChannels)
        let padded = columns.clamped(to: residualChannels..<channels)
        for r in 0..<rows {
            let row = output + r * channels
            let skip = residual + r * residualChannels
            for c in added { row[c] = min(max(row[c] + skip[c], lower), upper) }
            for c in padded { row[c] = min(max(row[c] + 0, lower), upper) }
        }
    }

    private static func prelu(
        rows: Int, channels: Int, columns: Range<Int>, output: UnsafeMutablePointer<Float>,
        alpha: UnsafePointer<Float>
    ) {
        for r in 0..<rows {
            let row = output + r * channels
            for c in columns { row[c] = Self.preluBranchFree(row[c], alpha[c]) }
        }
    }

    private static func addThenPReLU(
        rows: Int, channels: Int, columns: Range<Int>, output: UnsafeMutablePointer<Float>,
        residual: UnsafePointer<Float>, clamp: ClampRange, alpha: UnsafePointer<Float>
    ) {
        let (lower, upper) = (clamp.lower, clamp.upper)
        for r in 0..<rows {
            let row = output + r * channels
            let skip = residual + r * channels
            if clamp.isIdentity {
                for c in columns { row[c] = Self.preluBranchFree(row[c] + skip[c], alpha[c]) }
            } else {
                for c in columns {
                    row[c] = Self.preluBranchFree(min(max(row[c] + skip[c], lower), upper), alpha[c])
                }
            }
        }
    }

    /// `value ≥ 0 ? value : alpha · value` without a branch, so the loops vectorize (a data-dependent branch on the
    /// sign mispredicts on half the elements): `max(v, 0) + alpha · min(v, 0)` adds an exact zero to the chosen term,
    /// so the result is the same value (a zero may come out as +0 where the select gives −0).
    @inline(__always)
    static func preluBranchFree(_ value: Float, _ alpha: Float) -> Float {
        max(value, 0) + alpha * min(value, 0)
    }
}
