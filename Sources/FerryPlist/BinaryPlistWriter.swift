import FerryCore

/// Writes records as a binary plist: an array of dictionaries, the shape
/// plistlib and plutil produce for a list of records.
///
/// The format puts its offset table at the end and sizes references by the
/// final object count, so records are built up in a `BinaryPlistBuilder`
/// and written out by `finish()`. A null field is left out of its
/// dictionary, as plists have no null. An integer from 2^63 to 2^64 − 1
/// (a number kept as text) is stored exactly, in the 16-byte form CF and
/// plistlib write; other numbers kept as text are rounded as
/// `LossTally.storable` says.
package final class BinaryPlistWriter: RecordWriter {
    private let output: any ByteOutput
    private var builder = BinaryPlistBuilder()
    private var records: [Int] = []
    private var keyFields: FieldList?
    private var keyObjects: [Int] = []
    private var finished = false

    /// Where dropped nulls and numbers that do not fit are counted.
    private let losses: LossTally

    package init(_ output: any ByteOutput, losses: LossTally = LossTally()) {
        self.output = output
        self.losses = losses
    }

    /// - Throws: `plist.nullInArray`, located at the record's field.
    package func write(_ record: Record) throws(FerryError) {
        let record = losses.storable(record, keepsUnsigned: true)
        losses.noteDroppedNulls(record)
        if keyFields !== record.fields {
            keyObjects = record.fields.names.map { builder.addString($0) }
            keyFields = record.fields
        }
        var keys: [Int] = []
        var values: [Int] = []
        keys.reserveCapacity(record.values.count)
        values.reserveCapacity(record.values.count)
        for (position, value) in record.values.enumerated() {
            let converted: PlistValue?
            do throws(FerryError) {
                converted = try value.plistValue()
            } catch {
                throw error.located(SourceLocation(record: record.origin.index, field: record.fields.names[position]))
            }
            guard let converted else { continue }
            keys.append(keyObjects[position])
            values.append(builder.add(converted))
        }
        records.append(builder.addDictionary(keys: keys, values: values))
    }

    package func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        let top = builder.addArray(records)
        try builder.write(top: top, to: output)
        try output.flush()
    }
}
