// MARK: - Design
//
// A conversion from CSV, JSON, JSON Lines or a binary plist to a text format
// spent most of its time making and freeing `Value`s: a `String` per cell,
// an array per record, released again a moment later by the writer. Raw
// records skip that.
// A reader that can hand out its records in place (`RawRecordReader`) calls a
// closure with each one, its text cells still pointing into the reader's
// window; a writer that can write them (`RawRecordWriter`) copies those bytes
// straight to its output. Nothing outlives the call: the window moves on as
// soon as the closure returns. (A conversion copies each record onto a
// `RecordTape` in FerryKit to hand it from its reading to its writing
// thread; that copy is the only one.)
//
//     window: {"name":"Wii","price":269.0}\n{"name":…
//                      ^^^ .text(bytes 9..<12)    .double(269.0)
//
// Both ends still see the same values a `Record` would carry: text is UTF-8
// that the reader has checked, and everything a reader cannot leave in place
// (escaped strings, nested arrays and objects) arrives as a `Value` the
// record points at (`.other`). The converter takes this path only when both
// codecs declare it and nothing needs the record as a whole (photos);
// anything else uses `Record`s.

/// One cell of a raw record. It holds no references, so arrays of cells are
/// filled, copied and emptied without reference counting.
package enum RawValue {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// A number's text, borrowed as text is, kept because the writers would
    /// not print its value back as written (see `NumberText`).
    case number(UnsafeBufferPointer<UInt8>)
    /// Valid UTF-8, borrowed from the reader: valid only during the call that
    /// handed it out.
    case text(UnsafeBufferPointer<UInt8>)
    /// Bytes borrowed from the reader, as text is: a photo's data in a file
    /// read whole. Its `Value` is `.bytes`.
    case bytes(UnsafeRawBufferPointer)
    /// Anything a reader does not leave in place (escaped strings, nested
    /// values): its index in the record's `others`.
    case other(Int)

    /// The name of the cell's type, as `Value.typeName` gives it; nil for
    /// `.other`, whose value knows.
    package var typeName: String? {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .integer: "integer"
        case .double: "double"
        case .number(let text):
            switch DecimalText.value(text) {
            case .integer?: "integer"
            default: "double"
            }
        case .text: "string"
        case .bytes: "bytes"
        case .other: nil
        }
    }
}

