/// Message templates of one language, looked up by code or key, with
/// positional placeholders (`%1$@`, `%2$@`) so translators can reorder them.
public struct MessageCatalog: Sendable {
    public let language: String
    private let templates: [String: String]
    private let fallback: [String: String]

    /// - Parameters:
    ///   - language: the language code, such as `en`.
    ///   - templates: this language's templates.
    ///   - fallback: templates used for keys this language lacks (English).
    public init(language: String, templates: [String: String], fallback: [String: String] = [:]) {
        self.language = language
        self.templates = templates
        self.fallback = fallback
    }

    /// The template for `key`, in this language or the fallback.
    public func template(_ key: String) -> String? { templates[key] ?? fallback[key] }

    /// The message for `key` with `arguments` put in their places. A key no
    /// catalog knows shows as the key with its arguments, so nothing is lost.
    public func message(_ key: String, _ arguments: [MessageArgument] = []) -> String {
        let rendered = arguments.map(render)
        guard let template = template(key) else {
            return rendered.isEmpty ? key : "\(key)(\(rendered.joined(separator: ", ")))"
        }
        return Self.fill(template, with: rendered)
    }

    /// The text of one argument.
    public func render(_ argument: MessageArgument) -> String {
        switch argument {
        case .string(let text), .path(let text): text
        case .integer(let number): String(number)
        case .double(let number): number.description
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
