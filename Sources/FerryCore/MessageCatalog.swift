/// Message templates of one language, looked up by typed key or by code,
/// with positional placeholders (`%1$@`, `%2$@`) so translators can reorder
/// them. Arguments are formatted for the language before they are placed:
/// numbers grouped as it writes them (`NumberStyle`), and messages that count
/// something take the variant of the count's plural category (`PluralRule`).
public struct MessageCatalog: Sendable {
    /// The language tag, such as `en` or `en-GB`.
    public let language: String
    private let templates: [String: String]
    private let fallback: [String: String]
    private let plurals: PluralRule
    private let numbers: NumberStyle
    private static let englishPlurals = PluralRule(language: "en")

    /// - Parameters:
    ///   - language: the language tag, such as `en` or `en-GB`; it decides
    ///     the plural rule and how numbers are written.
    ///   - templates: this language's templates.
    ///   - fallback: templates used for keys this language lacks (English).
    public init(language: String, templates: [String: String], fallback: [String: String] = [:]) {
        self.language = language
        self.templates = templates
        self.fallback = fallback
        plurals = PluralRule(language: language)
        numbers = NumberStyle(language: language)
    }

    /// The template stored under `key` (a plural variant is `key#other`), in
    /// this language or the fallback.
    public func template(_ key: String) -> String? { templates[key] ?? fallback[key] }

    /// The message for `key` with `arguments` put in their places.
    public func message(_ key: MessageKey, _ arguments: [MessageArgument] = []) -> String {
        message(key.rawValue, count: nil, arguments)
    }

    /// The message for `key` in the plural form `count` takes in this
    /// language, with `arguments` put in their places (the count is usually
    /// one of them too). The variant is `key#<category>`, else `key#other`,
    /// else English's variant for the count.
    public func message(_ key: PluralKey, count: Int, _ arguments: [MessageArgument] = []) -> String {
        message(key.rawValue, count: count, arguments)
    }

    /// The message of an error or warning code. When the code's message has
    /// plural variants, the first `.count` argument picks one.
    public func message(_ code: FerryError.Code, _ arguments: [MessageArgument] = []) -> String {
        let count = arguments.lazy.compactMap { argument -> Int? in
            if case .count(let number) = argument { number } else { nil }
        }.first
        return message(code.rawValue, count: count, arguments)
    }

    /// A key no catalog knows shows as the key with its arguments, so nothing is lost.
    private func message(_ key: String, count: Int?, _ arguments: [MessageArgument]) -> String {
        let rendered = arguments.map(render)
        guard let template = lookUp(key, count: count) else {
            return rendered.isEmpty ? key : "\(key)(\(rendered.joined(separator: ", ")))"
        }
        return Self.fill(template, with: rendered)
    }

    /// The template for `key`: a plural variant when the catalogs have one
    /// (in this language by its rule, then in English by English's), else
    /// the plain key.
    private func lookUp(_ key: String, count: Int?) -> String? {
        let other = key + "#" + PluralCategory.other.rawValue
        guard templates[other] != nil || fallback[other] != nil else { return templates[key] ?? fallback[key] }
        guard let count else { return templates[other] ?? fallback[other] }
        return templates[key + "#" + plurals.category(of: count).rawValue] ?? templates[other]
            ?? fallback[key + "#" + Self.englishPlurals.category(of: count).rawValue] ?? fallback[other]
    }

    /// The text of one argument, formatted for this language.
    public func render(_ argument: MessageArgument) -> String {
        switch argument {
        case .string(let text), .path(let text): text
        case .integer(let number), .count(let number): numbers.format(number)
        case .ungrouped(let number): String(number)
        case .double(let number): numbers.format(number)
        case .byte(let byte):
            (0x21...0x7E).contains(byte)
                ? "'\(Character(Unicode.Scalar(byte)))'"
                : "0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        case .message(let key): message(key)
        }
    }

    /// Replaces `%N$@` with `values[N-1]`, `%@` with the next value in turn,
    /// and `%%` with `%`.
    static func fill(_ template: String, with values: [String]) -> String {
        var output = ""
        var next = 0
        var scalars = template.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            if scalars.first == "%" {
                scalars.removeFirst()
                output += "%"
                continue
            }
            if scalars.first == "@" {
                scalars.removeFirst()
                output += next < values.count ? values[next] : ""
                next += 1
                continue
            }
            var digits = ""
            var lookahead = scalars
            while let digit = lookahead.first, ("0"..."9").contains(digit) {
                digits.unicodeScalars.append(digit)
                lookahead.removeFirst()
            }
            if !digits.isEmpty, lookahead.first == "$", lookahead.dropFirst().first == "@",
                let position = Int(digits), position >= 1
            {
                scalars = lookahead.dropFirst(2)
                output += position <= values.count ? values[position - 1] : ""
            } else {
                output += "%"
            }
        }
        return output
    }
}

/// Reads `.strings` files: `"key" = "value";` lines, with `//` and `/* */`
/// comments and the escapes `\"`, `\\`, `\n`, `\t`.
public enum StringsFile {
    /// The pairs in `text`.
    /// - Returns: nil when the text is not a well-formed strings file.
    public static func parse(_ text: String) -> [String: String]? {
        var result: [String: String] = [:]
        var scalars = text.unicodeScalars[...]

        func skipSpaceAndComments() {
            while let first = scalars.first {
                if first.properties.isWhitespace {
                    scalars.removeFirst()
                } else if scalars.starts(with: "//".unicodeScalars) {
                    while let next = scalars.first, next != "\n" { scalars.removeFirst() }
                } else if scalars.starts(with: "/*".unicodeScalars) {
                    scalars.removeFirst(2)
                    while !scalars.isEmpty && !scalars.starts(with: "*/".unicodeScalars) { scalars.removeFirst() }
                    scalars = scalars.dropFirst(2)
                } else {
                    return
                }
            }
        }

        func quoted() -> String? {
            guard scalars.popFirst() == "\"" else { return nil }
            var value = ""
            while let scalar = scalars.popFirst() {
                switch scalar {
                case "\"": return value
                case "\\":
                    switch scalars.popFirst() {
                    case "n": value += "\n"
                    case "t": value += "\t"
                    case "\"": value += "\""
                    case "\\": value += "\\"
                    default: return nil
                    }
                default: value.unicodeScalars.append(scalar)
                }
            }
            return nil
        }

        while true {
            skipSpaceAndComments()
            if scalars.isEmpty { return result }
            guard let key = quoted() else { return nil }
            skipSpaceAndComments()
            guard scalars.popFirst() == "=" else { return nil }
            skipSpaceAndComments()
            guard let value = quoted() else { return nil }
            skipSpaceAndComments()
            guard scalars.popFirst() == ";" else { return nil }
            result[key] = value
        }
    }
}
