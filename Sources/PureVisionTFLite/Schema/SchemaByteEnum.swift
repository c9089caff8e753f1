/// A schema `byte` enum (FlatBuffers `enum X : byte`) whose codes 0, 1, 2 … name its cases in declaration order.
///
/// One reader serves every such enum of the model and metadata schemas: a code in `0..<byCode.count` is the case at
/// that position, any other code (negative, or newer than this reader) is kept by `unnamed(_:)`, so a file using it
/// still parses.
protocol SchemaByteEnum: Sendable {
    /// The named cases, in code order (code 0 first).
    static var byCode: [Self] { get }

    /// The value for a code this reader has no name for.
    static func unnamed(_ code: Int8) -> Self
}

extension SchemaByteEnum {
    /// The value of schema code `code`.
    init(schemaCode code: Int8) {
        self = code >= 0 && Int(code) < Self.byCode.count ? Self.byCode[Int(code)] : Self.unnamed(code)
    }
}
