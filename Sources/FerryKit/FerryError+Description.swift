#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Errors as Swift code shows them

/// `localizedDescription` and `print(error)` give the English message with
/// its place, as the command line prints it:
///
///     prices.csv:13:9: error: field 'price' must be number, not string (record 12, field "price") [record.wrongType]
///
/// `description(language:)` gives it in another language.
extension FerryError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    public var description: String { description(language: "en") }

    /// The message with its place in `language` (a language tag or a
    /// locale's name: `de`, `de_DE`), English where it has no catalog.
    public func description(language: String) -> String {
        DiagnosticFormatter(catalog: Messages.catalog(locale: language)).render(self)
    }
}

extension FerryWarning: CustomStringConvertible {
    public var description: String { description(language: "en") }

    /// The warning with its place in `language`, as for errors.
    public func description(language: String) -> String {
        DiagnosticFormatter(catalog: Messages.catalog(locale: language)).render(self)
    }
}
