import PureVisionEngine
import PureVisionImage
import PureVisionKernels
import PureVisionTFLite

/// The prepared detection pipeline of an `ObjectDetector` (MediaPipe's ObjectDetectorGraph with its
/// DetectionPostprocessingGraph). A model with four outputs ends in `TFLite_Detection_PostProcess` and is read by
/// `InModelSuppression`; a model with two outputs (raw box encodings and class scores) is decoded here.
///
/// Read from a two-output model at load, as MediaPipe reads it:
/// - input: one [1, H, W, 3] tensor; uint8 gets the raw pixels (the metadata's normalization is ignored, as in
///   MediaPipe), float32 the range of the input's `NormalizationOptions` (required);
/// - outputs: exactly two, found by their metadata names "location" and "score" (positions 0 and 1 when a name is
///   missing); all float32, or all uint8 (dequantized);
/// - the location tensor's `BoundingBoxProperties` (required; BOUNDARIES, RATIO);
/// - labels: the score tensor's first `TENSOR_AXIS_LABELS` file, display names by locale;
/// - `DETECTOR_METADATA` (required): the fixed anchors and the decoding options (classes, boxes, coordinates per
///   box, keypoints, scales, exponential sizes, sigmoid scores); the raw box layout is YXHW.
///
/// Per frame: stretch the image to the input (replicate border, no letterbox) → decode every box against its anchor
/// (score ≥ `scoreThreshold`) → greedy IoU suppression at 0.3 (up to `maxResults`) → back to the image through the
/// preprocessing matrix → integer pixels (each value truncated) → identical boxes merged.
final class ObjectDetectionPipeline: Sendable {
    let loaded: LoadedModel
    let imageInput: ImageModelInput
    let labels: ClassificationLabels
    let postprocessing: Postprocessing

    /// How the model's outputs become detections.
    enum Postprocessing: Sendable {
        /// Raw box encodings and scores: anchors, decoding and suppression here.
        case anchors(AnchorDecoding)
        /// The model suppressed already (`TFLite_Detection_PostProcess`).
        case inModel(InModelSuppression)
    }

    /// The two-output path's prepared state.
    struct AnchorDecoding: Sendable {
        let anchors: [SSDAnchor]
        let decoderOptions: DetectionDecoderOptions
        let suppression: NonMaxSuppressionOptions
        let locationOutput: Int
        let scoreOutput: Int
        let outputQuantization: (location: TensorDescription.Quantization, score: TensorDescription.Quantization)?
        /// For uint8 outputs, the score of each byte of the score tensor.
        let scoreTable: QuantizedScoreTable?
    }

    /// The IoU above which a lower-scoring box is suppressed (MediaPipe's fixed `min_suppression_threshold`).
    static let suppressionThreshold: Float = 0.3

    init(options: ObjectDetectorOptions) throws(VisionTaskError) {
        loaded = try LoadedModel.load(options.baseOptions)
        let interpreter = loaded.interpreter
        let input = try ImageModelInput.tensor(of: interpreter, task: "an object detector")
        let metadata: ModelMetadata?
        do { metadata = try loaded.model.modelMetadata() } catch { throw .model("metadata: \(error)") }
        guard let subgraph = metadata?.subgraphs.first else { throw .missingMetadata(field: "TFLITE_METADATA") }
        imageInput = try ImageModelInput.normalizedByMetadata(input, of: loaded)
        let model = loaded.model
        var labels = ClassificationLabels(headIndex: 0, headName: nil, names: [], displayNames: nil)
        /// Reads the labels of `tensor` and turns the option lists into class indices.
        func listed(_ tensor: TensorMetadata, index: Int, type: AssociatedFileType) throws(VisionTaskError) -> Set<Int>
        {
            var only = tensor
            only.associatedFiles = tensor.associatedFiles.filter { $0.type == type }
            if type == .tensorValueLabels {
                for i in only.associatedFiles.indices { only.associatedFiles[i].type = .tensorAxisLabels }
            }
            labels = try ClassificationLabels.read(
                model: model, tensor: only, headIndex: index, locale: options.displayNamesLocale)
            let list = options.categoryAllowlist.isEmpty ? options.categoryDenylist : options.categoryAllowlist
            if !list.isEmpty && labels.names.isEmpty {
                throw .invalidOption(
                    name: options.categoryAllowlist.isEmpty ? "categoryDenylist" : "categoryAllowlist",
                    reason: "the lists need labels in the model's metadata, and this model has none")
            }
            let names = labels.names
            return Set(list.compactMap { names.firstIndex(of: $0) })
        }
        switch interpreter.outputs.count {
        case 2:
            postprocessing = .anchors(
                try Self.anchorDecoding(
                    interpreter: interpreter, subgraph: subgraph, options: options,
                    listed: { tensor, index throws(VisionTaskError) in
                        try listed(tensor, index: index, type: .tensorAxisLabels)
                    }))
        case 4:
            let suppression = try InModelSuppression(
                model: model, interpreter: interpreter, subgraph: subgraph, options: options,
                listed: { tensor throws(VisionTaskError) in try listed(tensor, index: 1, type: .tensorValueLabels) })
            postprocessing = .inModel(suppression)
        default:
            throw .model(
                "Expected a model with 2 or 4 output tensors, found \(interpreter.outputs.count) (an object detector "
                    + "outputs raw boxes and scores, or the four outputs of TFLite_Detection_PostProcess).")
        }
        self.labels = labels
    }

