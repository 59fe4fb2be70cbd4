/// One record: a product, a book or a generic row.
///
/// A record pairs a shared `FieldList` with its own values, one per field.
public struct Record: Sendable, Hashable {
    public let fields: FieldList
    public var values: [Value]
    /// Where the record started in its source, for errors found after reading.
    public var origin: RecordOrigin

    public init(fields: FieldList, values: [Value], origin: RecordOrigin = RecordOrigin()) {
        self.fields = fields
        self.values = values
        self.origin = origin
    }

    /// Builds a record from pairs, with a field list of its own.
    public init(_ pairs: [(String, Value)], origin: RecordOrigin = RecordOrigin()) {
        self.init(fields: FieldList(pairs.map(\.0)), values: pairs.map(\.1), origin: origin)
    }

    /// The value of field `name`, or nil when the record has no such field.
    public subscript(name: String) -> Value? {
        get { fields.index(of: name).map { values[$0] } }
    }

    /// Replaces the value of an existing field.
    /// - Returns: false when the record has no field `name`.
    @discardableResult
    public mutating func set(_ name: String, to value: Value) -> Bool {
        guard let index = fields.index(of: name) else { return false }
        values[index] = value
        return true
    }

    /// The record's fields and values as pairs, in order.
    public var pairs: [(String, Value)] { Array(zip(fields.names, values)) }

    public static func == (lhs: Record, rhs: Record) -> Bool {
        lhs.fields == rhs.fields && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
        hasher.combine(values)
    }
}

/// Where a record came from: its index in the stream (0-based) and the byte
/// offset of its first byte. Line and column are worked out only when an
/// error needs them.
public struct RecordOrigin: Sendable, Hashable {
    public var index: Int
    public var byteOffset: Int

    public init(index: Int = 0, byteOffset: Int = 0) {
        self.index = index
        self.byteOffset = byteOffset
    }
}
