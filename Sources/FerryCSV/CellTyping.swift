import FerryCore

/// Turns the text of a cell into the value its field's type asks for.
///
/// Generic fields stay strings: `00123` stays `00123`. Typed fields take
/// only their type's text, and an empty cell is null for them.
enum CellTyping {
    /// The outcome of typing one cell.
    enum Outcome {
        /// The cell in place (see `RawRecord`).
        case cell(RawValue)
        /// A value the cell's bytes do not hold as they are.
        case value(Value)
        /// The cell does not fit the type; the code says which.
        case mismatch(FerryError.Code)
    }

    /// The value of a cell whose raw bytes are `bytes` (quotes already
    /// removed; doubled quotes, if any, not yet undone), for a field of `type`.
    static func value(
        _ bytes: UnsafeBufferPointer<UInt8>, field: CSVField, scanner: CSVScanner, type: FieldType?, required: Bool
    ) -> Outcome {
        guard let type, type != .string, type != .photo else {
            if bytes.isEmpty, let type, !field.quoted && !required, type == .string || type == .photo {
                return .cell(.null)
            }
            return text(bytes, field: field, scanner: scanner)
        }
        if bytes.isEmpty { return .cell(.null) }
        switch type {
        case .number:
            return DecimalText.number(bytes).map { .cell($0) } ?? .mismatch(.csvInvalidNumber)
        case .integer:
            if case .integer(let number)? = DecimalText.number(bytes) { return .cell(.integer(number)) }
            return .mismatch(.csvInvalidInteger)
        case .bool:
            return bool(bytes).map { .cell(.bool($0)) } ?? .mismatch(.csvInvalidBool)
        case .string, .photo:
            return text(bytes, field: field, scanner: scanner)
        }
    }

    /// A cell's text: in place, unless doubled quotes must be undone.
    @inline(__always)
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, field: CSVField, scanner: CSVScanner) -> Outcome {
        field.hasDoubledQuotes ? .value(.string(scanner.text(of: field))) : .cell(.text(bytes))
    }

    /// true/false, yes/no, 1/0, in any case.
    static func bool(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.count <= 5 else { return nil }
        var lower: [UInt8] = []
        for byte in bytes { lower.append(byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)) }
        switch lower {
        case Array("true".utf8), Array("yes".utf8), [UInt8(ascii: "1")]: return true
        case Array("false".utf8), Array("no".utf8), [UInt8(ascii: "0")]: return false
        default: return nil
        }
    }
}
