// MARK: - Design
//
// A conversion between two text formats (CSV, JSON, JSON Lines) spends most
// of its time making and freeing `Value`s: a `String` per cell, an array per
// record, released again a moment later by the writer. Raw records skip that.
// A reader that can hand out its records in place (`RawRecordReader`) calls a
// closure with each one, its text cells still pointing into the reader's
// window; a writer that can write them (`RawRecordWriter`) copies those bytes
// straight to its output. Nothing outlives the call: the window moves on as
// soon as the closure returns.
//
//     window: {"name":"Wii","price":269.0}\n{"name":…
//                      ^^^ .text(bytes 9..<12)    .double(269.0)
//
// Both ends still see the same values a `Record` would carry: text is UTF-8
// that the reader has checked, and everything a reader cannot leave in place
// (escaped strings, nested arrays and objects) arrives as `.value`. The
// converter takes this path only when both codecs declare it and nothing
// needs the record as a whole (photos); anything else uses `Record`s.

/// One cell of a raw record.
public enum RawValue {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// Valid UTF-8, borrowed from the reader: valid only during the call that
    /// handed it out.
    case text(UnsafeBufferPointer<UInt8>)
    /// Anything a reader does not leave in place.
    case value(Value)

    /// The cell as a `Value`, copying borrowed text.
    public var value: Value {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .integer(let number): .integer(number)
        case .double(let number): .double(number)
        case .text(let bytes): .string(String(decoding: bytes, as: UTF8.self))
        case .value(let value): value
        }
    }

    /// The name of the cell's type, as `Value.typeName` gives it.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .integer: "integer"
        case .double: "double"
        case .text: "string"
        case .value(let value): value.typeName
        }
    }
}

/// A record whose cells may borrow the reader's bytes. See `RawValue`.
public struct RawRecord {
    public let fields: FieldList
    public let values: [RawValue]
    public let origin: RecordOrigin

    public init(fields: FieldList, values: [RawValue], origin: RecordOrigin) {
        self.fields = fields
        self.values = values
        self.origin = origin
    }

    /// The record with its text copied out, safe to keep.
    public func record() -> Record {
        Record(fields: fields, values: values.map(\.value), origin: origin)
    }
}

/// A reader that can hand out its records in place.
public protocol RawRecordReader: RecordReader {
    /// Reads the records the reader has at hand, at least one unless the
    /// input has ended, and calls `body` with each in turn. The records and
    /// their text are valid only during that call.
    /// - Returns: false when the input has ended and `body` saw every record.
    /// - Throws: the reader's own errors, and whatever `body` throws, which
    ///   ends the reading.
    func readRaw(_ body: (RawRecord) throws(FerryError) -> Void) throws(FerryError) -> Bool
}

/// A writer that can write raw records as they come.
public protocol RawRecordWriter: RecordWriter {
    /// Writes `record`, which is valid only during the call; the output is
    /// the same as `write(record.record())` would give.
    func writeRaw(_ record: RawRecord) throws(FerryError)
}
