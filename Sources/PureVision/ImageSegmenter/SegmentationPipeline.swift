import PureVisionEngine
import PureVisionImage
import PureVisionKernels
import PureVisionTFLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The prepared segmentation pipeline of MediaPipe 0.10.14's ImageSegmenter graph (CPU): model, input converter,
/// labels, activation, and the mask post-processing of `TensorsToSegmentationCalculator`.
///
/// `@unchecked Sendable`: besides immutable state it owns ``activationScratch``, which is touched only inside the
/// interpreter's session, whose lock serialises every run.
final class SegmentationPipeline: @unchecked Sendable {
    let loaded: LoadedModel
    let imageInput: ImageModelInput
    let activation: SegmenterActivation
    /// The names of the classes (the mask tensor's labels file); empty without metadata labels.
    let labels: [String]
    /// Display names in the requested locale, when the metadata has them.
    let displayNames: [String]?
    /// The mask tensor: the model's last output.
    let maskOutput: Int
    let tensorHeight: Int
    let tensorWidth: Int
    let classCount: Int
    /// The output holding quality scores (the first, when the model has two outputs).
    let qualityOutput: Int?
    let outputCategoryMask: Bool
    let outputConfidenceMasks: Bool
    /// The activated mask tensor of the run under way (`tensorHeight · tensorWidth · classCount` floats, one plane per
    /// class), allocated once so that a frame allocates only the masks it returns.
    private let activationScratch: UnsafeMutablePointer<Float>

    /// - Parameter border: how the warp fills pixels outside the image: `.replicate` in MediaPipe Tasks, `.zero` in
    ///   the legacy selfie-segmentation graph (`selfie_segmentation_cpu.pbtxt`).
    init(options: ImageSegmenterOptions, border: BorderMode = .replicate) throws(VisionTaskError) {
        try options.validate()
        outputCategoryMask = options.outputCategoryMask
        outputConfidenceMasks = options.outputConfidenceMasks
        let bytes = try LoadedModel.bytes(of: options.baseOptions)
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            throw .model(
                "this is a .task bundle (a ZIP); ImageSegmenter takes a single .tflite segmentation model "
                    + "(e.g. deeplab_v3.tflite, selfie_segmenter.tflite)")
        }
        loaded = try LoadedModel.load(bytes: bytes, threadCount: options.baseOptions.threadCount)
        let interpreter = loaded.interpreter
        let input = try ImageModelInput.tensor(of: interpreter, task: "an image segmenter")
        let outputs = interpreter.outputs
        guard let mask = outputs.last, outputs.count <= 2 else {
            throw .model("an image segmenter has one or two outputs; this model has \(outputs.count)")
        }
        let dims = mask.shape.dimensions
        guard mask.elementType == .float32, dims.count == 4 && dims[0] == 1 || dims.count == 3 else {
            throw .model(
                "the segmentation output '\(mask.name)' must be float32 [1, H, W, K] (or [H, W, K]); it is "
                    + "\(mask.elementType) \(mask.shape)")
        }
        let hwc = Array(dims.suffix(3))
        guard hwc.allSatisfy({ $0 > 0 }) else {
            throw .model("the segmentation output '\(mask.name)' has shape \(mask.shape)")
        }
        (tensorHeight, tensorWidth, classCount) = (hwc[0], hwc[1], hwc[2])
        maskOutput = outputs.count - 1
        if outputs.count == 2 {
            guard outputs[0].elementType == .float32 else {
                throw .model("the quality-score output '\(outputs[0].name)' must be float32")
            }
            qualityOutput = 0
        } else {
            qualityOutput = nil
        }

        switch input.elementType {
        case .float32:
            imageInput = try ImageModelInput(
                input, isByteInput: false, range: try loaded.inputRange() ?? (0, 1), border: border)
        case .uint8:
            imageInput = try ImageModelInput(input, isByteInput: true, range: (0, 1), border: border)
        default:
            throw .model("input '\(input.name)' is \(input.elementType): only float32 and uint8 image inputs")
        }

