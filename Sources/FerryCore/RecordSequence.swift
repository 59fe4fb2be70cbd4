/// A reader's records as a `Sequence`, for `for … in`: each element a
/// record or the error that spoilt it.
///
///     let reader = try CSVCodec.csv.makeReader(FileInput(path: "products.csv"), context: ReadContext())
///     for result in reader.records {
///         switch result {
///         case .success(let record): …
///         case .failure(let error): …   // located: line, column, field
///         }
///     }
///
/// Elements are `Result`s, not a throwing iterator: `IteratorProtocol.next()`
/// cannot throw, and a sequence that stopped at the first error would hide
/// the records after a bad one that a reader can read past (a CSV row, a
/// JSON Lines line, with `ReadContext.resumesAfterBadRecords`). After an
/// error the reader cannot pass, the sequence ends, so a loop over it
/// always ends. It reads the reader it wraps: iterate it once.
public struct RecordSequence: Sequence {
    let reader: any RecordReader

    public func makeIterator() -> Iterator { Iterator(reader: reader) }

    public struct Iterator: IteratorProtocol {
        let reader: any RecordReader
        var finished = false

        public mutating func next() -> Result<Record, FerryError>? {
            guard !finished else { return nil }
            do throws(FerryError) {
                guard let record = try reader.next() else {
                    finished = true
                    return nil
                }
                return .success(record)
            } catch {
                if !reader.resumesAfterError { finished = true }
                return .failure(error)
            }
        }
    }
}

extension RecordReader {
    /// The records still to read, as a sequence of results (see
    /// `RecordSequence`).
    public var records: RecordSequence { RecordSequence(reader: self) }
}
