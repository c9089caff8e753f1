/// A file named by model metadata; its bytes live in the ZIP appended to the model.
public struct AssociatedFile: Sendable, Hashable {
    /// The file name inside the appended ZIP, e.g. `"labels.txt"`.
    public var name: String?
    /// A human-readable description, when recorded.
    public var description: String?
    /// What the file holds.
    public var type: AssociatedFileType
    /// The language of the file's contents, when recorded.
    public var locale: String?
    /// The version of the file's contents, when recorded.
    public var version: String?

    /// Creates the value from its fields.
    public init(
        name: String?, description: String? = nil, type: AssociatedFileType, locale: String? = nil,
        version: String? = nil
    ) {
        self.name = name
        self.description = description
        self.type = type
        self.locale = locale
        self.version = version
    }

    /// The `[AssociatedFile]` vector in field `id` of `table` (empty when absent).
    static func list(_ table: FlatTable, _ id: Int) throws(ModelFormatError) -> [AssociatedFile] {
        var result: [AssociatedFile] = []
        for file in try table.tables(id, what: "associated_files") {
            result.append(
                AssociatedFile(
                    name: try file.string(0, what: "AssociatedFile.name"),
                    description: try file.string(1, what: "AssociatedFile.description"),
                    type: try file.enumeration(2, what: "AssociatedFile.type"),
                    locale: try file.string(3, what: "AssociatedFile.locale"),
                    version: try file.string(4, what: "AssociatedFile.version")))
        }
        return result
    }
}

/// What an associated file holds (metadata `AssociatedFileType`).
public enum AssociatedFileType: Sendable, Hashable, SchemaByteEnum {
    case unknown
    case descriptions
    /// One label per line, for each index of a tensor axis.
    case tensorAxisLabels
    /// One label per line, for each value of a tensor.
    case tensorValueLabels
    case tensorAxisScoreCalibration
    case vocabulary
    case scannIndexFile
    /// A code this reader has no name for.
    case other(Int8)

    static let byCode: [AssociatedFileType] = [
        .unknown, .descriptions, .tensorAxisLabels, .tensorValueLabels, .tensorAxisScoreCalibration, .vocabulary,
        .scannIndexFile,
    ]

    static func unnamed(_ code: Int8) -> AssociatedFileType { .other(code) }

    /// Creates the type for a schema code.
    public init(rawValue: Int8) { self.init(schemaCode: rawValue) }
}
