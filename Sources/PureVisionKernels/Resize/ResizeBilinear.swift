/// RESIZE_BILINEAR over float32 NHWC with XNNPACK's arithmetic (``Reference/Arithmetic/xnnpack``), which
/// MediaPipe runs.
///
/// Per axis, `scale = alignCorners && out > 1 ? (in - 1) / (out - 1) : in / out` (in float), as in TFLite. With
/// half-pixel centres, output coordinate `o` maps to `s = o · scale + (0.5 · scale − 0.5)`, clamped to
/// `[0, in − 1]`; otherwise to `s = o · scale`. It reads index `lower = ⌊s⌋` and `upper = min(lower + 1, in − 1)`
/// with weight `α = s − lower`, and interpolates `top = tl + (tr − tl)·αx`, `bottom = bl + (br − bl)·αx`, then
/// `top + (bottom − top)·αy`, every operation rounded. Input is `[batch, inputHeight, inputWidth, channels]`,
/// output `[batch, outputHeight, outputWidth, channels]`.
///
/// Each output row is `top + (bottom − top)·αy` of two horizontally interpolated input rows, and consecutive output
/// rows mostly read the same input rows (an upscale by k reads each about k times): a thread keeps the last two
/// horizontally interpolated rows in its scratch and computes a row only when a new input row comes in, then combines
/// the two with vector operations over the whole row. Every value goes through the same rounded operations as
/// `Reference.resizeBilinear` with XNNPACK's arithmetic, its twin.
public enum ResizeBilinear {
    /// Floats of scratch `run` needs for `threadCount` threads: two interpolated rows of `outputWidth · channels` per
    /// thread.
    public static func scratchFloatCount(outputWidth: Int, channels: Int, threadCount: Int) -> Int {
        max(1, threadCount) * 2 * max(1, outputWidth * channels)
    }

    /// Resizes `input` into `output`, splitting output rows over `pool` (over one thread when it has more threads
    /// than `scratch` has slots: `scratch` holds ``scratchFloatCount(outputWidth:channels:threadCount:)`` floats for
    /// `scratchSlots` threads). Allocates nothing.
    public static func run(
        input: UnsafePointer<Float>, batch: Int, inputHeight: Int, inputWidth: Int, channels: Int,
        output: UnsafeMutablePointer<Float>, outputHeight: Int, outputWidth: Int, alignCorners: Bool,
        halfPixelCenters: Bool, scratch: UnsafeMutablePointer<Float>, scratchSlots: Int, pool: ThreadPool
    ) {
        precondition(inputHeight > 0 && inputWidth > 0 && outputHeight > 0 && outputWidth > 0, "empty image")
        let rowCount = batch * outputHeight
        let pixelsPerRow = outputWidth * channels
        let pool = pool.fitting(slots: scratchSlots)
        let tasks = ThreadPool.chunkCount(
            rowCount / max(1, 8_192 / max(1, pixelsPerRow)), threads: pool.threadCount)
        pool.parallelTasks(
            tasks,
            Rows(
                input: input, inputHeight: inputHeight, inputWidth: inputWidth, channels: channels, output: output,
                outputHeight: outputHeight, outputWidth: outputWidth, rowCount: rowCount, taskCount: tasks,
                scratch: scratch,
                rows: Axis(
                    input: inputHeight, output: outputHeight, alignCorners: alignCorners,
                    halfPixelCenters: halfPixelCenters),
                columns: Axis(
                    input: inputWidth, output: outputWidth, alignCorners: alignCorners,
                    halfPixelCenters: halfPixelCenters)))
    }

    /// XNNPACK's source coordinates along one axis.
    @usableFromInline
    struct Axis: Sendable {
        let scale: Float
        let offset: Float
        let halfPixelCenters: Bool
        let last: Int

        @usableFromInline
        init(input: Int, output: Int, alignCorners: Bool, halfPixelCenters: Bool) {
            scale = ResizeBilinear.scale(input: input, output: output, alignCorners: alignCorners)
            offset = 0.5 * scale - 0.5
            self.halfPixelCenters = halfPixelCenters
            last = input - 1
        }

        /// The two source indices of output index `o` and the weight of the second.
        @usableFromInline @inline(__always)
        func source(_ o: Int) -> (lower: Int, upper: Int, alpha: Float) {
            var coordinate = Float(o) * scale
            if halfPixelCenters { coordinate = min(max(coordinate + offset, 0), Float(last)) }
            let lower = Int(coordinate)
            return (lower, min(lower + 1, last), coordinate - Float(lower))
        }
    }

