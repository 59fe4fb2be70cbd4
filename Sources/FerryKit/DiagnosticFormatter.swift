/// Renders errors and warnings compiler-style, so editors and CI can jump to
/// the place: `products.json:12:7: error: message (record 3, field "price") [code]`.
///
/// Every word comes from the catalog, `error` and `warning` too. The numbers
/// programs read are never grouped: line and column, the byte offset and the
/// record number (`diagnostic.record`) are plain digits in every language.
public struct DiagnosticFormatter: Sendable {
    public let catalog: MessageCatalog

    public init(catalog: MessageCatalog) { self.catalog = catalog }

    public func render(_ error: FerryError) -> String {
        line(.diagnosticError, code: error.code, arguments: error.arguments, location: error.location)
    }

    public func render(_ warning: FerryWarning) -> String {
        line(.diagnosticWarning, code: warning.code, arguments: warning.arguments, location: warning.location)
    }

    public func render(_ diagnostic: Diagnostic) -> String {
        line(
            diagnostic.severity == .error ? .diagnosticError : .diagnosticWarning, code: diagnostic.code,
            arguments: diagnostic.arguments, location: diagnostic.location)
    }

    /// The message text alone, without location or code.
    public func message(_ error: FerryError) -> String { catalog.message(error.code, error.arguments) }

    /// The message text of a diagnostic alone, without location or code.
    public func message(_ diagnostic: Diagnostic) -> String {
        catalog.message(diagnostic.code, diagnostic.arguments)
    }

    /// - Parameter severity: `.diagnosticError` or `.diagnosticWarning`.
    private func line(
        _ severity: MessageKey, code: FerryError.Code, arguments: [MessageArgument], location: SourceLocation
    ) -> String {
        var text = ""
        if let file = location.fileAndCell {
            text = file
            if let line = location.line {
                text += ":\(line)"
                if let column = location.column { text += ":\(column)" }
            }
            text += ": "
        }
        text += catalog.message(severity) + ": " + catalog.message(code, arguments)
        var context: [String] = []
        if location.line == nil, let offset = location.byteOffset {
            context.append(catalog.message(.diagnosticByte, [.ungrouped(offset)]))
        }
        if let record = location.record { context.append(catalog.message(.diagnosticRecord, [.ungrouped(record + 1)])) }
        if let field = location.field { context.append(catalog.message(.diagnosticField, [.string(field)])) }
        if !context.isEmpty { text += " (" + context.joined(separator: ", ") + ")" }
        return text + " [\(code.rawValue)]"
    }
}
