/// One entry of `Model.operator_codes`: which operator an `Operator` with this opcode index runs.
public struct OperatorCode: Sendable, Hashable {
    /// The builtin operator: `max(deprecated_builtin_code, builtin_code)`, the schema's rule for files written
    /// before and after the code space was widened from `int8` to `int32`.
    public var builtin: BuiltinOperator
    /// The custom operator's name when `builtin` is `.custom`.
    public var customName: String?
    /// The operator version (schema default 1).
    public var version: Int32

    /// Creates the value from its fields.
    public init(builtin: BuiltinOperator, customName: String? = nil, version: Int32 = 1) {
        self.builtin = builtin
        self.customName = customName
        self.version = version
    }
}
