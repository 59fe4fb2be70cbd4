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
    /// The catalogs compiled into the binary, by language tag (`en`, `en-GB`).
    public static var builtInTables: [String: [String: String]] { EmbeddedCatalogs.tables }

    /// The languages that have a catalog, sorted.
    public static var languages: [String] { EmbeddedCatalogs.tables.keys.sorted() }

    /// The catalog for `locale`, English where it has gaps, plus the
    /// templates that codecs from other packages bring for their own codes
    /// (`Codec.catalogs` in `locale`'s language, else `Codec.messages`).
    /// A language without a catalog gets English.
    /// - Parameters:
    ///   - locale: a language tag or a locale's name, matched as `ferry
    ///     --lang` matches them: `de`, `de_DE`, `de-DE.UTF-8` and `de-AT`
    ///     give German, `en_GB` British English.
    ///   - registry: the codecs whose own templates join; any codec that
    ///     joined another registry in this process joins too.
    ///   - tables: the catalogs to take it from; Ferry's own by default.
    public static func catalog(
        locale: String, registry: CodecRegistry = .standard, tables: [String: [String: String]] = builtInTables
    ) -> MessageCatalog {
        // The codecs given, then any other that joined a registry (a
        // plugin's error described without its registry at hand).
        let codecs = [registry, CodecRegistry.everRegistered.registry]
        var english = tables["en"] ?? [:]
        for registry in codecs { english.merge(registry.codecMessages) { ours, _ in ours } }
        guard let language = match(locale, available: tables.keys), var chosen = tables[language], language != "en"
        else {
            return MessageCatalog(language: "en", templates: english, fallback: english)
        }
        for registry in codecs { chosen.merge(registry.codecMessages(language: language)) { ours, _ in ours } }
        return MessageCatalog(language: language, templates: chosen, fallback: english)
    }

    // MARK: - Choosing the language

    /// The environment variables that name a locale, strongest first.
    static let localeVariables = ["LC_ALL", "LC_MESSAGES", "LANG"]

    /// The language Ferry speaks, as GNU gettext chooses it.
    ///
    /// The first of these that names a language with a catalog wins:
    /// `override` (`--lang`); each entry of `LANGUAGE`, a colon-separated
    /// list (`xx:de`); `LC_ALL`; `LC_MESSAGES`; `LANG`. A value such as
    /// `de_AT.UTF-8` or `fr_FR@euro` loses its encoding and modifier; a region
    /// falls back to its language (`de_AT` selects `de`, `en_US` selects
    /// `en`) and a catalog for the region wins over it (`en_GB` and `en-GB`
    /// select `en-GB`). A variable naming a language without a catalog passes
    /// to the next one. `C` and `POSIX` mean English and end the search; as in
    /// gettext, `LANGUAGE` is ignored when the locale (the first of `LC_ALL`,
    /// `LC_MESSAGES`, `LANG` that is set) is `C` or `POSIX`, so that
    /// `LC_ALL=C` gives English whatever the desktop put in `LANGUAGE`.
    /// Empty variables count as unset. Nothing found gives `en`.
    /// - Parameters:
    ///   - override: the value of `--lang`, or nil.
    ///   - environment: the process environment (`processEnvironment()`).
    ///   - available: the language tags that have a catalog (`languages`).
    /// - Returns: one of `available`, or `en`.
    /// - Throws: `usage.invalidValue` listing the languages, when `override`
    ///   names none of them.
    package static func language(
        override: String? = nil, environment: [String: String], available: some Collection<String>
    ) throws(FerryError) -> String {
        if let override {
            guard let language = match(override, available: available) else {
                let expected = available.sorted().joined(separator: ", ")
                throw .usageInvalidValue(option: "lang", value: override, expected: .string(expected))
            }
            return language
        }
        let locale = localeVariables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        if !(locale.map(isC) ?? false), let list = environment["LANGUAGE"] {
            for entry in list.split(separator: ":") {
                if let language = match(String(entry), available: available) { return language }
            }
        }
        for name in localeVariables {
            guard let value = environment[name], !value.isEmpty else { continue }
            if let language = match(value, available: available) { return language }
        }
        return "en"
    }

    /// The catalog `value` selects (a locale name such as `de_AT.UTF-8` or a
    /// tag such as `pt-BR`): the longest of its tag and the tags made by
    /// dropping its last parts that has a catalog, compared without case;
    /// `en` for `C` and `POSIX`; nil when there is none.
    static func match(_ value: String, available: some Collection<String>) -> String? {
        if isC(value) { return "en" }
        let name = value.prefix { $0 != "." && $0 != "@" }
        var parts = name.split(whereSeparator: { $0 == "_" || $0 == "-" }).map { $0.lowercased() }
        while !parts.isEmpty {
            let tag = parts.joined(separator: "-")
            if let found = available.first(where: { $0.lowercased() == tag }) { return found }
            parts.removeLast()
        }
        return nil
    }

    /// Whether a locale name is the C locale, in any encoding (`C.UTF-8`).
    private static func isC(_ value: String) -> Bool {
        let name = value.prefix { $0 != "." && $0 != "@" }
        return name == "C" || name == "POSIX"
    }

    /// The process environment as a dictionary.
    package static func processEnvironment() -> [String: String] {
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