        let metadata: ModelMetadata?
        do { metadata = try loaded.model.modelMetadata() } catch { throw .model("metadata: \(error)") }
        let subgraph = metadata?.subgraphs.first
        if let entry = subgraph?.customMetadata.first(where: { $0.name == SegmenterActivation.metadataName }) {
            do { activation = try SegmenterActivation(segmenterOptions: entry.data) } catch {
                throw .model("\(error)")
            }
        } else {
            activation = .none
        }
        let tensor = subgraph?.outputTensors.last
        let read = try ClassificationLabels.read(
            model: loaded.model, tensor: tensor, headIndex: maskOutput, locale: options.displayNamesLocale)
        labels = read.names
        displayNames = read.displayNames
        // Last, after everything that can throw: a failed init would not free it.
        activationScratch = .allocate(capacity: tensorHeight * tensorWidth * classCount)
    }

    /// Segments a frame; the masks have the image's size, or `maskSize` when given (the legacy graph's raw-size
    /// option: the model's own resolution).
    func segment(
        _ frame: VisionFrame, maskSize: (width: Int, height: Int)? = nil
    ) throws(VisionTaskError) -> ImageSegmenterResult {
        let (width, height) = maskSize ?? (frame.image.width, frame.image.height)
        return try imageInput.withFrame(frame, roiAllowed: false, in: loaded.interpreter) {
            session, _ throws(VisionTaskError) -> ImageSegmenterResult in
            session.invoke()
            let quality: [Float]
            if let qualityOutput {
                quality = Array(session.floatOutput(qualityOutput))
            } else {
                quality = [Float](repeating: 1, count: classCount)
            }
            let tensor = session.floatOutput(maskOutput)
            guard let raw = tensor.baseAddress, tensor.count == tensorHeight * tensorWidth * classCount else {
                throw .model("the segmentation output has \(tensor.count) values")
            }
            let pool = session.pool
            let confidence =
                outputConfidenceMasks ? confidenceMasks(raw, width: width, height: height, pool: pool) : nil
            let category = outputCategoryMask ? categoryMask(raw, width: width, height: height, pool: pool) : nil
            return ImageSegmenterResult(confidenceMasks: confidence, categoryMask: category, qualityScores: quality)
        }
    }

    deinit { activationScratch.deallocate() }

    /// The activation per tensor pixel, then OpenCV's bilinear resize of each class to the image size, both split by
    /// rows over the interpreter's threads. Called inside the interpreter's session only (it uses
    /// ``activationScratch``).
    private func confidenceMasks(
        _ raw: UnsafePointer<Float>, width: Int, height: Int, pool: ThreadPool
    ) -> [ConfidenceMask] {
        let pixels = tensorHeight * tensorWidth
        let k = classCount
        let out = activationScratch
        pool.parallelRanges(
            pixels, minimumChunk: 1024,
            ActivatedPixels(activation: activation, raw: raw, output: out, classes: k, pixels: pixels))
        if width == tensorWidth && height == tensorHeight {
            return (0..<k).map { c in
                ConfidenceMask(
                    width: width, height: height,
                    values: Array(UnsafeBufferPointer(start: out + c * pixels, count: pixels)))
            }
        }
        let plan = LinearResizePlan(
            inputWidth: tensorWidth, inputHeight: tensorHeight, outputWidth: width, outputHeight: height)
        return (0..<k).map { c in
            let values = [Float](unsafeUninitializedCapacity: width * height) { buffer, count in
                if let destination = buffer.baseAddress {
                    pool.parallelRanges(
                        height, minimumChunk: 16,
                        ResizedRows(plan: plan, source: out + c * pixels, output: destination))
                }
                count = width * height
            }
            return ConfidenceMask(width: width, height: height, values: values)
        }
    }

    /// The activation of the pixels in a range, from `raw` (`classes` interleaved values per pixel) to `output` in
    /// planes (class `c` of pixel `p` at `c · pixels + p`), so that each class's resize reads its own contiguous
    /// plane.
    private struct ActivatedPixels: ParallelRangeBody {
        let activation: SegmenterActivation
        let raw: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let classes: Int
        let pixels: Int

        func run(range: Range<Int>) {
            let k = classes
            for p in range {
                let values = raw + p * k
                switch activation {
                case .none:
                    for c in 0..<k { output[c * pixels + p] = values[c] }
                case .sigmoid:
                    for c in 0..<k { output[c * pixels + p] = SegmentationPipeline.sigmoid(values[c]) }
                case .softmax:
                    var maximum = values[0]
                    for c in 1..<max(k, 1) where values[c] > maximum { maximum = values[c] }
                    var denominator: Float = 0
                    for c in 0..<k {
                        let e = expf(values[c] - maximum)
                        output[c * pixels + p] = e
                        denominator += e
                    }
                    for c in 0..<k { output[c * pixels + p] /= denominator }
                }
            }
        }
    }

    /// Rows of one class's resized confidence mask, from the class's plane.
    private struct ResizedRows: ParallelRangeBody {
        let plan: LinearResizePlan
        let source: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>

        func run(range: Range<Int>) {
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * plan.outputWidth) { rows in
                guard let rowBuffers = rows.baseAddress else { return }
                plan.resize(source, channels: 1, channel: 0, rows: range, into: output, rowBuffers: rowBuffers)
            }
        }
    }

    /// Align-corners bilinear interpolation of the raw tensor per image pixel, the sigmoid when the metadata asks
    /// for it, then the first maximum (several classes) or `> 0.5 ? 0 : 255` (one class); split by rows over the
    /// interpreter's threads.
    private func categoryMask(
        _ raw: UnsafePointer<Float>, width: Int, height: Int, pool: ThreadPool
    ) -> CategoryMask {
        let plan = AlignCornersPlan(
            inputWidth: tensorWidth, inputHeight: tensorHeight, outputWidth: width, outputHeight: height)
        let values = [UInt8](unsafeUninitializedCapacity: width * height) { buffer, count in
            if let output = buffer.baseAddress {
                pool.parallelRanges(
                    height, minimumChunk: 16,
                    CategoryRows(
                        plan: plan, raw: raw, tensorWidth: tensorWidth, classes: classCount,
                        sigmoid: activation == .sigmoid, output: output))
            }
            count = width * height
        }
        return CategoryMask(width: width, height: height, values: values)
    }

    /// Rows of the category mask. Each output row first interpolates every tensor column between its two tensor rows
    /// (`v(x, y0) + (v(x, y1) − v(x, y0)) · ty`: the "left" and "right" terms of MediaPipe's formula, which depend
    /// only on the column), then each pixel interpolates between its two columns' values.
    private struct CategoryRows: ParallelRangeBody {
        let plan: AlignCornersPlan
        let raw: UnsafePointer<Float>
        let tensorWidth: Int
        let classes: Int
        let sigmoid: Bool
        let output: UnsafeMutablePointer<UInt8>

        func run(range: Range<Int>) {
            let k = classes
            let rowStride = tensorWidth * k
            withUnsafeTemporaryAllocation(of: Float.self, capacity: rowStride) { buffer in
                guard let columns = buffer.baseAddress else { return }
                for y in range {
                    let (y0, y1, ty) = plan.rows[y]
                    let top = raw + y0 * rowStride
                    let bottom = raw + y1 * rowStride
                    for i in 0..<rowStride { columns[i] = top[i] + (bottom[i] - top[i]) * ty }
                    for x in 0..<plan.outputWidth {
                        let (x0, x1, tx) = plan.columns[x]
                        let left = columns + x0 * k
                        let right = columns + x1 * k
                        var best = 0
                        var bestValue: Float = 0
                        for c in 0..<k {
                            var value = left[c] + (right[c] - left[c]) * tx
                            if sigmoid { value = SegmentationPipeline.sigmoid(value) }
                            // std::max_element's rule: a later value replaces the best only when strictly greater.
                            if c == 0 || value > bestValue {
                                best = c
                                bestValue = value
                            }
                        }
                        if k == 1 {
                            output[y * plan.outputWidth + x] =
                                bestValue > 0.5 ? 0 : ImageSegmenterResult.backgroundValue
                        } else {
                            output[y * plan.outputWidth + x] = UInt8(truncatingIfNeeded: best)
                        }
                    }
                }
            }
        }
    }

    /// `1. / (1 + std::exp(-value))` as MediaPipe writes it: a Float exponential and sum, a Double division.
    static func sigmoid(_ value: Float) -> Float {
        Float(1.0 / Double(1 + expf(-value)))
    }
}
