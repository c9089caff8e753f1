import Foundation

/// Where the ML Kit layer finds the models ML Kit ships inside its SDK and PureVision reads from files.
enum ModelLocation {
    /// The path of `file` in `directory`, or, when `directory` is nil, in the first of: the directory named by the
    /// `PUREVISION_MODEL_DIRECTORY` environment variable, the main bundle's resources when they hold `file`, and
    /// `Models` under the current directory.
    static func path(of file: String, in directory: String?) -> String {
        ((directory ?? defaultDirectory(holding: file)) as NSString).appendingPathComponent(file)
    }

    /// The directory `path(of:in:)` looks in when given none.
    static func defaultDirectory(holding file: String) -> String {
        if let directory = ProcessInfo.processInfo.environment["PUREVISION_MODEL_DIRECTORY"], !directory.isEmpty {
            return directory
        }
        if let resources = Bundle.main.resourcePath,
            FileManager.default.fileExists(atPath: (resources as NSString).appendingPathComponent(file))
        {
            return resources
        }
        return "Models"
    }
}
