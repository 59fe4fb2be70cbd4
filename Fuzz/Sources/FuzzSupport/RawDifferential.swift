@testable import FerryCore
@testable import FerryJSON
@testable import FerryCSV
@testable import FerryKit

/// Reads every record with `next()`, checks it against `kind` and writes it
/// with `write`; then again with `readRaw` and `writeRaw`; and, when the
/// standard registry has an accelerator for the pair of codecs `pair`
/// names, through it, as `Converter` runs it (the CSV to JSON accelerator
/// lays plain records out as JSON itself). Raw and laid out records are shortcuts that
/// must change nothing, so different bytes or errors stop the process,
/// which the fuzzer reports as a crash. (After an error, the output so far
/// may stop at another record each way, but never holds other bytes.)
public func expectRawMatchesRecords(
    kind: RecordKind, pair: (input: any Codec, output: any Codec)? = nil,
    reader makeReader: () -> (any RecordReader)?, writer makeWriter: (any ByteOutput) -> any RecordWriter
) {
    enum Mode { case records, raw, laidOut }
    func run(_ mode: Mode) -> (output: [UInt8], failure: String?)? {
        guard let reader = makeReader() else { return nil }
        let output = MemoryOutput()
        let accelerated =
            mode == .laidOut
            ? pair.flatMap {
                CodecRegistry.standard.accelerate(
                    reader, from: $0.input, to: $0.output, destination: output, jobs: 1)
            } : nil
        if mode == .laidOut && accelerated == nil { return nil }
        defer { accelerated?.close() }
        let writer = makeWriter(accelerated?.destination ?? output)
        var validator = RecordValidator(kind: kind)
        var failure: String?
        do throws(FerryError) {
            if let accelerated {
                _ = try accelerated.settleKind()
                guard accelerated.begin(with: writer), let rawWriter = writer as? any RawRecordWriter else {
                    return nil
                }
                while try accelerated.step(general: { (record) throws(FerryError) in
                    try validator.validate(record)
                    try rawWriter.writeRaw(record)
                }) {}
            } else if mode == .raw {
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
            accelerated?.close()
        } catch {
            failure = "\(error.code) \(error.arguments) at \(error.location)"
        }
        return (output.bytes, failure)
    }
    guard let records = run(.records) else { return }
    for mode in [Mode.raw, .laidOut] {
        guard let other = run(mode) else { continue }
        // After an error, what reached the output depends on how much each
        // way had buffered (the laid out way hands on blocks of 64 KiB, the
        // writer drains at 256 KiB): one must then be a prefix of the other.
        let same =
            records.failure == nil
            ? records.output == other.output
            : records.output.starts(with: other.output) || other.output.starts(with: records.output)
        if !same || records.failure != other.failure {
            fatalError(
                """
                \(mode) records differ from records:
                records: \(records.failure ?? "ok") \(String(decoding: records.output, as: UTF8.self))
                \(mode): \(other.failure ?? "ok") \(String(decoding: other.output, as: UTF8.self))
                """)
        }
    }
}
