// MARK: - Design
//
// A conversion into a format that cannot hold a value as it came (a null in
// a plist, a 30-digit number in a binary plist, a nested object in a CSV
// cell) changes it, and says so: once per kind of change and field, at the
// first record it happens in, with how many values it touched counted for
// the summary.
//
//     record 1, price: 1e400 → warning convert.numberRounded (record 1, price)
//     record 7, price: 1e401 → counted
//     summary: price, convert.numberRounded, 2

/// The changes a writer made to values its format cannot hold: the first of
/// each code and field as a warning, and how many of each. A writer's own:
/// never shared between threads.
public final class LossTally {
    /// One kind of change in one field.
    public struct Loss: Sendable, Hashable {
        /// The warning about its first value.
        public var warning: FerryWarning
        public var field: String
        /// How many values it touched.
        public var count: Int
    }

    /// The changes, in the order they first happened.
    public private(set) var losses: [Loss] = []
    private var positions: [Key: Int] = [:]

    private struct Key: Hashable {
        let code: String
        let field: String
    }

    public init() {}

    /// Counts a change of `code` in `field` of record `record`; the first of
    /// its code and field also keeps its warning (with `arguments`).
    public func note(_ code: FerryError.Code, field: String, record: Int, _ arguments: @autoclosure () -> [MessageArgument]) {
        let key = Key(code: code.rawValue, field: field)
        if let position = positions[key] {
            losses[position].count += 1
            return
        }
        positions[key] = losses.count
        let warning = FerryWarning(code, arguments(), at: SourceLocation(record: record, field: field))
        losses.append(Loss(warning: warning, field: field, count: 1))
    }

    // MARK: - Numbers kept as text, into binary formats

    /// `value` with every number kept as text (`.number`) turned into the
    /// integer or double a binary format stores: an integer when the text
    /// is one that fits 64 bits, else the nearest double, and past the
    /// largest double the largest (so the output stays convertible). A
    /// number whose stored value is not the text's number
    /// (`DecimalText.holds`) is noted as `convert.numberRounded`.
    /// - Parameter keepsUnsigned: whether the format stores integers from
    ///   2^63 to 2^64 − 1 (binary plists do): such a number stays as it is.
    public func storable(_ value: Value, field: String, record: Int, keepsUnsigned: Bool = false) -> Value {
        switch value {
        case .number(let number):
            if keepsUnsigned, number.unsignedInteger != nil { return value }
            var text = number.text
            return text.withUTF8 { bytes -> Value in
                switch DecimalText.value(bytes) {
                case .integer(let integer)?: return .integer(integer)
                case .double(let double)?:
                    let stored = double.isFinite ? double : (double < 0 ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude)
                    if !DecimalText.holds(stored, exactly: bytes) {
                        note(.convertNumberRounded, field: field, record: record, [.string(number.text), .string(stored.description)])
                    }
                    return .double(stored)
                default: return .null
                }
            }
        case .array(let elements) where elements.contains(where: Self.hasNumberText):
            return .array(elements.map { storable($0, field: field, record: record, keepsUnsigned: keepsUnsigned) })
        case .object(let object) where object.values.contains(where: Self.hasNumberText):
            var converted = OrderedObject()
            converted.reserveCapacity(object.count)
            for index in 0..<object.count {
                converted.append(
                    key: object.keys[index],
                    value: storable(object.values[index], field: field, record: record, keepsUnsigned: keepsUnsigned))
            }
            return .object(converted)
        default:
            return value
        }
    }

    /// `record` with its values made `storable`; the record itself when it
    /// has no number kept as text, the common case.
    public func storable(_ record: Record, keepsUnsigned: Bool = false) -> Record {
        guard record.values.contains(where: Self.hasNumberText) else { return record }
        var values = record.values
        for index in values.indices where Self.hasNumberText(values[index]) {
            values[index] = storable(
                values[index], field: record.fields.names[index], record: record.origin.index, keepsUnsigned: keepsUnsigned)
        }
        return Record(fields: record.fields, values: values, origin: record.origin)
    }

    /// Notes the fields of `record` that hold null, for a format that
    /// leaves them out (`convert.nullDropped`).
    public func noteDroppedNulls(_ record: Record) {
        for index in record.values.indices where record.values[index] == .null {
            let field = record.fields.names[index]
            note(.convertNullDropped, field: field, record: record.origin.index, [.string(field)])
        }
    }

    private static func hasNumberText(_ value: Value) -> Bool {
        switch value {
        case .number: true
        case .array(let elements): elements.contains(where: hasNumberText)
        case .object(let object): object.values.contains(where: hasNumberText)
        default: false
        }
    }
}

extension FerryError.Code {
    /// A number written into a format that stores a different value.
    public static let convertNumberRounded = Self("convert.numberRounded", .data)
    /// A null left out by a format that has no null.
    public static let convertNullDropped = Self("convert.nullDropped", .data)
}
