import Foundation
import PureVisionTFLite

/// A head's score calibration from metadata (`ScoreCalibrationOptions` plus a `TENSOR_AXIS_SCORE_CALIBRATION`
/// file), applied as MediaPipe's `ScoreCalibrationCalculator` does.
///
/// The file has one line per class, `scale,slope,offset[,min_score]`; it is split at every `\n`, so a final line
/// break makes one more (empty) line. An empty line, or a score below the line's `min_score`, gives
/// `defaultScore`; otherwise the score becomes `scale · sigmoid(slope · T(score) + offset)`, clamped to
/// [0, scale], with T the identity, `log` or the inverse logistic `log x − log(1 − x)`. Logarithms are clamped: below
/// 1e-16, `log x` is replaced by `2·log(1e-16) − log(2e-16 − x)`.
public struct ScoreCalibration: Sendable, Hashable {
    /// One class's parameters.
    public struct Sigmoid: Sendable, Hashable {
        /// Multiplies the sigmoid: `scale / (1 + exp(-(slope · f(x) + offset)))`.
        public var scale: Float
        /// The sigmoid's slope.
        public var slope: Float
        /// The sigmoid's offset.
        public var offset: Float
        /// Scores below this become the default score (absent: no floor).
        public var minScore: Float?
    }

    /// The transformation applied before the sigmoid.
    public var transformation: ScoreTransformation
    /// The score of classes with no parameters or below their minimum.
    public var defaultScore: Float
    /// One entry per class; nil for an empty line.
    public var sigmoids: [Sigmoid?]

    /// Parses a calibration file.
    /// - Throws: `VisionTaskError.model` for an empty file, a line without 3 or 4 numbers, or a negative scale.
    public init(
        transformation: ScoreTransformation, defaultScore: Float, file bytes: some Collection<UInt8>
    ) throws(VisionTaskError) {
        switch transformation {
        case .identity, .log, .inverseLogistic: break
        case .other(let code): throw .model("unknown score transformation \(code)")
        }
        guard !bytes.isEmpty, let text = String(validating: Array(bytes), as: UTF8.self) else {
            throw .model("the score calibration file is empty or not UTF-8")
        }
        var sigmoids: [Sigmoid?] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                sigmoids.append(nil)
                continue
            }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3 || fields.count == 4 else {
                throw .model("score calibration line '\(line)' needs 3 or 4 parameters, got \(fields.count)")
            }
            var values: [Float] = []
            for field in fields {
                guard let value = Float(field.trimmingCharacters(in: .whitespaces)) else {
                    throw .model("score calibration parameter '\(field)' is not a number")
                }
                values.append(value)
            }
            guard values[0] >= 0 else { throw .model("score calibration scale \(values[0]) must be positive") }
            sigmoids.append(
                Sigmoid(
                    scale: values[0], slope: values[1], offset: values[2], minScore: values.count == 4 ? values[3] : nil
                ))
        }
        self.transformation = transformation
        self.defaultScore = defaultScore
        self.sigmoids = sigmoids
    }

    /// The calibrated score of class `index`.
    public func calibrate(_ score: Float, index: Int) -> Float {
        guard sigmoids.indices.contains(index), let sigmoid = sigmoids[index] else { return defaultScore }
        if let minimum = sigmoid.minScore, score < minimum { return defaultScore }
        let transformed: Float
        switch transformation {
        case .identity, .other: transformed = score
        case .log: transformed = Self.clampedLog(score)
        case .inverseLogistic: transformed = Self.clampedLog(score) - Self.clampedLog(1 - score)
        }
        let logit = sigmoid.slope * transformed + sigmoid.offset
        let value = sigmoid.scale / (1 + expf(-logit))
        return min(max(value, 0), sigmoid.scale)
    }

    static let logMinimum: Float = 1e-16

    /// `log x`, continued below 1e-16 by its reflection so that the order of tiny scores is kept.
    static func clampedLog(_ x: Float) -> Float {
        let threshold = Double(logMinimum)
        if x < logMinimum { return Float(2 * log(threshold) - log(2 * threshold - Double(x))) }
        return Float(log(Double(x)))
    }
}