    /// Where the outputs named `names` are, by the metadata's names (MediaPipe's "location", "category", "score",
    /// "number of detections"), or at 0, 1, … in order when any name is missing; the metadata must describe exactly
    /// `names.count` outputs.
    static func outputPositions(
        named names: [String], in subgraph: SubGraphMetadata
    ) throws(VisionTaskError) -> [Int] {
        guard subgraph.outputTensors.count == names.count else {
            throw .model(
                "Mismatch between number of output tensors (\(names.count)) and output tensors metadata "
                    + "(\(subgraph.outputTensors.count)).")
        }
        let found = names.map { name in subgraph.outputTensors.firstIndex { $0.name == name } }
        return found.allSatisfy { $0 != nil } ? found.compactMap { $0 } : Array(names.indices)
    }

    /// The location tensor's mandatory `BoundingBoxProperties`: BOUNDARIES, RATIO, an index of 4 values if any.
    static func boundingBoxProperties(_ tensor: TensorMetadata) throws(VisionTaskError) -> BoundingBoxProperties {
        guard let box = tensor.boundingBoxProperties else {
            throw .missingMetadata(field: "BoundingBoxProperties of output '\(tensor.name ?? "location")'")
        }
        guard box.type == .boundaries else {
            throw .model("BoundingBoxProperties type must be BOUNDARIES, found \(box.type)")
        }
        guard box.coordinateType == .ratio else {
            throw .model("BoundingBoxProperties coordinate type must be RATIO, found \(box.coordinateType)")
        }
        guard box.index.isEmpty || box.index.count == 4 else {
            throw .model("Expected BoundingBoxProperties index to contain 4 values, found \(box.index.count)")
        }
        return box
    }

