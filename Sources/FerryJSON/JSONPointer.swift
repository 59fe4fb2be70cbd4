import FerryCore

/// An RFC 6901 JSON Pointer: where, in a JSON document, the array of
/// records is (`--records-at /products`).
///
///     pointer:  /catalog/items~1all/0
///     tokens:   "catalog", "items/all", "0"
///
/// Each token after a `/` names an object's member, or an array's element
/// by its index (`0`, `12`: no sign, no leading zero). `~1` stands for `/`
/// and `~0` for `~` in a name; any other `~` is malformed. The empty
/// pointer is the whole document.
package struct JSONPointer: Sendable, Hashable {
    /// The pointer as written, for messages.
    package let text: String
    /// The unescaped tokens, outermost first.
    package let tokens: [String]

    /// - Throws: `json.invalidPointer` when `text` is not empty and does not
    ///   start with `/`, or has a `~` not followed by `0` or `1`.
    package init(_ text: String) throws(FerryError) {
        self.text = text
        guard !text.isEmpty else {
            tokens = []
            return
        }
        guard text.hasPrefix("/") else { throw .jsonInvalidPointer(text) }
        var tokens: [String] = []
        for part in text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            var token: [UInt8] = []
            var escaped = false
            for byte in part {
                if escaped {
                    switch byte {
                    case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                    case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                    default: throw .jsonInvalidPointer(text)
                    }
                    escaped = false
                } else if byte == UInt8(ascii: "~") {
                    escaped = true
                } else {
                    token.append(byte)
                }
            }
            if escaped { throw .jsonInvalidPointer(text) }
            tokens.append(String(decoding: token, as: UTF8.self))
        }
        self.tokens = tokens
    }

    /// The pointer to the member `name` of the document's top-level object.
    package static func member(_ name: String) -> String { "/" + JSONText.pointerToken(name) }

    /// The array index token `level` names, or nil when it names none
    /// (`-`, a sign, a leading zero, anything but digits).
    func index(at level: Int) -> Int? {
        let token = tokens[level].utf8
        guard let first = token.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
            first != UInt8(ascii: "0") || token.count == 1, token.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        return Int(tokens[level])
    }
}
