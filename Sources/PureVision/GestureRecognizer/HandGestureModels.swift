import PureVisionEngine
import PureVisionKernels
import PureVisionTFLite

/// The per-hand gesture stage, prepared once: the embedder, the optional custom classifier and the canned
/// classifier with their post-processing, and MediaPipe's rule for combining their answers.
///
/// Stateless per call (the interpreters lock themselves), so one instance serves every frame.
struct HandGestureModels: Sendable {
    /// One classifier model and its output's post-processing.
    struct Classifier: Sendable {
        let model: LoadedModel
        let head: ClassificationHead
    }

    let embedder: LoadedModel
    /// In MediaPipe's priority order: the custom classifier (when the bundle has one), then the canned one.
    let classifiers: [Classifier]
    /// The thread pool of each model.
    var pools: [ThreadPool] { [embedder.pool] + classifiers.map(\.model.pool) }
    let embeddingSize: Int

    /// MediaPipe's background label (`CombinedPredictionCalculator`): exact and case-sensitive, so the custom
    /// model's "none" is an ordinary gesture.
    static let backgroundLabel = "None"

    /// Loads the embedder and classifiers on `pool`, the task's thread pool.
    init(bundle: GestureRecognizerBundle, options: GestureRecognizerOptions, pool: ThreadPool?) throws(VisionTaskError)
    {
        let threads = options.baseOptions.threadCount
        let embedderName = GestureRecognizerBundle.embedderEntry
        do {
            embedder = try LoadedModel.load(bytes: bundle.embedder, threadCount: threads, pool: pool)
        } catch {
            throw .model("\(embedderName): \(error)")
        }
        let inputs = embedder.interpreter.inputs
        let expected = [[1, 21, 3], [1, 1], [1, 21, 3]]
        guard inputs.map(\.shape.dimensions) == expected, inputs.allSatisfy({ $0.elementType == .float32 }) else {
            throw .model(
                "\(embedderName) must take float32 inputs [1, 21, 3] (landmarks), [1, 1] (handedness) and "
                    + "[1, 21, 3] (world landmarks); it takes \(inputs.map(\.shape))")
        }
        guard embedder.interpreter.outputs.count == 1, let embedding = embedder.interpreter.outputs.first,
            embedding.elementType == .float32, embedding.shape.elementCount > 0
        else {
            throw .model("\(embedderName) must have one float32 output; it has \(embedder.interpreter.outputs)")
        }
        embeddingSize = embedding.shape.elementCount

        var classifiers: [Classifier] = []
        if let custom = bundle.customClassifier {
            classifiers.append(
                try Self.classifier(
                    custom, name: GestureRecognizerBundle.customClassifierEntry,
                    options: options.customGesturesClassifierOptions, embeddingSize: embeddingSize, threads: threads,
                    pool: pool))
        }
        classifiers.append(
            try Self.classifier(
                bundle.cannedClassifier, name: GestureRecognizerBundle.cannedClassifierEntry,
                options: options.cannedGesturesClassifierOptions, embeddingSize: embeddingSize, threads: threads,
                pool: pool))
        self.classifiers = classifiers
    }

    private static func classifier(
        _ bytes: [UInt8], name: String, options: GestureClassifierOptions, embeddingSize: Int, threads: Int,
        pool: ThreadPool?
    ) throws(VisionTaskError) -> Classifier {
        do throws(VisionTaskError) {
            let model = try LoadedModel.load(bytes: bytes, threadCount: threads, pool: pool)
            let interpreter = model.interpreter
            guard interpreter.inputs.count == 1, let input = interpreter.inputs.first, input.elementType == .float32,
                input.shape.elementCount == embeddingSize
            else {
                throw VisionTaskError.model(
                    "must take one float32 input of the embedder's \(embeddingSize) values; it takes "
                        + "\(interpreter.inputs.map(\.shape))")
            }
            guard interpreter.outputs.count == 1, let output = interpreter.outputs.first,
                output.elementType == .float32, output.shape.rank == 2, output.shape[0] == 1
            else {
                throw VisionTaskError.model(
                    "must have one float32 [1, classes] output; it has \(interpreter.outputs.map(\.shape))")
            }
            let metadata: ModelMetadata?
            do throws(ModelFormatError) {
                metadata = try model.model.modelMetadata()
            } catch {
                throw VisionTaskError.model("metadata: \(error)")
            }
            let head = try ClassificationHead.make(
                index: 0, output: output, model: model.model, metadata: metadata?.subgraphs.first,
                settings: options.settings)
            return Classifier(model: model, head: head)
        } catch {
            switch error {
            case .model(let message): throw .model("\(name): \(message)")
            case .invalidOption(let option, let reason):
                throw .invalidOption(name: option, reason: "\(name): \(reason)")
            default: throw error
            }
        }
    }

