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
    /// The keys with plural variants (`key#other` and the like), in either
    /// catalog: most keys have none, and need no variant's name made.
    private let pluralKeys: Set<String>
    /// The template of each key without plural variants, this language's
    /// or else the fallback's: one lookup where there were two, with the
    /// test of `pluralKeys` (1,800 instructions a message in a report of
    /// 2,826 errors).
    private let plainTemplates: [String: String]
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
        var pluralKeys = Set<String>()
        for key in Array(templates.keys) + Array(fallback.keys) {
            if let mark = key.utf8.firstIndex(of: UInt8(ascii: "#")) { pluralKeys.insert(String(key[..<mark])) }
        }
        self.pluralKeys = pluralKeys
        var plain = fallback
        plain.merge(templates) { _, own in own }
        for key in pluralKeys { plain[key] = nil }
        plainTemplates = plain
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
        message(code, arguments, rendered: render(arguments))
    }

    /// `message(code, arguments)`, from the arguments already rendered
    /// (`render(_:)` of each): a report that lists them too renders them once.
    package func message(_ code: FerryError.Code, _ arguments: [MessageArgument], rendered: [String]) -> String {
        let count = arguments.lazy.compactMap { argument -> Int? in
            if case .count(let number) = argument { number } else { nil }
        }.first
        return message(code.rawValue, count: count, rendered: rendered)
    }

    /// The text of each argument, formatted for this language.
    package func render(_ arguments: [MessageArgument]) -> [String] {
        // A closure, not `map(render)`: a method taken as a value copied the
        // catalog, and its dictionaries' references, for every message.
        arguments.map { render($0) }
    }

    private func message(_ key: String, count: Int?, _ arguments: [MessageArgument]) -> String {
        message(key, count: count, rendered: render(arguments))
    }

    /// A key no catalog knows shows as the key with its arguments, so nothing is lost.
    private func message(_ key: String, count: Int?, rendered: [String]) -> String {
        guard let template = lookUp(key, count: count) else {
            return rendered.isEmpty ? key : "\(key)(\(rendered.joined(separator: ", ")))"
        }
        return Self.fill(template, with: rendered)
    }

    /// The template for `key`: a plural variant when the catalogs have one
    /// (in this language by its rule, then in English by English's), else
    /// the plain key.
    private func lookUp(_ key: String, count: Int?) -> String? {
        if let template = plainTemplates[key] { return template }
        guard pluralKeys.contains(key) else { return nil }
        let other = key + "#" + PluralCategory.other.rawValue
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
    ///
    /// It works on the UTF-8 bytes (`%`, `$`, `@` and digits are ASCII, and
    /// no other character's bytes are): a merge's report fills two
    /// templates a conflict, and a scalar at a time took it longer than
    /// copying the merged lines out.
    static func fill(_ template: String, with values: [String]) -> String {
        var template = template
        return template.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + values.reduce(0) { $0 + $1.utf8.count })
            func place(_ index: Int) {
                if index < values.count { output.append(contentsOf: values[index].utf8) }
            }
            var next = 0
            var index = 0
            var copied = 0
            // Runs of the template are appended as buffers (a slice of one
            // went a byte at a time: 2,000 instructions a message).
            func copy(_ range: Range<Int>) { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range])) }
            while let found = bytes[index...].firstIndex(of: UInt8(ascii: "%")) {
                copy(copied..<found)
                let after = found + 1
                index = after
                if after < bytes.count && bytes[after] == UInt8(ascii: "%") {
                    output.append(UInt8(ascii: "%"))
                    index = after + 1
                } else if after < bytes.count && bytes[after] == UInt8(ascii: "@") {
                    place(next)
                    next += 1
                    index = after + 1
                } else {
                    // `%N$@`; anything else keeps its `%`, and what follows is text.
                    var end = after
                    var position = 0
                    var fits = true
                    while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
                        let (times, overflow) = position.multipliedReportingOverflow(by: 10)
                        let (sum, overflowAgain) = times.addingReportingOverflow(Int(bytes[end] - UInt8(ascii: "0")))
                        fits = fits && !overflow && !overflowAgain
                        position = sum
                        end += 1
                    }
                    if end > after, fits, position >= 1, end + 1 < bytes.count, bytes[end] == UInt8(ascii: "$"),
                        bytes[end + 1] == UInt8(ascii: "@")
                    {
                        place(position - 1)
                        index = end + 2
                    } else {
                        output.append(UInt8(ascii: "%"))
                    }
                }
                copied = index
            }
            copy(copied..<bytes.count)
            return String(decoding: output, as: UTF8.self)
        }
    }
}

/// Reads `.strings` files: `"key" = "value";` lines, with `//` and `/* */`
/// comments and the escapes `\"`, `\\`, `\n`, `\t`.
package enum StringsFile {
    /// The pairs in `text`.
    /// - Returns: nil when the text is not a well-formed strings file.
    package static func parse(_ text: String) -> [String: String]? {
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
