import Foundation
import PureVisionEngine
import PureVisionKernels
import PureVisionTFLite

/// A model loaded for a task: the parsed file (for its metadata) and the prepared interpreter.
struct LoadedModel: Sendable {
    let model: TFLiteModel
    let interpreter: Interpreter

    /// The threads the model runs on.
    var pool: ThreadPool { interpreter.threadPool }

    /// Loads the model named by `baseOptions` (a path or the bytes of a `.tflite` file), running on `pool` when
    /// given (see ``load(bytes:threadCount:pool:)``).
    static func load(_ baseOptions: BaseOptions, pool: ThreadPool? = nil) throws(VisionTaskError) -> LoadedModel {
        try load(bytes: try bytes(of: baseOptions), threadCount: baseOptions.threadCount, pool: pool)
    }

    /// Loads a model from its bytes. 8-bit operators round as XNNPACK does, since MediaPipe runs its models on it
    /// (``InterpreterOptions/QuantizedArithmetic/xnnpack``); a model whose input is int8, which MediaPipe's tasks
    /// refuse, keeps the arithmetic of LiteRT's builtin kernels, which the engine reproduces for every operator.
    /// A task with several models passes them one `pool` of `threadCount` threads (see ``sharedPool(threadCount:)``).
    static func load(bytes: [UInt8], threadCount: Int, pool: ThreadPool? = nil) throws(VisionTaskError) -> LoadedModel {
        try OptionChecks.atLeastOne(threadCount, name: "threadCount")
        let model: TFLiteModel
        do { model = try TFLiteModel(bytes: bytes) } catch { throw .model("\(error)") }
        do {
            var options = InterpreterOptions(threadCount: threadCount)
            let inputTypes = model.subgraphs.first.map { graph in
                graph.inputs.compactMap { graph.tensors.indices.contains($0) ? graph.tensors[$0].type : nil }
            }
            options.quantizedArithmetic = inputTypes?.contains(.int8) == true ? .liteRT : .xnnpack
            let interpreter = try Interpreter(model: model, options: options, pool: pool)
            return LoadedModel(model: model, interpreter: interpreter)
        } catch {
            throw .model("\(error)")
        }
    }

    /// The pool a task's models share: they run one after another, so one set of `threadCount − 1` workers serves
    /// them all, as many threads as the caller asked for (a pool per model would leave the idle models' workers
    /// polling for work beside the busy one's). Nil for a thread count below 1, which `load` refuses.
    static func sharedPool(threadCount: Int) -> ThreadPool? {
        threadCount >= 1 ? ThreadPool(threadCount: threadCount) : nil
    }

    /// The bytes of the asset `baseOptions` names.
    static func bytes(of baseOptions: BaseOptions) throws(VisionTaskError) -> [UInt8] {
        if let path = baseOptions.modelAssetPath {
            do { return try readFileBytes(path) } catch { throw .model("\(error)") }
        }
        if let buffer = baseOptions.modelAssetBuffer { return buffer }
        throw .invalidOption(name: "baseOptions", reason: "set modelAssetPath or modelAssetBuffer")
    }

    /// The metadata's input normalization of the first input as one mean and std, or nil when it has none.
    func inputNormalization() throws(VisionTaskError) -> InputNormalization? {
        let metadata: ModelMetadata?
        do { metadata = try model.modelMetadata() } catch { throw .model("metadata: \(error)") }
        guard let subgraph = metadata?.subgraphs.first, let tensor = subgraph.inputTensors.first else { return nil }
        for unit in tensor.processUnits {
            guard case .normalization(let mean, let std) = unit else { continue }
            guard let m = mean.first, let s = std.first, s != 0 else {
                throw .model("input normalization metadata is empty or has a zero std")
            }
            guard mean.allSatisfy({ $0 == m }), std.allSatisfy({ $0 == s }) else {
                throw .model("per-channel input normalization with different values is not supported")
            }
            return InputNormalization(mean: m, std: s)
        }
        return nil
    }

    /// The float input range from the input tensor's metadata `NormalizationOptions` (`(0 − mean) / std` to
    /// `(255 − mean) / std`), as MediaPipe Tasks derives it; nil when the model has no such metadata.
    func inputRange() throws(VisionTaskError) -> (min: Float, max: Float)? {
        guard let normalization = try inputNormalization() else { return nil }
        return ((0 - normalization.mean) / normalization.std, (255 - normalization.mean) / normalization.std)
    }
}
