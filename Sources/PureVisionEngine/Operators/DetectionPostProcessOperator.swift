import PureVisionCore
import PureVisionTFLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `TFLite_Detection_PostProcess` custom operator (the TF Object Detection API's SSD export), with the semantics
/// of TFLite's `kernels/detection_postprocess.cc`.
///
/// Inputs: box encodings [1, N, ≥4] as (y, x, h, w), class scores [1, N, C or C + 1] (an extra first column is the
/// background and is skipped), anchors [N, 4] as (y, x, h, w); float32, or uint8 (dequantized). Options (a
/// FlexBuffers map): `max_detections`, `max_classes_per_detection`, `detections_per_class` (default 100),
/// `use_regular_nms` (default false), `nms_score_threshold`, `nms_iou_threshold`, `num_classes`, `y_scale`,
/// `x_scale`, `h_scale`, `w_scale`. Outputs, M = max_detections · max_classes_per_detection: boxes [1, M, 4] as
/// (ymin, xmin, ymax, xmax), classes [1, M] (background excluded), scores [1, M], the count [1], all float32.
///
/// Decoding is done in double and rounded to float, as TFLite does. Fast NMS keeps each box's top
/// `max_classes_per_detection` classes and suppresses on the best one; regular NMS suppresses per class (up to
/// `detections_per_class`) and keeps the best `max_detections` overall. Scores are sorted by a stable descending
/// sort; the final regular-NMS selection and the per-box class order use a stable order too, where TFLite's
/// `std::partial_sort` leaves equal scores in an unspecified order.
enum DetectionPostProcessOperator: OperatorLowering {
    static let customName = "TFLite_Detection_PostProcess"

    static func lower(_ context: inout LoweringContext) throws(InterpreterError) -> LoweredOperator {
        try context.expectArity(inputs: 3...3, outputs: 4)
        let options: DetectionPostProcess.Options
        do {
            let map = try FlexBufferMap(bytes: context.op.customOptions ?? [])
            options = try DetectionPostProcess.Options(map)
        } catch let error as DetectionPostProcess.OptionError {
            throw context.failure(error.message)
        } catch {
            throw context.failure("\(error)")
        }
        let boxes = try context.input(0)
        let scores = try context.input(1)
        let anchors = try context.input(2)
        try context.expectRank(boxes, 3, "box encodings")
        try context.expectRank(scores, 3, "class scores")
        try context.expectRank(anchors, 2, "anchors")
        let count = boxes.shape[1]
        let coordinates = boxes.shape[2]
        let columns = scores.shape[2]
        guard boxes.shape[0] == 1, scores.shape[0] == 1, scores.shape[1] == count, coordinates >= 4,
            anchors.shape == [count, 4]
        else {
            throw context.failure(
                "box encodings \(boxes.shape), class scores \(scores.shape) and anchors \(anchors.shape) must be "
                    + "[1, N, ≥4], [1, N, C], [N, 4]")
        }
        guard columns == options.numClasses || columns == options.numClasses + 1 else {
            throw context.failure("class scores have \(columns) columns for num_classes \(options.numClasses)")
        }
        func reader(_ tensor: GraphTensor, _ role: String) throws(InterpreterError) -> DetectionPostProcess.Input {
            switch tensor.elementType {
            case .float32: return .float
            case .uint8:
                let q = try context.quantization(tensor, role)
                return .uint8(scale: q.scale, zeroPoint: Float(q.zeroPoint))
            default:
                throw .unsupportedTensorType(
                    tensorIndex: tensor.index, tensorName: tensor.name, type: tensor.elementType.rawValue,
                    context: "\(role) of operator \(context.operatorIndex) (\(customName)) must be float32 or uint8")
            }
        }
        let boxKind = try reader(boxes, "box encodings")
        let scoreKind = try reader(scores, "class scores")
        let anchorKind = try reader(anchors, "anchors")
        if case .float = boxKind, case .uint8 = anchorKind {
            throw context.failure("float box encodings need float anchors")
        }
        let outputCount = options.maxDetections * options.maxClassesPerDetection
        try context.setOutput(0, shape: [1, outputCount, 4])
        try context.setOutput(1, shape: [1, outputCount])
        try context.setOutput(2, shape: [1, outputCount])
        try context.setOutput(3, shape: [1])
        let outputs = (0..<4).map { context.output($0).index }
        let shape = DetectionPostProcess.Shape(
            boxCount: count, coordinates: coordinates, scoreColumns: columns)
        let reference = context.useReference
        return context.lowered(reading: [boxes, scores, anchors]) { binder in
            let inputs = DetectionPostProcess.Inputs(
                boxes: UnsafeRawPointer(binder.raw(boxes)), boxKind: boxKind,
                scores: UnsafeRawPointer(binder.raw(scores)), scoreKind: scoreKind,
                anchors: UnsafeRawPointer(binder.raw(anchors)), anchorKind: anchorKind)
            let out = DetectionPostProcess.Outputs(
                boxes: binder.floats(outputs[0]), classes: binder.floats(outputs[1]),
                scores: binder.floats(outputs[2]), count: binder.floats(outputs[3]))
            return {
                if reference {
                    DetectionPostProcess.runReference(inputs, shape: shape, options: options, outputs: out)
                } else {
                    DetectionPostProcess.run(inputs, shape: shape, options: options, outputs: out)
                }
            }
        }
    }
}

/// The computation of `TFLite_Detection_PostProcess`: `runReference` transcribes TFLite's kernel step by step
/// (decode every box, then suppress); `run` decodes only the boxes that can be selected (a score at or above
/// `nms_score_threshold`), with identical results.
enum DetectionPostProcess {
    struct OptionError: Error {
        let message: String
    }

    struct Options: Sendable {
        var maxDetections: Int
        var maxClassesPerDetection: Int
        var detectionsPerClass: Int
        var useRegularNMS: Bool
        var scoreThreshold: Float
        var iouThreshold: Float
        var numClasses: Int
        var scales: (y: Float, x: Float, h: Float, w: Float)

        init(_ map: FlexBufferMap) throws(OptionError) {
            func required<T>(_ value: T?, _ key: String) throws(OptionError) -> T {
                guard let value else { throw OptionError(message: "custom option '\(key)' is missing") }
                return value
            }
            maxDetections = try required(map.int("max_detections"), "max_detections")
            maxClassesPerDetection = try required(map.int("max_classes_per_detection"), "max_classes_per_detection")
            detectionsPerClass = map.int("detections_per_class") ?? 100
            useRegularNMS = map.bool("use_regular_nms") ?? false
            scoreThreshold = try required(map.float("nms_score_threshold"), "nms_score_threshold")
            iouThreshold = try required(map.float("nms_iou_threshold"), "nms_iou_threshold")
            numClasses = try required(map.int("num_classes"), "num_classes")
            scales = (
                try required(map.float("y_scale"), "y_scale"), try required(map.float("x_scale"), "x_scale"),
                try required(map.float("h_scale"), "h_scale"), try required(map.float("w_scale"), "w_scale")
            )
            guard maxDetections >= 0, maxDetections <= 1 << 16, maxClassesPerDetection > 0,
                maxClassesPerDetection <= 1 << 10, numClasses > 0, detectionsPerClass > 0
            else {
                throw OptionError(
                    message: "max_detections \(maxDetections), max_classes_per_detection \(maxClassesPerDetection), "
                        + "num_classes \(numClasses), detections_per_class \(detectionsPerClass) out of range")
            }
            guard iouThreshold > 0, iouThreshold <= 1 else {
                throw OptionError(message: "nms_iou_threshold \(iouThreshold) must be in (0, 1]")
            }
        }
    }

    enum Input: Sendable {
        case float
        case uint8(scale: Float, zeroPoint: Float)
    }

    struct Shape: Sendable {
        let boxCount: Int
        let coordinates: Int
        let scoreColumns: Int
    }

    struct Inputs: @unchecked Sendable {
        let boxes: UnsafeRawPointer
        let boxKind: Input
        let scores: UnsafeRawPointer
        let scoreKind: Input
        let anchors: UnsafeRawPointer
        let anchorKind: Input
    }

    struct Outputs: @unchecked Sendable {
        let boxes: UnsafeMutablePointer<Float>
        let classes: UnsafeMutablePointer<Float>
        let scores: UnsafeMutablePointer<Float>
        let count: UnsafeMutablePointer<Float>
    }

    /// A box as (ymin, xmin, ymax, xmax).
    struct Corners {
        var ymin: Float, xmin: Float, ymax: Float, xmax: Float
    }

    static func value(_ base: UnsafeRawPointer, _ kind: Input, _ index: Int) -> Float {
        switch kind {
        case .float: return base.load(fromByteOffset: 4 * index, as: Float.self)
        case .uint8(let scale, let zeroPoint):
            return (Float(base.load(fromByteOffset: index, as: UInt8.self)) - zeroPoint) * scale
        }
    }

    /// TFLite's decoding of box `i` against its anchor, in double.
    static func decode(_ inputs: Inputs, shape: Shape, options: Options, box i: Int) -> Corners {
        let row = i * shape.coordinates
        let (y, x, h, w) = (
            Double(value(inputs.boxes, inputs.boxKind, row)), Double(value(inputs.boxes, inputs.boxKind, row + 1)),
            Double(value(inputs.boxes, inputs.boxKind, row + 2)), Double(value(inputs.boxes, inputs.boxKind, row + 3))
        )
        let (ay, ax, ah, aw) = (
            Double(value(inputs.anchors, inputs.anchorKind, 4 * i)),
            Double(value(inputs.anchors, inputs.anchorKind, 4 * i + 1)),
            Double(value(inputs.anchors, inputs.anchorKind, 4 * i + 2)),
            Double(value(inputs.anchors, inputs.anchorKind, 4 * i + 3))
        )
        let s = options.scales
        let yCenter = Float(y / Double(s.y) * ah + ay)
        let xCenter = Float(x / Double(s.x) * aw + ax)
        let halfH = Float(0.5 * exp(h / Double(s.h)) * ah)
        let halfW = Float(0.5 * exp(w / Double(s.w)) * aw)
        return Corners(ymin: yCenter - halfH, xmin: xCenter - halfW, ymax: yCenter + halfH, xmax: xCenter + halfW)
    }

    /// TFLite's `ComputeIntersectionOverUnion`.
    static func iou(_ a: Corners, _ b: Corners) -> Float {
        let areaA = (a.ymax - a.ymin) * (a.xmax - a.xmin)
        let areaB = (b.ymax - b.ymin) * (b.xmax - b.xmin)
        if areaA <= 0 || areaB <= 0 { return 0 }
        let h = max(min(a.ymax, b.ymax) - max(a.ymin, b.ymin), 0)
        let w = max(min(a.xmax, b.xmax) - max(a.xmin, b.xmin), 0)
        let intersection = h * w
        return intersection / (areaA + areaB - intersection)
    }

    /// TFLite's `NonMaxSuppressionSingleClassHelper`: the indices of the kept boxes, best first.
    static func suppress(
        scores: [Float], boxes: (Int) -> Corners, options: Options, limit: Int
    ) -> [Int] {
        var kept: [(score: Float, index: Int)] = []
        for (i, s) in scores.enumerated() where s >= options.scoreThreshold { kept.append((s, i)) }
        // A stable descending sort (std::stable_sort with `>`).
        let order = kept.indices.sorted { a, b in
            kept[a].score > kept[b].score || (kept[a].score == kept[b].score && a < b)
        }
        let sorted = order.map { kept[$0].index }
        var active = [Bool](repeating: true, count: sorted.count)
        var selected: [Int] = []
        let outputSize = min(sorted.count, limit)
        var corners: [Corners?] = Array(repeating: nil, count: sorted.count)
        func box(_ k: Int) -> Corners {
            if let c = corners[k] { return c }
            let c = boxes(sorted[k])
            corners[k] = c
            return c
        }
        var remaining = sorted.count
        for i in 0..<sorted.count {
            if remaining == 0 || selected.count >= outputSize { break }
            guard active[i] else { continue }
            selected.append(sorted[i])
            active[i] = false
            remaining -= 1
            for j in (i + 1)..<max(i + 1, sorted.count) where active[j] {
                if iou(box(i), box(j)) > options.iouThreshold {
                    active[j] = false
                    remaining -= 1
                }
            }
        }
        return selected
    }

    /// The score of box `row`, class `column` (background already skipped).
    static func score(_ inputs: Inputs, shape: Shape, options: Options, row: Int, column: Int) -> Float {
        value(
            inputs.scores, inputs.scoreKind,
            row * shape.scoreColumns + (shape.scoreColumns - options.numClasses) + column)
    }

    /// The classes of one box, best first (the first `k`); equal scores keep class order.
    static func topClasses(_ inputs: Inputs, shape: Shape, options: Options, row: Int, k: Int) -> [Int] {
        if k == 1 {
            var best = 0
            var bestScore = score(inputs, shape: shape, options: options, row: row, column: 0)
            for c in 1..<max(1, options.numClasses) {
                let s = score(inputs, shape: shape, options: options, row: row, column: c)
                if s > bestScore {
                    best = c
                    bestScore = s
                }
            }
            return [best]
        }
        let values = (0..<options.numClasses).map {
            score(inputs, shape: shape, options: options, row: row, column: $0)
        }
        return Array(
            values.indices.sorted { values[$0] > values[$1] || (values[$0] == values[$1] && $0 < $1) }.prefix(k))
    }

    static func runReference(_ inputs: Inputs, shape: Shape, options: Options, outputs: Outputs) {
        let decoded = (0..<shape.boxCount).map { decode(inputs, shape: shape, options: options, box: $0) }
        execute(inputs, shape: shape, options: options, outputs: outputs, boxes: { decoded[$0] })
    }

    static func run(_ inputs: Inputs, shape: Shape, options: Options, outputs: Outputs) {
        execute(inputs, shape: shape, options: options, outputs: outputs) {
            decode(inputs, shape: shape, options: options, box: $0)
        }
    }

    private static func execute(
        _ inputs: Inputs, shape: Shape, options: Options, outputs: Outputs, boxes: (Int) -> Corners
    ) {
        let slots = options.maxDetections * options.maxClassesPerDetection
        for i in 0..<slots {
            outputs.boxes[4 * i] = 0
            outputs.boxes[4 * i + 1] = 0
            outputs.boxes[4 * i + 2] = 0
            outputs.boxes[4 * i + 3] = 0
            outputs.classes[i] = 0
            outputs.scores[i] = 0
        }
        func write(slot: Int, box: Int, column: Int, score: Float) {
            let c = boxes(box)
            outputs.boxes[4 * slot] = c.ymin
            outputs.boxes[4 * slot + 1] = c.xmin
            outputs.boxes[4 * slot + 2] = c.ymax
            outputs.boxes[4 * slot + 3] = c.xmax
            outputs.classes[slot] = Float(column)
            outputs.scores[slot] = score
        }
        if options.useRegularNMS {
            var candidates: [(score: Float, box: Int, column: Int)] = []
            for column in 0..<options.numClasses {
                let classScores = (0..<shape.boxCount).map {
                    score(inputs, shape: shape, options: options, row: $0, column: column)
                }
                let selected = suppress(
                    scores: classScores, boxes: boxes, options: options, limit: options.detectionsPerClass)
                candidates += selected.map { (classScores[$0], $0, column) }
                let order = candidates.indices.sorted { a, b in
                    candidates[a].score > candidates[b].score || (candidates[a].score == candidates[b].score && a < b)
                }
                candidates = order.prefix(options.maxDetections).map { candidates[$0] }
            }
            for (slot, candidate) in candidates.enumerated() {
                write(slot: slot, box: candidate.box, column: candidate.column, score: candidate.score)
            }
            outputs.count[0] = Float(candidates.count)
            return
        }
        let k = min(options.maxClassesPerDetection, options.numClasses)
        var classes: [[Int]] = []
        classes.reserveCapacity(shape.boxCount)
        var best: [Float] = []
        best.reserveCapacity(shape.boxCount)
        for row in 0..<shape.boxCount {
            let top = topClasses(inputs, shape: shape, options: options, row: row, k: k)
            classes.append(top)
            best.append(score(inputs, shape: shape, options: options, row: row, column: top[0]))
        }
        let selected = suppress(scores: best, boxes: boxes, options: options, limit: options.maxDetections)
        for (n, box) in selected.enumerated() {
            for (col, column) in classes[box].enumerated() {
                write(
                    slot: options.maxClassesPerDetection * n + col, box: box, column: column,
                    score: score(inputs, shape: shape, options: options, row: box, column: column))
            }
        }
        outputs.count[0] = Float(selected.count)
    }
}