/// A record whose cells may borrow the reader's bytes. See `RawValue`. All
/// of it is borrowed: valid only during the call that hands it out, which
/// spares a reference count per record and per array.
package struct RawRecord {
    /// Borrowed like the rest: a reader makes a raw record for every
    /// record, and a counted reference would count twice a record.
    package var fields: FieldList { Unmanaged<FieldList>.fromOpaque(fieldsAddress).takeUnretainedValue() }
    /// Where `fields` is (`RawRecord.address(of:)`). What a consumer
    /// worked out for a list it keeps, it finds again by comparing this
    /// with the list's address: `record.fields === list` would count a
    /// reference to each.
    package let fieldsAddress: UnsafeRawPointer
    package let values: UnsafeBufferPointer<RawValue>
    /// The values `.other` cells point at; it may hold more than this record's.
    package let others: UnsafeBufferPointer<Value>
    package let origin: RecordOrigin
    /// The length of the record's line in the input, its line feed
    /// included, when those bytes are the ones the JSON Lines writer
    /// writes for the record (`JSONReader` knows: a compact line of plain
    /// keys, strings without escapes, numbers as it prints them); else 0.
    /// A copy can then take the input's bytes as they are.
    package let lineAsWritten: Int
    /// Whether the line of `lineAsWritten` is the writer's bytes only once
    /// the whitespace between its tokens is dropped (`JSONText.Compactor`):
    /// a spaced line, as Python's `json.dumps` writes, or one that ends
    /// with CR LF.
    package let lineIsSpaced: Bool

    /// Inlinable, and `fields` borrowed: a reader makes one a record, and
    /// a call into this module took `fields` owned, a reference counted
    /// and let go each time.
    @inlinable @inline(__always)
    package init(
        fields: borrowing FieldList, values: UnsafeBufferPointer<RawValue>, others: UnsafeBufferPointer<Value>,
        origin: RecordOrigin, lineAsWritten: Int = 0, lineIsSpaced: Bool = false
    ) {
        self.init(
            fieldsAddress: Self.address(of: fields), values: values, others: others, origin: origin,
            lineAsWritten: lineAsWritten, lineIsSpaced: lineIsSpaced)
    }

    /// A record whose fields are the list at `fieldsAddress`
    /// (`address(of:)`), which the caller keeps alive: a reader that holds
    /// its list makes its records with no reference counted.
    @inlinable @inline(__always)
    package init(
        fieldsAddress: UnsafeRawPointer, values: UnsafeBufferPointer<RawValue>, others: UnsafeBufferPointer<Value>,
        origin: RecordOrigin, lineAsWritten: Int = 0, lineIsSpaced: Bool = false
    ) {
        self.fieldsAddress = fieldsAddress
        self.values = values
        self.others = others
        self.origin = origin
        self.lineAsWritten = lineAsWritten
        self.lineIsSpaced = lineIsSpaced
    }

    /// Calls `body` with a raw record over `values` and `others`. Inlinable,
    /// so that callers in other modules get it specialized (no generic
    /// metadata looked up per record).
    @inlinable @inline(__always)
    package static func with<Success, Failure: Error>(
        fields: FieldList, values: UnsafeBufferPointer<RawValue>, others: [Value], origin: RecordOrigin,
        lineAsWritten: Int = 0, lineIsSpaced: Bool = false, _ body: (RawRecord) throws(Failure) -> Success
    ) throws(Failure) -> Success {
        // Most records have no other values: no buffer to take then.
        if others.isEmpty {
            return try body(
                RawRecord(
                    fields: fields, values: values, others: UnsafeBufferPointer(start: nil, count: 0), origin: origin,
                    lineAsWritten: lineAsWritten, lineIsSpaced: lineIsSpaced))
        }
        return try others.withUnsafeBufferPointer { (others) throws(Failure) -> Success in
            try body(
                RawRecord(
                    fields: fields, values: values, others: others, origin: origin, lineAsWritten: lineAsWritten,
                    lineIsSpaced: lineIsSpaced))
        }
    }

    /// Calls `body` with a record's values as a raw record whose cells all
    /// point at them.
    @inlinable
    package static func with<Success, Failure: Error>(
        _ record: Record, _ body: (RawRecord) throws(Failure) -> Success
    ) throws(Failure) -> Success {
        let cells = record.values.indices.map(RawValue.other)
        let outcome = cells.withUnsafeBufferPointer { cells in
            Result { () throws(Failure) -> Success in
                try with(fields: record.fields, values: cells, others: record.values, origin: record.origin, body)
            }
        }
        return try outcome.get()
    }

    /// The address of a field list, as `fieldsAddress` holds it.
    @inlinable @inline(__always)
    package static func address(of fields: FieldList) -> UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passUnretained(fields).toOpaque())
    }

    /// The cell at `index` as a `Value`, copying borrowed text.
    package func value(at index: Int) -> Value {
        switch values[index] {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .integer(let number): .integer(number)
        case .double(let number): .double(number)
        case .number(let text): .number(NumberText(unchecked: String(decoding: text, as: UTF8.self)))
        case .text(let bytes): .string(String(decoding: bytes, as: UTF8.self))
        case .bytes(let bytes): .bytes(Array(bytes))
        case .other(let other): others[other]
        }
    }

    /// The record with its text copied out, safe to keep.
    package func record() -> Record {
        Record(fields: fields, values: values.indices.map(value(at:)), origin: origin)
    }
}

