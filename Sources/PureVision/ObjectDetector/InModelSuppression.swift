import PureVisionEngine
import PureVisionTFLite

/// The post-processing of a detector whose model ends in `TFLite_Detection_PostProcess` (four outputs: boxes,
/// classes, scores, count), as MediaPipe 0.10.14's TensorsToDetectionsCalculator reads them: no anchors and no
/// suppression outside the model.
///
/// From the metadata: the outputs by name ("location", "category", "score", "number of detections"; positions
/// 0…3 when a name is missing), the location tensor's `BoundingBoxProperties` (its `index` gives where xmin, ymin,
/// xmax, ymax sit among the four values; default 0, 1, 2, 3), and the labels (the category tensor's first
/// `TENSOR_VALUE_LABELS` file). From the model: `max_classes_per_detection` of its `TFLite_Detection_PostProcess`
/// operator (default 1): each detection spans that many consecutive slots, one class each. Per frame, for the first
/// `count` detections: the classes allowed by the lists and scoring at least `scoreThreshold` are kept (a detection
/// with none is dropped), then boxes with a negative or NaN size; at most `maxResults` detections.
struct InModelSuppression: Sendable {
    let locationOutput: Int
    let categoryOutput: Int
    let scoreOutput: Int
    let countOutput: Int
    /// Positions of xmin, ymin, xmax, ymax among a box's four values.
    let boxIndices: [Int]
    let classesPerDetection: Int
    let slots: Int
    let scoreThreshold: Float
    let maxResults: Int
    let allowed: Set<Int>
    let ignored: Set<Int>

    /// One decoded detection: a relative box and its (class, score) pairs.
    struct Candidate {
        var box: NormalizedDetection
        var categories: [(classID: Int, score: Float)]
    }

    init(
        model: TFLiteModel, interpreter: Interpreter, subgraph: SubGraphMetadata, options: ObjectDetectorOptions,
        listed: (TensorMetadata) throws(VisionTaskError) -> Set<Int>
    ) throws(VisionTaskError) {
        let outputs = interpreter.outputs
        let mapping = try ObjectDetectionPipeline.outputPositions(
            named: ["location", "category", "score", "number of detections"], in: subgraph)
        (locationOutput, categoryOutput, scoreOutput, countOutput) = (mapping[0], mapping[1], mapping[2], mapping[3])
        let box = try ObjectDetectionPipeline.boundingBoxProperties(subgraph.outputTensors[locationOutput])
        boxIndices = box.index.isEmpty ? [0, 1, 2, 3] : box.index.map { Int($0) }
        guard boxIndices.allSatisfy({ (0..<4).contains($0) }) else {
            throw .model("BoundingBoxProperties index \(boxIndices) must name positions 0…3")
        }
        let list = try listed(subgraph.outputTensors[categoryOutput])
        if options.categoryAllowlist.isEmpty {
            (allowed, ignored) = ([], list)
        } else {
            (allowed, ignored) = (list, [])
        }
        if subgraph.outputTensors[scoreOutput].processUnits.contains(where: {
            if case .scoreCalibration = $0 { return true } else { return false }
        }) {
            throw .model("score calibration on a model with in-model suppression is not supported")
        }
        var perDetection = 1
        if let subgraphModel = model.subgraphs.first {
            for op in subgraphModel.operators
            where model.operatorCode(of: op).customName == "TFLite_Detection_PostProcess" {
                do {
                    let map = try FlexBufferMap(bytes: op.customOptions ?? [])
                    perDetection = map.int("max_classes_per_detection") ?? 1
                } catch {
                    throw .model("TFLite_Detection_PostProcess options: \(error)")
                }
            }
        }
        guard perDetection >= 1 else { throw .model("max_classes_per_detection \(perDetection) must be ≥ 1") }
        classesPerDetection = perDetection
        let (l, c, s, n) = (
            outputs[locationOutput], outputs[categoryOutput], outputs[scoreOutput], outputs[countOutput]
        )
        let slots = l.shape.rank == 3 ? l.shape[1] : -1
        guard l.shape.dimensions == [1, slots, 4], c.shape.dimensions == [1, slots], s.shape.dimensions == [1, slots],
            n.shape.dimensions == [1], [l, c, s, n].allSatisfy({ $0.elementType == .float32 })
        else {
            throw .model(
                "in-model suppression outputs must be float32 [1, M, 4], [1, M], [1, M], [1]; this model has "
                    + "\(l.shape), \(c.shape), \(s.shape), \(n.shape)")
        }
        self.slots = slots
        scoreThreshold = options.scoreThreshold
        maxResults = options.maxResults
    }

    /// The detections of one inference, in output order.
    func decode(_ session: borrowing Interpreter.Session) -> [Candidate] {
        let boxes = session.floatOutput(locationOutput)
        let classes = session.floatOutput(categoryOutput)
        let scores = session.floatOutput(scoreOutput)
        let reported = session.floatOutput(countOutput).first ?? 0
        // The count comes from the model: clamp it to the slots that exist.
        let count = reported.isFinite ? max(0, min(Int(reported), slots / classesPerDetection)) : 0
        var result: [Candidate] = []
        var i = 0
        while i < count * classesPerDetection {
            defer { i += classesPerDetection }
            if maxResults > 0 && result.count == maxResults { break }
            var categories: [(classID: Int, score: Float)] = []
            for k in i..<(i + classesPerDetection) {
                let raw = classes[k]
                let id = raw.isFinite && abs(raw) < 1e9 ? Int(raw) : -1
                if !allowed.isEmpty ? !allowed.contains(id) : ignored.contains(id) { continue }
                if scores[k] < scoreThreshold { continue }
                categories.append((id, scores[k]))
            }
            if categories.isEmpty { continue }
            let (xmin, ymin, xmax, ymax) = (
                boxes[4 * i + boxIndices[0]], boxes[4 * i + boxIndices[1]], boxes[4 * i + boxIndices[2]],
                boxes[4 * i + boxIndices[3]]
            )
            let width = xmax - xmin
            let height = ymax - ymin
            if width < 0 || height < 0 || width.isNaN || height.isNaN { continue }
            result.append(
                Candidate(
                    box: NormalizedDetection(
                        score: categories[0].score, classID: categories[0].classID, xMin: xmin, yMin: ymin,
                        width: width, height: height),
                    categories: categories))
        }
        return result
    }
}
