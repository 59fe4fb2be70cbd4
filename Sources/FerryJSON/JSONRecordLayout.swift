import FerryCore

/// How `JSONWriter` lays out JSON records of one field list: what goes before
/// the first value (the separator from the record before, the brace and the
/// first key), before each later value (a comma and its key), and after the
/// last one. The CSV to JSON accelerator (FerryCSVToJSON) writes records
/// laid out this way into blocks it hands to `JSONWriter.appendLaidOut`.
package struct JSONRecordLayout: Sendable {
    /// Before the first value of the first record of the output.
    package let firstOpening: [UInt8]
    /// Before the first value of any later record.
    package let opening: [UInt8]
    /// `separators[i]` goes before value `i`; `separators[0]` is empty (the
    /// openings hold it).
    package let separators: [[UInt8]]
    /// After the last value.
    package let closing: [UInt8]

    package init(firstOpening: [UInt8], opening: [UInt8], separators: [[UInt8]], closing: [UInt8]) {
        self.firstOpening = firstOpening
        self.opening = opening
        self.separators = separators
        self.closing = closing
    }
}
