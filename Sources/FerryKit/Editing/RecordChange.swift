/// What `ferry add` and `ferry edit` change in a record: `--set FIELD=VALUE`
/// (each value typed by the field's rule), `--unset FIELD`, `--photo FILE`
/// and `--no-photo`.
///
/// A value is typed by the schema's rule for its field: a number keeps its
/// text as written (`--set price=449.50` writes `449.50`), an integer must
/// be one, a bool is `true`/`false` (also `yes`/`no`, `1`/`0`, any case);
/// any other field takes text. An empty value is null in a field typed
/// number, integer or bool, and an empty text elsewhere (so `--set name=`
/// is refused by a product's rules, as an empty name is).
public struct RecordChange {
    /// The assignments, in order: field and its text.
    public var assignments: [(field: String, text: String)] = []
    /// Fields to remove.
    public var removed: [String] = []
    /// The new photo's bytes, checked to be a PNG or a JPEG.
    public var photo: [UInt8]?
    /// Whether the photo is removed.
    public var removesPhoto = false
    /// Whether numbers are written with a decimal comma and may group
    /// thousands (`--decimal-comma`: `5,25`, `1.234,5`), as CSV cells are
    /// read with it (`DecimalCommaText`).
    public var decimalComma = false

    /// The field photos are kept in.
    package static let photoField = "photo"

    public init() {}

    /// Reads `--set` arguments (`FIELD=VALUE`).
    /// - Throws: `edit.invalidAssignment` for one without `=` or a field name.
    public mutating func assign(_ arguments: [String]) throws(FerryError) {
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw .editInvalidAssignment(argument)
            }
            assignments.append((String(argument[..<equals]), String(argument[argument.index(after: equals)...])))
        }
    }

    /// Reads the photo at `path`.
    /// - Throws: `io.*`, `photo.notImage` for bytes that are no PNG or JPEG.
    package mutating func readPhoto(_ path: String, limit: Int) throws(FerryError) {
        let file = try FileInput(path: path)
        defer { file.close() }
        let bytes = try file.readAll(limit: limit)
        let type = Photo.imageType(of: bytes)
        guard type == .png || type == .jpeg else {
            throw FerryError(.photoNotImage, [.string(type.mediaType)], at: SourceLocation(file: path))
        }
        photo = bytes
    }

    /// `record` (nil for a new one) with the change made, fields in the
    /// order `order` gives first (a file's own), then as assigned.
    /// - Throws: `edit.valueType` for a value its field's type does not take.
    package func applied(to record: Record?, schema: Schema, order: [String] = []) throws(FerryError) -> Record {
        var pairs = record?.pairs ?? []
        func set(_ field: String, _ value: Value) {
            if let index = pairs.firstIndex(where: { $0.0 == field }) {
                pairs[index].1 = value
            } else {
                pairs.append((field, value))
            }
        }
        for (field, text) in assignments {
            set(field, try RecordChange.typed(text, field: field, schema: schema, decimalComma: decimalComma))
        }
        if let photo { set(RecordChange.photoField, .bytes(photo)) }
        let gone = Set(removed + (removesPhoto ? [RecordChange.photoField] : []))
        pairs.removeAll { gone.contains($0.0) }
        if record == nil && !order.isEmpty {
            let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            pairs = pairs.enumerated().sorted { (rank[$0.1.0] ?? order.count + $0.0, $0.0) < (rank[$1.1.0] ?? order.count + $1.0, $1.0) }
                .map(\.1)
        }
        return Record(pairs, origin: record?.origin ?? RecordOrigin())
    }

    /// The value `text` stands for in `field`, as `schema` types it, its
    /// numbers with a decimal comma when `decimalComma`.
    /// - Throws: `edit.valueType`, for a number's grouping that is not one
    ///   of three digits too.
    static func typed(
        _ text: String, field: String, schema: Schema, decimalComma: Bool = false
    ) throws(FerryError) -> Value {
        guard let type = schema.rule(for: field)?.type else { return .string(text) }
        var bytes = Array(text.utf8)
        let value: Value? = bytes.withUnsafeMutableBufferPointer { mutable in
            let buffer = UnsafeBufferPointer(mutable)
            switch type {
            case .string, .photo: return .string(text)
            case _ where buffer.isEmpty: return .null
            case .number where decimalComma, .integer where decimalComma:
                guard case .number(let value) = DecimalCommaText.read(buffer),
                    type == .number || DecimalCommaText.isWhole(value)
                else { return nil }
                return value
            case .number: return DecimalText.parsedValue(buffer)
            case .integer: return DecimalText.isInteger(buffer) ? DecimalText.parsedValue(buffer) : nil
            case .bool: return BoolText.value(of: text).map(Value.bool)
            }
        }
        guard let value else {
            let name = switch type {
                case .number: "number"
                case .integer: "integer"
                default: "bool"
            }
            throw .editValueType(field, value: text, type: name)
        }
        return value
    }

}
