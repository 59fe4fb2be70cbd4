import FerryKit

/// Reads every record with `next()`, checks it against `kind` and writes it
/// with `write`; then again with `readRaw` and `writeRaw`. Raw records are a
/// shortcut that must change nothing, so different bytes or errors stop the
/// process, which the fuzzer reports as a crash.
public func expectRawMatchesRecords(
    kind: RecordKind, reader makeReader: () -> (any RecordReader)?,
    writer makeWriter: (MemoryOutput) -> any RecordWriter
) {
    func run(raw: Bool) -> (output: [UInt8], failure: String?)? {
        guard let reader = makeReader() else { return nil }
        let output = MemoryOutput()
        let writer = makeWriter(output)
        var validator = RecordValidator(kind: kind)
        var failure: String?
        do throws(FerryError) {
            if raw {
                guard let rawReader = reader as? any RawRecordReader, let rawWriter = writer as? any RawRecordWriter else {
                    return nil
                }
                while try rawReader.readRaw({ (record) throws(FerryError) in
                    try validator.validate(record)
                    try rawWriter.writeRaw(record)
                }) {}
            } else {
                while let record = try reader.next() {
                    try validator.validate(record, at: SourceLocation())
                    try writer.write(record)
                }
            }
            try writer.finish()
        } catch {
            failure = "\(error.code) \(error.arguments) at \(error.location)"
        }
        return (output.bytes, failure)
    }
    guard let records = run(raw: false), let raws = run(raw: true) else { return }
    if records.output != raws.output || records.failure != raws.failure {
        fatalError(
            """
            raw records differ from records:
            records: \(records.failure ?? "ok") \(String(decoding: records.output, as: UTF8.self))
            raw:     \(raws.failure ?? "ok") \(String(decoding: raws.output, as: UTF8.self))
            """)
    }
}
