#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The message catalogs Ferry ships, and the choice of language.
///
/// The catalogs are written in `Formats/Messages/<language>.strings` and
/// compiled into the binary (`EmbeddedCatalogs.swift`, made by
/// `Scripts/embed-catalogs.py`), so an installed `ferry` needs no resource files.
public enum Messages {
    /// The languages that have a catalog.
    public static var languages: [String] { EmbeddedCatalogs.tables.keys.sorted() }

    /// The catalog for `language`, English where it has gaps, plus the English
    /// templates that codecs from other packages bring.
    public static func catalog(language: String, registry: CodecRegistry = .standard) -> MessageCatalog {
        var english = EmbeddedCatalogs.tables["en"] ?? [:]
        english.merge(registry.codecMessages) { ours, _ in ours }
        let chosen = EmbeddedCatalogs.tables[language] ?? english
        return MessageCatalog(language: EmbeddedCatalogs.tables[language] == nil ? "en" : language,
                              templates: chosen, fallback: english)
    }

    /// The language the environment asks for: `FERRY_LANG`, then `LC_ALL`,
    /// `LC_MESSAGES`, `LANG` (Foundation ignores them on Linux), as the base
    /// language code (`de_DE.UTF-8` gives `de`). `C` and `POSIX` give `en`.
    public static func preferredLanguage(environment: [String: String]) -> String {
        for name in ["FERRY_LANG", "LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let code = value.split(whereSeparator: { "_.@-".contains($0) }).first.map(String.init)?.lowercased() ?? ""
            if code == "c" || code == "posix" { return "en" }
            if !code.isEmpty { return code }
        }
        return "en"
    }

    /// The process environment as a dictionary.
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
