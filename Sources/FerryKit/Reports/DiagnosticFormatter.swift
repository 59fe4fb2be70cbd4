/// Renders errors and warnings compiler-style, so editors and CI can jump to
/// the place: `products.json:12:7: error: message (record 3, field "price") [code]`.
///
/// Every word comes from the catalog, `error` and `warning` too. The numbers
/// programs read are never grouped: line and column, the byte offset and the
/// record number (`diagnostic.record`) are plain digits in every language.
public struct DiagnosticFormatter: Sendable {
    public let catalog: MessageCatalog
    /// Whether a diagnostic's place in a user's schema joins its context
    /// (`schema #/$defs/money/minimum`): the reports of `validate --schema`
    /// show it, where the rules are the user's own.
    public var showsSchemaLocations: Bool

    public init(catalog: MessageCatalog, showsSchemaLocations: Bool = false) {
        self.catalog = catalog
        self.showsSchemaLocations = showsSchemaLocations
    }

    public func render(_ error: FerryError) -> String {
        line(.diagnosticError, code: error.code, arguments: error.arguments, location: error.location)
    }

    public func render(_ warning: FerryWarning) -> String {
        line(.diagnosticWarning, code: warning.code, arguments: warning.arguments, location: warning.location)
    }

    public func render(_ diagnostic: Diagnostic) -> String {
        line(
            diagnostic.severity == .error ? .diagnosticError : .diagnosticWarning, code: diagnostic.code,
            arguments: diagnostic.arguments, location: diagnostic.location,
            schemaLocation: showsSchemaLocations ? diagnostic.schemaLocation : nil)
    }

    /// What follows a message in parentheses: the record, the field and,
    /// when shown, the schema location; empty when there is none.
    /// - Parameter namingCell: whether a workbook's sheet and cell lead
    ///   (`Sheet1!B12`), for a form that has no place for them before the
    ///   message, as the compiler-style line has.
    func context(of diagnostic: Diagnostic, namingCell: Bool = false) -> String {
        context(
            of: diagnostic.location, schemaLocation: showsSchemaLocations ? diagnostic.schemaLocation : nil,
            namingCell: namingCell)
    }

    /// The message text alone, without location or code.
    public func message(_ error: FerryError) -> String { catalog.message(error.code, error.arguments) }

    /// The message text of a diagnostic alone, without location or code.
    public func message(_ diagnostic: Diagnostic) -> String {
        catalog.message(diagnostic.code, diagnostic.arguments)
    }

    /// - Parameter severity: `.diagnosticError` or `.diagnosticWarning`.
    private func line(
        _ severity: MessageKey, code: FerryError.Code, arguments: [MessageArgument], location: SourceLocation,
        schemaLocation: String? = nil
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
        let context = context(of: location, schemaLocation: schemaLocation, byteWithoutLine: true)
        if !context.isEmpty { text += " (" + context + ")" }
        return text + " [\(code.rawValue)]"
    }

    /// - Parameter byteWithoutLine: whether a byte offset stands in for a missing line.
    private func context(
        of location: SourceLocation, schemaLocation: String?, byteWithoutLine: Bool = false, namingCell: Bool = false
    ) -> String {
        var context: [String] = []
        if namingCell, let place = location.sheetAndCell { context.append(place) }
        if byteWithoutLine, location.line == nil, let offset = location.byteOffset {
            context.append(catalog.message(.diagnosticByte, [.ungrouped(offset)]))
        }
        if let record = location.record { context.append(catalog.message(.diagnosticRecord, [.ungrouped(record + 1)])) }
        if let field = location.field { context.append(catalog.message(.diagnosticField, [.string(field)])) }
        if let schemaLocation { context.append(catalog.message(.diagnosticSchemaRule, [.string(schemaLocation)])) }
        return context.joined(separator: ", ")
    }
}

extension Diagnostic {
    /// Where the failed rule sits in a schema, as people write it:
    /// `#/$defs/money/minimum` in the schema validated against; in another
    /// schema, its path (`/…/price.json#/$defs/money`) or `$id`; nil
    /// for a rule that is no schema's (`photo.format`).
    package var schemaLocation: String? {
        guard let rule else { return nil }
        if rule.isEmpty || rule.hasPrefix("/") { return "#" + rule }
        guard rule.contains("#") else { return nil }
        return rule.hasPrefix("file://") ? String(rule.dropFirst("file://".count)) : rule
    }
}