    static func anchorDecoding(
        interpreter: Interpreter, subgraph: SubGraphMetadata, options: ObjectDetectorOptions,
        listed: (TensorMetadata, Int) throws(VisionTaskError) -> Set<Int>
    ) throws(VisionTaskError) -> AnchorDecoding {
        let outputs = interpreter.outputs
        let positions = try outputPositions(named: ["location", "score"], in: subgraph)
        let (locationOutput, scoreOutput) = (positions[0], positions[1])
        _ = try boundingBoxProperties(subgraph.outputTensors[locationOutput])
        let listed = try listed(subgraph.outputTensors[scoreOutput], scoreOutput)

        guard let entry = subgraph.customMetadata.first(where: { $0.name == ObjectDetectorMetadata.customMetadataName })
        else { throw .missingMetadata(field: ObjectDetectorMetadata.customMetadataName) }
        let detector: ObjectDetectorMetadata
        do { detector = try ObjectDetectorMetadata(bytes: entry.data) } catch { throw .model("\(error)") }
        guard let decoding = detector.decoding else {
            throw .missingMetadata(field: "DETECTOR_METADATA tensors_decoding_options")
        }
        guard let fixedAnchors = detector.fixedAnchors, !fixedAnchors.isEmpty else {
            throw .missingMetadata(field: "DETECTOR_METADATA ssd_anchors_options.fixed_anchors_schema.anchors")
        }
        let (boxes, classes, coords) = (decoding.numBoxes, decoding.numClasses, decoding.numCoords)
        guard boxes > 0, classes > 0, coords >= 4 else {
            throw .model(
                "DETECTOR_METADATA decoding options: num_boxes \(boxes), num_classes \(classes), num_coords \(coords)")
        }
        guard fixedAnchors.count == boxes else {
            throw .model("DETECTOR_METADATA has \(fixedAnchors.count) anchors for num_boxes \(boxes)")
        }
        let location = outputs[locationOutput]
        let score = outputs[scoreOutput]
        func fits(_ tensor: TensorDescription, _ last: Int) -> Bool {
            let d = tensor.shape.dimensions
            return d == [1, boxes, last] || d == [1, 1, boxes, last]
        }
        guard fits(location, coords), fits(score, classes) else {
            throw .model(
                "the anchors and decoding options (\(boxes) boxes × \(coords) coordinates, \(classes) classes) do not "
                    + "match the model's outputs: location \(location.shape), score \(score.shape)")
        }
        let outputQuantization: (location: TensorDescription.Quantization, score: TensorDescription.Quantization)?
        switch (location.elementType, score.elementType) {
        case (.float32, .float32):
            outputQuantization = nil
        case (.uint8, .uint8):
            guard let l = location.quantization, let s = score.quantization else {
                throw .model("uint8 outputs need a scale and zero point")
            }
            outputQuantization = (l, s)
        default:
            throw .model(
                "the detector's outputs must be all float32 or all uint8; found \(location.elementType) and "
                    + "\(score.elementType)")
        }

        var decoder = DetectionDecoderOptions(
            numClasses: classes, numBoxes: boxes, numCoords: coords, boxCoordOffset: 0,
            keypointCoordOffset: decoding.keypointCoordOffset, numKeypoints: decoding.numKeypoints,
            numValuesPerKeypoint: decoding.numValuesPerKeypoint, xScale: decoding.xScale, yScale: decoding.yScale,
            wScale: decoding.wScale, hScale: decoding.hScale,
            applyExponentialOnBoxSize: decoding.applyExponentialOnBoxSize, reverseOutputOrder: false,
            sigmoidScore: decoding.sigmoidScore, minScoreThresh: options.scoreThreshold)
        if options.categoryAllowlist.isEmpty {
            decoder.ignoredClasses = listed
        } else {
            decoder.allowedClasses = listed
        }
        guard decoder.numValuesPerKeypoint == 2, decoder.numKeypoints >= 0,
            decoder.keypointCoordOffset >= 0,
            decoder.numKeypoints == 0 || decoder.keypointCoordOffset + 2 * decoder.numKeypoints <= coords,
            decoder.numKeypoints * 2 + 4 == coords
        else {
            throw .model(
                "DETECTOR_METADATA keypoints (\(decoder.numKeypoints) × \(decoder.numValuesPerKeypoint) from "
                    + "\(decoder.keypointCoordOffset)) do not fit num_coords \(coords)")
        }
        return AnchorDecoding(
            anchors: fixedAnchors, decoderOptions: decoder,
            suppression: NonMaxSuppressionOptions(
                algorithm: .default, overlapType: .intersectionOverUnion,
                minSuppressionThreshold: suppressionThreshold, maxNumDetections: options.maxResults),
            locationOutput: locationOutput, scoreOutput: scoreOutput, outputQuantization: outputQuantization,
            scoreTable: outputQuantization.map {
                QuantizedScoreTable(scale: $0.score.scale, zeroPoint: $0.score.zeroPoint, options: decoder)
            })
    }

    func detect(_ frame: VisionFrame) throws(VisionTaskError) -> ObjectDetectorResult {
        let image = frame.image
        let (decoded, transform) = try imageInput.withFrame(frame, roiAllowed: false, in: loaded.interpreter) {
            session, transform throws(VisionTaskError) -> (Decoded, ImageToTensorResult) in
            session.invoke()
            switch postprocessing {
            case .inModel(let suppression):
                return (.categorized(suppression.decode(session)), transform)
            case .anchors(let decoding):
                let decoded: [NormalizedDetection]
                do throws(DetectionError) {
                    decoded = try Self.decode(session, decoding)
                } catch {
                    throw .model("decoding: \(error)")
                }
                let kept = NonMaxSuppression.suppress(decoded, options: decoding.suppression, pool: session.pool)
                return (.singleClass(kept ?? []), transform)
            }
        }
        let boxes: [NormalizedDetection]
        let categories: [[(classID: Int, score: Float)]?]
        switch decoded {
        case .singleClass(let detections):
            boxes = detections
            categories = boxes.map { _ in nil }
        case .categorized(let candidates):
            boxes = candidates.map(\.box)
            categories = candidates.map(\.categories)
        }
        let projected: [NormalizedDetection]
        do throws(DetectionError) {
            projected = try DetectionProjection.project(boxes, matrix: transform.matrix)
        } catch {
            throw .model("projection: \(error)")
        }
        let detections = pixelDetections(
            projected, categories: categories, image: image, pool: loaded.interpreter.threadPool)
        return ObjectDetectorResult(detections: Self.deduplicated(detections))
    }

