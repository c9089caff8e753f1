import PureVisionTFLite

/// The labels of one classification head, from the model's metadata.
public struct ClassificationLabels: Sendable, Hashable {
    /// The head's output index.
    public var headIndex: Int
    /// The output tensor's metadata name, when there is metadata.
    public var headName: String?
    /// One name per class, from the head's first `TENSOR_AXIS_LABELS` file (whatever its locale); empty when the
    /// head has no labels.
    public var names: [String]
    /// One display name per class, from the first labels file whose locale is the requested one; nil when there is
    /// no such file.
    public var displayNames: [String]?

    /// Creates the value from its fields.
    public init(headIndex: Int, headName: String?, names: [String], displayNames: [String]?) {
        self.headIndex = headIndex
        self.headName = headName
        self.names = names
        self.displayNames = displayNames
    }

    /// Splits a labels file into lines as MediaPipe's label-map reader does: at `\n`, `\r\n` or `\r`, with one
    /// trailing empty line (a final line break) dropped.
    /// - Throws: `VisionTaskError.model` when the bytes are not UTF-8.
    public static func lines(of bytes: some Collection<UInt8>, file: String) throws(VisionTaskError) -> [String] {
        guard let text = String(validating: Array(bytes), as: UTF8.self) else {
            throw .model("labels file '\(file)' is not UTF-8")
        }
        var lines: [String] = []
        var current: [Unicode.Scalar] = []
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" {
                lines.append(String(String.UnicodeScalarView(current)))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(scalar)
            }
        }
        lines.append(String(String.UnicodeScalarView(current)))
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The labels of output `headIndex` as MediaPipe reads them from the output tensor's metadata.
    /// - Throws: `VisionTaskError.model` for a missing or unreadable associated file, or display names whose count
    ///   differs from the names'.
    static func read(
        model: TFLiteModel, tensor: TensorMetadata?, headIndex: Int, locale: String
    ) throws(VisionTaskError) -> ClassificationLabels {
        let files = tensor?.associatedFiles.filter { $0.type == .tensorAxisLabels } ?? []
        guard let namesFile = files.first, let namesName = namesFile.name else {
            return ClassificationLabels(headIndex: headIndex, headName: tensor?.name, names: [], displayNames: nil)
        }
        let names = try lines(of: try associatedFile(model, namesName), file: namesName)
        var displayNames: [String]?
        if let localized = files.first(where: { $0.locale == locale }), let name = localized.name {
            let values = try lines(of: try associatedFile(model, name), file: name)
            guard values.count == names.count else {
                throw .model(
                    "'\(name)' has \(values.count) display names for the \(names.count) labels of '\(namesName)'")
            }
            displayNames = values
        }
        return ClassificationLabels(
            headIndex: headIndex, headName: tensor?.name, names: names, displayNames: displayNames)
    }

    /// The bytes of an associated file named by the metadata.
    static func associatedFile(_ model: TFLiteModel, _ name: String) throws(VisionTaskError) -> ArraySlice<UInt8> {
        guard let archive = model.associatedFiles() else {
            throw .model("the metadata names '\(name)' but the model has no associated files")
        }
        do { return try archive.data(named: name) } catch { throw .model("associated file: \(error)") }
    }
}
