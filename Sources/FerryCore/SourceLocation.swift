/// Where something happened: in which file, at which byte, line and column,
/// in which record and field. Every part is optional; a message shows what is
/// known.
public struct SourceLocation: Sendable, Hashable {
    /// The path as the user gave it, or `-` for standard input.
    public var file: String?
    /// The 0-based offset of the byte in the (decompressed) input.
    public var byteOffset: Int?
    /// 1-based line.
    public var line: Int?
    /// 1-based column, counted in Unicode scalars from the line start.
    public var column: Int?
    /// 0-based record index; shown 1-based.
    public var record: Int?
    public var field: String?

    public init(
        file: String? = nil, byteOffset: Int? = nil, line: Int? = nil, column: Int? = nil,
        record: Int? = nil, field: String? = nil
    ) {
        self.file = file
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
        self.record = record
        self.field = field
    }

    /// A location that knows nothing.
    public static let unknown = SourceLocation()

    /// This location with the gaps filled from `other`.
    public func filling(from other: SourceLocation) -> SourceLocation {
        SourceLocation(
            file: file ?? other.file, byteOffset: byteOffset ?? other.byteOffset,
            line: line ?? other.line, column: column ?? other.column,
            record: record ?? other.record, field: field ?? other.field)
    }
}
