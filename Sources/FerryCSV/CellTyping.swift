import FerryCore

/// Turns the text of a cell into the value its field's type asks for.
///
/// Generic fields stay strings: `00123` stays `00123`. Typed fields take
/// only their type's text, and an empty cell is null for them.
enum CellTyping {
    /// The outcome of typing one cell.
    enum Outcome {
        case value(Value)
        /// The cell does not fit the type; the code says which.
        case mismatch(FerryError.Code)
    }

    static func value(_ text: String, quoted: Bool, type: FieldType?, required: Bool) -> Outcome {
        guard let type else { return .value(.string(text)) }
        if text.isEmpty {
            // An empty cell is null for an optional field; a quoted empty
            // string stays a string for text fields.
            if type == .string && (quoted || required) { return .value(.string("")) }
            return .value(.null)
        }
        switch type {
        case .string, .photo:
            return .value(.string(text))
        case .number:
            return number(text).map(Outcome.value) ?? .mismatch(.csvInvalidNumber)
        case .integer:
            return integer(text).map { .value(.integer($0)) } ?? .mismatch(.csvInvalidInteger)
        case .bool:
            return bool(text).map { .value(.bool($0)) } ?? .mismatch(.csvInvalidBool)
        }
    }

    /// A decimal number: an optional sign, digits with an optional fraction,
    /// and an optional exponent. Integers stay integers when they fit.
    static func number(_ text: String) -> Value? {
        var digits = 0
        var isInteger = true
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        if index < utf8.endIndex, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
            index = utf8.index(after: index)
        }
        while index < utf8.endIndex, utf8[index] &- 0x30 < 10 {
            digits += 1
            index = utf8.index(after: index)
        }
        if index < utf8.endIndex, utf8[index] == UInt8(ascii: ".") {
            isInteger = false
            index = utf8.index(after: index)
            while index < utf8.endIndex, utf8[index] &- 0x30 < 10 {
                digits += 1
                index = utf8.index(after: index)
            }
        }
        guard digits > 0 else { return nil }
        if index < utf8.endIndex, utf8[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index = utf8.index(after: index)
            if index < utf8.endIndex, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
                index = utf8.index(after: index)
            }
            var exponentDigits = 0
            while index < utf8.endIndex, utf8[index] &- 0x30 < 10 {
                exponentDigits += 1
                index = utf8.index(after: index)
            }
            guard exponentDigits > 0 else { return nil }
        }
        guard index == utf8.endIndex else { return nil }
        if isInteger, let integer = Int64(text.utf8.first == UInt8(ascii: "+") ? String(text.dropFirst()) : text) {
            return .integer(integer)
        }
        guard let double = Double(text), double.isFinite else { return nil }
        return .double(double)
    }

    static func integer(_ text: String) -> Int64? {
        Int64(text.utf8.first == UInt8(ascii: "+") ? String(text.dropFirst()) : text)
    }

    /// true/false, yes/no, 1/0, in any case.
    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1": true
        case "false", "no", "0": false
        default: nil
        }
    }
}
