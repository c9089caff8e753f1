import Foundation
import PureVisionCore
import PureVisionEngine

/// `purevision run MODEL --input IN.npy … --output-dir DIR [--threads N] [--reference]
/// [--quantized-arithmetic litert|xnnpack]`
enum RunCommand {
    static let subcommand = Subcommand(
        name: "run", operands: "MODEL",
        summary: "Run a .tflite model on .npy inputs; writes DIR/output_0.npy, output_1.npy, ... (float32 outputs as "
            + "float32, little-endian, in the model's output shapes).",
        options: [
            .value("--input", "IN.npy", "the model's next input (once per input, in order)"),
            .value("--output-dir", "DIR", "where the outputs are written"),
            .value("--threads", "N", "threads, 1 to 256 (default 1)"),
            .flag("--reference", "the scalar reference kernels instead of the optimized ones"),
            .value("--quantized-arithmetic", "litert|xnnpack", "whose int8 rounding to follow (default litert)"),
        ],
        readsImages: false, run: run)

    static func run(_ arguments: [String]) throws {
        let parsed = try ParsedArguments(arguments, options: subcommand.options)
        guard parsed.positional.count == 1 else {
            throw CommandLineError.usage("run takes exactly one MODEL, got \(parsed.positional.count)")
        }
        guard let outputDirectory = try parsed.single("--output-dir") else {
            throw CommandLineError.usage("run needs --output-dir DIR")
        }
        var threads = 1
        if let text = try parsed.single("--threads") {
            guard let value = Int(text), value >= 1, value <= 256 else {
                throw CommandLineError.usage("--threads must be an integer from 1 to 256, got '\(text)'")
            }
            threads = value
        }
        var options = InterpreterOptions(
            threadCount: threads, kernelMode: parsed.flags.contains("--reference") ? .reference : .optimized)
        switch try parsed.single("--quantized-arithmetic") {
        case nil, "litert": options.quantizedArithmetic = .liteRT
        case "xnnpack": options.quantizedArithmetic = .xnnpack
        case let other?:
            throw CommandLineError.usage("--quantized-arithmetic is litert or xnnpack, got '\(other)'")
        }
        let interpreter = try Interpreter(bytes: readFile(parsed.positional[0]), options: options)

        let inputPaths = parsed.values["--input"] ?? []
        guard inputPaths.count == interpreter.inputs.count else {
            throw CommandLineError.usage(
                "the model has \(interpreter.inputs.count) input(s) "
                    + interpreter.inputs.map { "'\($0.name)' \($0.elementType) \($0.shape)" }.joined(separator: ", ")
                    + "; got \(inputPaths.count) --input")
        }
        var inputs: [Tensor] = []
        for (path, description) in zip(inputPaths, interpreter.inputs) {
            let tensor: Tensor
            do {
                tensor = try NumpyFile.decode(readFile(path))
            } catch let error as NumpyFileError {
                throw CommandLineError.file("'\(path)': \(error)")
            }
            inputs.append(try conform(tensor, to: description, path: path))
        }
        let outputs = try interpreter.run(inputs)
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        for (index, output) in outputs.enumerated() {
            let path = (outputDirectory as NSString).appendingPathComponent("output_\(index).npy")
            guard FileManager.default.createFile(atPath: path, contents: Data(NumpyFile.encode(output))) else {
                throw CommandLineError.file("cannot write '\(path)'")
            }
        }
    }

    /// Checks an input against the model's tensor. A float64 array for a float32 input is narrowed (NumPy's
    /// default dtype); any other type difference, or a different element count, is an error.
    static func conform(_ tensor: Tensor, to description: TensorDescription, path: String) throws -> Tensor {
        guard tensor.shape.elementCount == description.shape.elementCount else {
            throw CommandLineError.file(
                "'\(path)' has shape \(tensor.shape); input '\(description.name)' needs \(description.shape)")
        }
        if tensor.elementType == description.elementType {
            return try Tensor(shape: description.shape, elementType: tensor.elementType, bytes: tensor.bytes)
        }
        if description.elementType == .float32, tensor.elementType == .float64 || tensor.elementType == .float16 {
            return try Tensor(shape: description.shape, floats: tensor.floats)
        }
        throw CommandLineError.file(
            "'\(path)' holds \(tensor.elementType); input '\(description.name)' is \(description.elementType)")
    }
}