    /// The gesture of one hand, or nil when every classifier's filtering left nothing (MediaPipe then skips the
    /// hand). The category has index −1, the label as its name and no display name.
    ///
    /// - Parameters:
    ///   - rotation: the task's image rotation in radians (not the hand region's).
    func recognize(
        landmarks: [NormalizedLandmark], worldLandmarks: [Landmark], handedness: ResultCategory, imageWidth: Int,
        imageHeight: Int, rotation: Float
    ) throws(VisionTaskError) -> ResultCategory? {
        guard landmarks.count == 21, worldLandmarks.count == 21 else {
            throw .model("a hand has \(landmarks.count) landmarks and \(worldLandmarks.count) world landmarks, not 21")
        }
        guard let rightProbability = GestureEmbedderInput.handedness(handedness) else {
            throw .model(
                "handedness \(handedness.categoryName ?? "?") \(handedness.score) is not a Right / Left score ≥ 0.5")
        }
        let size = embeddingSize
        return try withTemporaryBuffer(of: Float.self, capacity: size) {
            embedding throws(VisionTaskError) -> ResultCategory? in
            guard let embeddingBase = embedding.baseAddress else { return nil }
            try embedder.interpreter.withSession { session throws(VisionTaskError) in
                guard let hand = session.floatInput(0).baseAddress, let handed = session.floatInput(1).baseAddress,
                    let world = session.floatInput(2).baseAddress
                else { throw .model("empty embedder input") }
                GestureEmbedderInput.imageLandmarks(
                    landmarks, imageWidth: imageWidth, imageHeight: imageHeight, rotation: rotation, into: hand)
                handed[0] = rightProbability
                GestureEmbedderInput.worldLandmarks(worldLandmarks, rotation: rotation, into: world)
                session.invoke()
                let output = session.floatOutput(0)
                guard let source = output.baseAddress, output.count == size else {
                    throw .model("embedder output has \(output.count) values, expected \(size)")
                }
                embeddingBase.update(from: source, count: size)
            }
            var firstBackground: ResultCategory?
            for classifier in classifiers {
                let categories = try classifier.model.interpreter.withSession {
                    session throws(VisionTaskError) -> [ResultCategory] in
                    guard let input = session.floatInput(0).baseAddress else { throw .model("empty classifier input") }
                    input.update(from: embeddingBase, count: size)
                    session.invoke()
                    return classifier.head.classify(floats: session.floatOutput(0), bytes: nil).categories
                }
                guard let winner = Self.argmax(categories) else { continue }
                if winner.categoryName != Self.backgroundLabel { return winner }
                if firstBackground == nil { firstBackground = winner }
            }
            return firstBackground
        }
    }

    /// `CombinedPredictionCalculator`'s argmax of one non-empty list: starts from an unlabelled score 0 and takes a
    /// category only when its score is strictly greater, so the first maximum wins and a list of scores ≤ 0 gives
    /// name "" with score 0. Nil for an empty list (skipped).
    static func argmax(_ categories: [ResultCategory]) -> ResultCategory? {
        guard !categories.isEmpty else { return nil }
        var best = ResultCategory(index: GestureRecognizerResult.gestureIndex, score: 0, categoryName: "")
        for category in categories where best.score < category.score {
            best = ResultCategory(
                index: GestureRecognizerResult.gestureIndex, score: category.score,
                categoryName: category.categoryName ?? "")
        }
        return best
    }
}