    /// A frame's suppressed detections, in tensor coordinates.
    enum Decoded {
        /// A two-output model's boxes after suppression, each with its best class.
        case singleClass([NormalizedDetection])
        /// The in-model suppression's detections with their categories.
        case categorized([InModelSuppression.Candidate])
    }

    /// Decodes the raw tensors of a two-output model against its anchors.
    static func decode(
        _ session: borrowing Interpreter.Session, _ decoding: AnchorDecoding
    ) throws(DetectionError) -> [NormalizedDetection] {
        guard let quantization = decoding.outputQuantization, let scoreTable = decoding.scoreTable else {
            return try DetectionDecoder.decode(
                rawBoxes: session.floatOutput(decoding.locationOutput),
                rawScores: session.floatOutput(decoding.scoreOutput), anchors: decoding.anchors,
                options: decoding.decoderOptions, pool: session.pool)
        }
        let boxes = dequantize(session.output(decoding.locationOutput), quantization.location)
        // Through a Result: Swift 6.0's `withUnsafeBufferPointer` rethrows untyped errors.
        let decoded: Result<[NormalizedDetection], DetectionError> = boxes.withUnsafeBufferPointer { b in
            Result { () throws(DetectionError) in
                try DetectionDecoder.decode(
                    rawBoxes: b, quantizedScores: session.uint8Output(decoding.scoreOutput),
                    scoreTable: scoreTable, anchors: decoding.anchors, options: decoding.decoderOptions,
                    pool: session.pool)
            }
        }
        return try decoded.get()
    }

    /// MediaPipe's pixel box (each value truncated, see `FaceDetectionPipeline.pixelDetection`) with each class's
    /// label and display name; a detection without a category list has its own class and score.
    func pixelDetection(
        _ detection: NormalizedDetection, categories: [(classID: Int, score: Float)]?, image: PixelImage
    ) -> Detection {
        /// The category of class `id` with its names.
        func category(_ id: Int, _ score: Float) -> ResultCategory {
            ResultCategory(
                index: id, score: score,
                categoryName: labels.names.indices.contains(id) ? labels.names[id] : nil,
                displayName: labels.displayNames.flatMap { $0.indices.contains(id) ? $0[id] : nil })
        }
        return FaceDetectionPipeline.pixelDetection(
            detection, image: image,
            categories: categories?.map(category) ?? [category(detection.classID, detection.score)])
    }

    /// ``pixelDetection(_:categories:image:)`` of every detection, in order, in contiguous runs over `pool` (an
    /// EfficientDet frame with MediaPipe's default options reports about 2,000: each needs its arrays and labels).
    func pixelDetections(
        _ detections: [NormalizedDetection], categories: [[(classID: Int, score: Float)]?], image: PixelImage,
        pool: ThreadPool
    ) -> [Detection] {
        let count = detections.count
        // One task (one thread, or fewer than 512 detections) runs inline on the calling thread.
        let tasks = ThreadPool.chunkCount(count / 256, threads: pool.threadCount)
        return [Detection](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            pool.parallelFor(tasks) { task in
                for index in count * task / tasks..<count * (task + 1) / tasks {
                    (base + index).initialize(
                        to: pixelDetection(detections[index], categories: categories[index], image: image))
                }
            }
            initialized = count
        }
    }

    /// MediaPipe's DetectionsDeduplicateCalculator: a detection whose integer box equals an earlier one's adds its
    /// categories to that one instead of standing alone.
    static func deduplicated(_ detections: [Detection]) -> [Detection] {
        var output: [Detection] = []
        output.reserveCapacity(detections.count)
        var positions: [BoundingBox: Int] = .init(minimumCapacity: detections.count)
        for detection in detections {
            if let position = positions[detection.boundingBox] {
                output[position].categories += detection.categories
            } else {
                positions[detection.boundingBox] = output.count
                output.append(detection)
            }
        }
        return output
    }

    /// `scale · (q − zeroPoint)` for every byte of a uint8 output.
    static func dequantize(_ raw: UnsafeRawBufferPointer, _ q: TensorDescription.Quantization) -> [Float] {
        raw.map { q.scale * Float(Int($0) - q.zeroPoint) }
    }
}
