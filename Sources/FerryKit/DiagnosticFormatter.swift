/// Renders errors and warnings compiler-style, so editors and CI can jump to
/// the place: `products.json:12:7: error: message (record 3, field "price") [code]`.
public struct DiagnosticFormatter: Sendable {
    public let catalog: MessageCatalog

    public init(catalog: MessageCatalog) { self.catalog = catalog }

    public func render(_ error: FerryError) -> String {
        line(severity: "error", code: error.code, arguments: error.arguments, location: error.location)
    }

    public func render(_ warning: FerryWarning) -> String {
        line(severity: "warning", code: warning.code, arguments: warning.arguments, location: warning.location)
    }

    public func render(_ diagnostic: Diagnostic) -> String {
        line(
            severity: diagnostic.severity.rawValue, code: diagnostic.code, arguments: diagnostic.arguments,
            location: diagnostic.location)
    }

    /// The message text alone, without location or code.
    public func message(_ error: FerryError) -> String { catalog.message(error.code.rawValue, error.arguments) }

    /// The message text of a diagnostic alone, without location or code.
    public func message(_ diagnostic: Diagnostic) -> String {
        catalog.message(diagnostic.code.rawValue, diagnostic.arguments)
    }

    private func line(
        severity: String, code: FerryError.Code, arguments: [MessageArgument], location: SourceLocation
    ) -> String {
        var text = ""
        if let file = location.file {
            text = file
            if let line = location.line {
                text += ":\(line)"
                if let column = location.column { text += ":\(column)" }
            }
            text += ": "
        }
        text += "\(severity): " + catalog.message(code.rawValue, arguments)
        var context: [String] = []
        if location.line == nil, let offset = location.byteOffset {
            context.append(catalog.message("diagnostic.byte", [.integer(offset)]))
        }
        if let record = location.record { context.append(catalog.message("diagnostic.record", [.integer(record + 1)])) }
        if let field = location.field { context.append(catalog.message("diagnostic.field", [.string(field)])) }
        if !context.isEmpty { text += " (" + context.joined(separator: ", ") + ")" }
        return text + " [\(code.rawValue)]"
    }
}