/// The cells of one raw record at a time, in memory its owner keeps from
/// record to record and frees with `deallocate()`. Cells hold no references,
/// so emptying is free and appending checks nothing but the capacity: an
/// array would check its uniqueness on every append.
///
/// A copy shares the memory; owners swap it in and out (see
/// `RawRecordBuffers`). Nothing is allocated before the first append.
package struct RawCellBuffer {
    @usableFromInline var start: UnsafeMutablePointer<RawValue>?
    @usableFromInline var room = 0
    @usableFromInline var filled = 0

    package init() {}

    package func deallocate() { start?.deallocate() }

    @inlinable package var count: Int { filled }

    /// The cells, borrowed: valid until the next change.
    @inlinable package var cells: UnsafeBufferPointer<RawValue> { UnsafeBufferPointer(start: start, count: filled) }

    @inlinable @inline(__always)
    package mutating func append(_ cell: RawValue) {
        if filled == room { grow() }
        (start.unsafelyUnwrapped + filled).initialize(to: cell)
        filled += 1
    }

    @inlinable @inline(__always)
    package mutating func removeAll() { filled = 0 }

    @usableFromInline mutating func grow() {
        let grown = UnsafeMutablePointer<RawValue>.allocate(capacity: max(room * 2, 16))
        if let start {
            grown.moveInitialize(from: start, count: filled)
            start.deallocate()
        }
        start = grown
        room = max(room * 2, 16)
    }
}

/// What a reader builds a raw record in: its cells, and the values that
/// `.other` cells point at. A reader keeps one from record to record, and
/// swaps it into a local while it fills it (so the array stays unique):
///
///     var buffers = RawRecordBuffers()
///     swap(&buffers, &self.buffers)
///     defer { swap(&buffers, &self.buffers) }
package struct RawRecordBuffers {
    package var cells = RawCellBuffer()
    package var others: [Value] = []

    package init() {}

    /// Frees the cells' memory; the owner's `deinit` calls it.
    package func deallocate() { cells.deallocate() }

    /// Empties both, keeping their memory.
    @inlinable
    package mutating func removeAll() {
        cells.removeAll()
        // Most records have no other values, and emptying an empty array
        // still costs a call through `replaceSubrange`.
        if !others.isEmpty { others.removeAll(keepingCapacity: true) }
    }

    /// Adds `value` to `others` and a cell that points at it.
    @inlinable
    package mutating func append(other value: Value) {
        others.append(value)
        cells.append(.other(others.count - 1))
    }

    /// Calls `body` with the raw record these buffers hold.
    @inlinable @inline(__always)
    package func withRecord<Success, Failure: Error>(
        fields: FieldList, origin: RecordOrigin, lineAsWritten: Int = 0, lineIsSpaced: Bool = false,
        _ body: (RawRecord) throws(Failure) -> Success
    ) throws(Failure) -> Success {
        try RawRecord.with(
            fields: fields, values: cells.cells, others: others, origin: origin, lineAsWritten: lineAsWritten,
            lineIsSpaced: lineIsSpaced, body)
    }
}

/// A reader that can hand out its records in place.
package protocol RawRecordReader: RecordReader {
    /// Reads the records the reader has at hand, at least one unless the
    /// input has ended, and calls `body` with each in turn. The records and
    /// their text are valid only during that call.
    /// - Returns: false when the input has ended and `body` saw every record.
    /// - Throws: the reader's own errors, and whatever `body` throws, which
    ///   ends the reading.
    func readRaw(_ body: (RawRecord) throws(FerryError) -> Void) throws(FerryError) -> Bool
}

/// A writer that can write raw records as they come.
package protocol RawRecordWriter: RecordWriter {
    /// Writes `record`, which is valid only during the call; the output is
    /// the same as `write(record.record())` would give.
    func writeRaw(_ record: RawRecord) throws(FerryError)
}

/// A writer whose line for a record is, byte for byte, the input's line
/// that a reader marked as written (`RawRecord.lineAsWritten`), compacted
/// when it is spaced: a caller may copy that line itself, in place of
/// writing the record. The JSON Lines writer is one; a plugin's line
/// format whose reader marks lines so may be another.
package protocol LineCopyingWriter: RawRecordWriter {
    /// Whether lines marked as written are this writer's lines (for the
    /// JSON writer: only in its JSON Lines style).
    var copiesLinesAsWritten: Bool { get }
    /// Hands what the writer holds to its output, so that a line the
    /// caller copies comes after it.
    func drain() throws(FerryError)
}
