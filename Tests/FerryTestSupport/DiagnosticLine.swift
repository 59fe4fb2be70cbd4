import Foundation

// MARK: - Diagnostics

/// One compiler-style line from standard error:
/// `path:line:col: error: message (record N, field 'f') [code]`.
public struct DiagnosticLine: Sendable, Equatable {
    /// The path, or nil for problems of the command line itself.
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var severity: String
    public var code: String
    /// The 1-based record number and the field, from the message's parenthesis.
    public var record: Int?
    public var field: String?

    public init?(_ text: String) {
        let pattern =
            #/^(?:(?<file>.+?)(?::(?<line>\d+):(?<column>\d+))?: )?(?<severity>error|warning): .*?(?:\(record (?<record>\d+)(?:, field '(?<field>[^']*)')?\) )?\[(?<code>[A-Za-z0-9.]+)\]$/#
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        file = match.file.map(String.init)
        line = match.line.flatMap { Int($0) }
        column = match.column.flatMap { Int($0) }
        severity = String(match.severity)
        code = String(match.code)
        record = match.record.flatMap { Int($0) }
        field = match.field.map(String.init)
    }
}