    /// XNNPACK's interpolation of one value from its four corners.
    @usableFromInline @inline(__always)
    package static func interpolate(
        _ topLeft: Float, _ topRight: Float, _ bottomLeft: Float, _ bottomRight: Float, alphaX: Float, alphaY: Float
    ) -> Float {
        let top = topLeft + (topRight - topLeft) * alphaX
        let bottom = bottomLeft + (bottomRight - bottomLeft) * alphaX
        return top + (bottom - top) * alphaY
    }

    /// Task `task` of a run: its share of the output rows (flattened over batch and outputHeight), with the two
    /// interpolated rows of scratch slot `thread`.
    private struct Rows: ParallelThreadTaskBody {
        let input: UnsafePointer<Float>
        let inputHeight: Int
        let inputWidth: Int
        let channels: Int
        let output: UnsafeMutablePointer<Float>
        let outputHeight: Int
        let outputWidth: Int
        let rowCount: Int
        let taskCount: Int
        let scratch: UnsafeMutablePointer<Float>
        let rows: Axis
        let columns: Axis

        func run(task: Int, thread: Int) {
            let pixelsPerRow = outputWidth * channels
            let buffers = (scratch + thread * 2 * pixelsPerRow, scratch + (thread * 2 + 1) * pixelsPerRow)
            // The input row (image · inputHeight + row) each buffer holds, −1 for none.
            var held = (-1, -1)
            // The buffer holding input row `key`, interpolating it into one not holding `keep` if needed.
            func interpolated(_ key: Int, keeping keep: Int) -> UnsafeMutablePointer<Float> {
                if held.0 == key { return buffers.0 }
                if held.1 == key { return buffers.1 }
                let first = held.0 != keep
                let buffer = first ? buffers.0 : buffers.1
                if first { held.0 = key } else { held.1 = key }
                interpolateRow(input + key * inputWidth * channels, into: buffer)
                return buffer
            }
            let start = rowCount * task / taskCount
            let end = rowCount * (task + 1) / taskCount
            for row in start..<end {
                let b = row / outputHeight
                let (y0, y1, alphaY) = rows.source(row % outputHeight)
                let (topKey, bottomKey) = (b * inputHeight + y0, b * inputHeight + y1)
                let top = interpolated(topKey, keeping: bottomKey)
                let bottom = interpolated(bottomKey, keeping: topKey)
                ResizeBilinear.blend(
                    top, bottom, alpha: alphaY, into: output + row * pixelsPerRow, count: pixelsPerRow)
            }
        }

        /// The input row at `source` interpolated along x: `left + (right − left)·αx` per output pixel and channel.
        func interpolateRow(_ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Float>) {
            for x in 0..<outputWidth {
                let (x0, x1, alphaX) = columns.source(x)
                ResizeBilinear.blend(
                    source + x0 * channels, source + x1 * channels, alpha: alphaX, into: destination + x * channels,
                    count: channels)
            }
        }
    }

    /// `a + (b − a)·alpha` for `count` values, 8 at a time, each operation rounded (no fused multiply-add).
    @inline(__always)
    static func blend(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, alpha: Float,
        into destination: UnsafeMutablePointer<Float>,
        count: Int
    ) {
        let weight = SIMD8<Float>(repeating: alpha)
        let (x, y, out) = (UnsafeRawPointer(a), UnsafeRawPointer(b), UnsafeMutableRawPointer(destination))
        var i = 0
        while i + 8 <= count {
            let first = x.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
            let second = y.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
            out.storeBytes(of: first + (second - first) * weight, toByteOffset: i &* 4, as: SIMD8<Float>.self)
            i &+= 8
        }
        while i < count {
            destination[i] = a[i] + (b[i] - a[i]) * alpha
            i += 1
        }
    }

    /// TFLite's per-axis scale from input to output coordinates.
    static func scale(input: Int, output: Int, alignCorners: Bool) -> Float {
        if alignCorners && output > 1 { return Float(input - 1) / Float(output - 1) }
        return Float(input) / Float(output)
    }

    /// The source coordinate of output index `value` and the two input indices it interpolates between.
    @inline(__always)
    static func source(
        _ value: Int, scale: Float, halfPixelCenters: Bool, inputSize: Int
    ) -> (coordinate: Float, lower: Int, upper: Int) {
        let coordinate = halfPixelCenters ? (Float(value) + 0.5) * scale - 0.5 : Float(value) * scale
        let lower = max(Int(coordinate.rounded(.down)), 0)
        let upper = min(Int(coordinate.rounded(.up)), inputSize - 1)
        return (coordinate, lower, upper)
    }
}
