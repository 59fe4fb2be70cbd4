// MARK: - One file

/// The checking of one file: its counts, and the state that spans records.
///
/// Records are checked as raw records (`RawRecord`) when the reader can hand
/// them out in place, so a valid record costs no `Value`s; a record that
/// fails is made whole and checked again for every problem, and each
/// problem's cell is found by scanning the record again
/// (`RecordReader.location(ofField:inRecordAt:)`).
struct FileCheck {
    let path: String
    let sink: DiagnosticCollector
    var file: ValidationReport.File
    var rules: RecordRules? {
        didSet { rulesReference = rules.map(Unmanaged.passUnretained) }
    }
    /// Where the unique fields and the photos sit in the field list seen last.
    private var positions = FieldPositions()
    /// `rules`, uncounted: the check of each record refers to them through
    /// it, with no retain and release (`rules` keeps them alive).
    private var rulesReference: Unmanaged<RecordRules>?
    var uniqueKeys: [UniqueKeys] = []
    /// Where the keys go instead of `uniqueKeys` when the check of a
    /// file's halves looks them up later, both halves together (`KeyLog`).
    var keyLog: KeyLog?
    /// Keys waiting to go into `uniqueKeys`: they go in a few dozen at a
    /// time, so that the cache misses of a large table overlap. They go in
    /// before any problem is reported, so the order of the report is that
    /// of the records, and while the reader still holds their records.
    private var pendingKeys: [PendingKey] = []
    private var pendingText: [UInt8] = []
    /// The kind asked for and the user's schema, from which the rules are
    /// made at the first record (`makeRules`).
    private var rulesFrom: (kind: RecordKind?, schema: Schema?) = (nil, nil)
    /// The reader's context, whose warnings about the header are taken
    /// before the first record: at record -1, whatever records the reader
    /// hands out at once, so that a file's halves place them alike.
    private var context: ReadContext?
    /// How many keys wait at most: 1 for readers that hand out one record at a time.
    private var pendingLimit = 64
    /// The bytes this run reads, when known: once a few thousand keys are
    /// in, the tables reserve room for the keys the rest of the bytes will
    /// bring at the rate so far (`UniqueKeys.reserve(keys:)`).
    var expectedBytes: Int?
    private var reserved = false
    /// The most slots a key table may take before it counts as out of
    /// memory (`UniqueKeys.slotLimit`); tests lower it.
    var keySlotLimit = Int.max
    /// Whether `io.outOfMemory` was reported for the unique keys' tables.
    private var reportedOutOfMemory = false
    /// The most keys a table reserves room for on a guess (2 Mi slots).
    static let largestReservation = 1 << 20

    private struct PendingKey {
        var digest: KeyDigest
        var key: Int
        var record: Int
        var byteOffset: Int
        var text: Range<Int>
    }
    /// The record whose error filled the cap, when it was filled in this
    /// file: the records after it count as unchecked, though keys batched
    /// for their lookup (`pendingKeys`) may have let some be read meanwhile.
    private(set) var capRecord: Int?
    /// The last record that had an error, so that a record with several
    /// counts once among the invalid (reports come in the records' order).
    private var lastFailedRecord: Int?
    /// Whether every warning is reported as an error (`--strict`). The
    /// runs of a file's halves and shards leave it to the run that adopts
    /// their diagnostics, which tells their warnings apart first.
    var countsWarningsAsErrors = false
    /// The context whose reader leaves cells that do not fit their types
    /// null and keeps their errors (`ReadContext.mismatchedCells`).
    /// Uncounted (`context` keeps it alive): read for every record, with no
    /// retain and release (they were 14M of 518M instructions validating
    /// 200,000 products from CSV).
    private var cellErrorsContext: Unmanaged<ReadContext>?

    // MARK: Parts (see `Validator+Parts.swift`)

    /// The byte offset of each record, by its index; nil when not asked for
    /// (the second half of a file keeps them, to find its records again).
    var recordOffsets: [Int]?
    /// The record (0-based, in this run) each diagnostic kept was reported
    /// at; nil when not asked for.
    var ordinals: [Int]?

    /// `sink.reachedCap`, as of this run's last report: read for every
    /// record, and the sink's own is a call and a check of exclusive access.
    private var capped: Bool

    init(path: String, sink: DiagnosticCollector, file: ValidationReport.File) {
        self.path = path
        self.sink = sink
        self.file = file
        capped = sink.reachedCap
    }

    /// Checks that `opened` is well formed, through the codec's `lint`, with
    /// the problems it can read past reported and the rest thrown; an empty
    /// input is, with a warning (`EmptyInputReader`).
    mutating func lint(_ opened: OpenedInput, path: String, codec: any Codec, context: ReadContext) throws(FerryError) {
        let counting = CountingSink(sink, path: path)
        context.diagnostics = counting
        defer {
            context.diagnostics = nil
            file.errors += counting.errors
            file.warnings += counting.warnings
        }
        if opened.isEmpty {
            context.warn(.formatEmptyInput(path))
        } else {
            try codec.lint(opened.input, context: context)
        }
        takeWarnings(context)
    }

    /// Reads `reader` to its end, or to an error it cannot read past.
    /// - Parameter photos: where photo references are read; nil to read
    ///   none (`--photos skip`).
    mutating func check(
        _ reader: any RecordReader, context: ReadContext, kind: RecordKind?, schema: Schema?, photos: PhotoStore?
    ) throws(FerryError) {
        defer {
            if let capRecord { file.uncheckedRecords = max(file.records - (capRecord + 1), 0) }
        }
        let raw = reader as? any RawRecordReader
        if raw == nil { pendingLimit = 1 }
        cellErrorsContext = context.mismatchedCells == .collect ? Unmanaged.passUnretained(context) : nil
        // Kept here rather than passed along with each record, which would
        // copy (and count references to) the schema every time.
        rulesFrom = (kind, schema)
        self.context = context
        defer { self.context = nil }
        while true {
            do throws(FerryError) {
                if let raw {
                    // Passed along, so that no record counts a reference to it.
                    let log = keyLog
                    let more = try raw.readRaw { record in
                        self.check(record, reader: reader, photos: photos, log: log)
                    }
                    // The records of that call are still in the reader's window.
                    flushKeys(reader)
                    guard more else { break }
                } else {
                    guard let record = try reader.next() else { break }
                    RawRecord.with(record) { self.check($0, reader: reader, photos: photos, log: keyLog) }
                }
            } catch {
                // The errors of cells of a record that failed as a whole.
                context.cellErrors.removeAll()
                flushKeys(reader)
                takeWarnings(context)
                guard reader.resumesAfterError else {
                    // The record the reading broke in was read in part: it
                    // counts, as the invalid record its error makes it, so
                    // that records = valid + invalid + unchecked.
                    if let record = error.location.record, record >= file.records {
                        file.records += 1
                        recordOffsets?.append(-1)
                        if capped { file.uncheckedRecords += 1 }
                    }
                    throw error
                }
                // The reader went past one bad record.
                file.records += 1
                recordOffsets?.append(-1)
                if capped {
                    file.uncheckedRecords += 1
                } else {
                    report(Diagnostic(error.located(SourceLocation(file: path))))
                }
                continue
            }
            takeWarnings(context)
        }
        flushKeys(reader)
        takeWarnings(context)
    }

    /// Checks one record: its kind's rules, its unique keys, its photo.
    private mutating func check(
        _ record: RawRecord, reader: any RecordReader, photos: PhotoStore?, log: KeyLog?
    ) {
        if rulesReference == nil {
            if let context { takeWarnings(context) }
            // The file's kind is known even when no record is checked.
            _ = makeRules(for: record, reader: reader, kind: rulesFrom.kind, schema: rulesFrom.schema)
        }
        file.records += 1
        recordOffsets?.append(record.origin.byteOffset)
        let cellErrors = cellErrorsContext?._withUnsafeGuaranteedRef { $0.takeCellErrors() } ?? []
        if capped {
            file.uncheckedRecords += 1
            return
        }
        let rules = rulesReference.unsafelyUnwrapped
        if !cellErrors.isEmpty || !rules._withUnsafeGuaranteedRef({ $0.passes(record) }) {
            flushKeys(reader)
            let problems = rules._withUnsafeGuaranteedRef { $0.problems(of: record) }
            for problem in Self.inColumnOrder(cellErrors.map { Diagnostic($0) }, problems, of: record) {
                report(locate(problem, of: record, reader: reader))
            }
        }
        // The address, as `ObjectIdentifier` is: `record.fields` counts a reference.
        if positions.fields != record.fieldsAddress {
            rules._withUnsafeGuaranteedRef { positions = FieldPositions(of: $0, in: record.fields) }
        }
        // Most schemas have one unique field and one photo field: those
        // are read from the struct, the others from its arrays.
        if positions.unique.count == 1 {
            if positions.firstUnique >= 0 {
                checkUnique(record, at: positions.firstUnique, key: 0, reader: reader, log: log)
            }
        } else {
            let unique = positions.unique
            for index in unique.indices {
                if let position = unique[index] { checkUnique(record, at: position, key: index, reader: reader, log: log) }
            }
        }
        if positions.photos.count == 1 {
            checkPhoto(record, at: positions.firstPhoto, photos: photos, reader: reader)
        } else {
            let photoPositions = positions.photos
            for position in photoPositions { checkPhoto(record, at: position, photos: photos, reader: reader) }
        }
    }

    /// The problems of a record in the order of its fields: those of its
    /// cells that did not fit their types, and those of its rules, but for
    /// the rules' problems of those cells (a cell left null is no missing
    /// field). Problems of fields the record lacks come last, in the
    /// rules' order.
    static func inColumnOrder(_ cellErrors: [Diagnostic], _ problems: [Diagnostic], of record: RawRecord) -> [Diagnostic] {
        // Most invalid records have no cell error and one problem: those
        // are returned as they are, not copied.
        if cellErrors.isEmpty && problems.count <= 1 { return problems }
        func field(_ diagnostic: Diagnostic) -> String? {
            diagnostic.location.field.map(topField)
        }
        let failed = Set(cellErrors.compactMap(field))
        let all = cellErrors + problems.filter { field($0).map { !failed.contains($0) } ?? true }
        guard all.count > 1 else { return all }
        let fields = record.fields
        let columns = all.map { diagnostic in field(diagnostic).flatMap(fields.index(of:)) ?? .max }
        return all.indices.sorted { (columns[$0], $0) < (columns[$1], $1) }.map { all[$0] }
    }

    /// The field a diagnostic's field path starts with (`tags` of
    /// `tags/0`). Most paths are a name alone: `split`, generic over
    /// `StringProtocol`, ran 7,500 instructions a call (42M of 1,122M
    /// validating 100,000 products against shop.schema.json).
    static func topField(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: "/")) else { return path }
        return String(path.split(separator: "/", maxSplits: 1).first ?? "")
    }

    /// Where the unique fields and the photo fields sit in a field list.
    private struct FieldPositions {
        /// The list's address (`RawRecord.address(of:)`).
        var fields: UnsafeRawPointer?
        /// Each unique field's place, nil for one the list lacks.
        var unique: [Int?] = []
        /// The places of the photo fields the list has.
        var photos: [Int] = []
        /// The first unique field's place, -1 for none.
        var firstUnique = -1
        /// The first photo field's place, -1 for none.
        var firstPhoto = -1

        init() {}

        init(of rules: RecordRules, in fields: FieldList) {
            self.fields = RawRecord.address(of: fields)
            unique = rules.uniqueFields.map { fields.index(of: $0) }
            photos = rules.photoFields.compactMap { fields.index(of: $0) }
            firstUnique = unique.first.flatMap { $0 } ?? -1
            firstPhoto = photos.first ?? -1
        }
    }

    /// The rules of the file, chosen at its first record: the user's
    /// schema, or that of the kind asked for, declared or inferred.
    private mutating func makeRules(
        for record: RawRecord, reader: any RecordReader, kind asked: RecordKind?, schema: Schema?
    ) -> RecordRules {
        let made: RecordRules
        if let schema {
            made = RecordRules(schema: schema)
        } else {
            let kind = asked ?? reader.declaredKind ?? RecordKind.infer(from: record.fields)
            made = RecordRules(schema: kind.schema)
            file.kind = kind
        }
        rules = made
        uniqueKeys = made.uniqueFields.map { _ in UniqueKeys(slotLimit: keySlotLimit) }
        return made
    }

    /// Hands a diagnostic to the sink and counts it; errors only when kept.
    /// - Parameter ordinal: the record (0-based) read when it was found,
    ///   for one of no record; the last record read, if nil.
    mutating func report(_ given: consuming Diagnostic, ordinal: Int? = nil) {
        var diagnostic = given
        if countsWarningsAsErrors { diagnostic.severity = .error }
        let kept = sink.diagnostics.count
        let wasCapped = sink.reachedCap
        let (severity, at) = (diagnostic.severity, diagnostic.location.record)
        // Moved into the sink, not copied.
        sink.report(consume diagnostic)
        capped = sink.reachedCap
        let ordinal = ordinal ?? file.records - 1
        if !wasCapped && capped { capRecord = at ?? ordinal }
        if sink.diagnostics.count > kept { ordinals?.append(ordinal) }
        if severity == .warning {
            file.warnings += 1
            return
        }
        guard sink.diagnostics.count > kept else { return }
        file.errors += 1
        // An error of no record (a file that cannot be opened) spoils no
        // record: counting it made "-1 records valid".
        guard let record = at else { return }
        if record != lastFailedRecord {
            lastFailedRecord = record
            file.invalidRecords += 1
        }
    }

    /// Reports a photo's problem after the keys that wait, so that the
    /// problems of a record come in one order: its rules', its keys', its
    /// photo's.
    private mutating func reportAfterKeys(_ diagnostic: Diagnostic, reader: any RecordReader) {
        flushKeys(reader)
        report(diagnostic)
    }

    private mutating func takeWarnings(_ context: ReadContext) {
        for warning in context.takeWarnings() {
            var diagnostic = Diagnostic(warning)
            // RFC 8259 says names should be unique: validate holds it to that.
            if warning.code == .jsonDuplicateName { diagnostic.severity = .error }
            report(diagnostic.located(SourceLocation(file: path)))
        }
    }

    /// The diagnostic at its field's own line and column where the reader
    /// can find it; else at the record's start.
    private func locate(_ given: consuming Diagnostic, of record: RawRecord, reader: any RecordReader) -> Diagnostic {
        var diagnostic = given
        let field = diagnostic.location.field.map(Self.topField)
        // Filled in place: `located` copied the diagnostic twice.
        diagnostic.location.fill(from: SourceLocation(file: path, record: record.origin.index))
        diagnostic.location.fill(from: reader.location(of: field, inRecordAt: record.origin.byteOffset))
        return diagnostic
    }

    // MARK: - Unique keys

    /// Queues the value at `position` to be checked against the keys of
    /// unique field `key`.
    private mutating func checkUnique(
        _ record: RawRecord, at position: Int, key: Int, reader: any RecordReader, log keyLog: KeyLog?
    ) {
        // Logged keys need no text kept: most are text that is its own key
        // text, whose digest is taken in place.
        if let keyLog, case .text(let bytes) = record.values[position], let text = KeyText.inPlace(bytes) {
            if text.isEmpty && rules?.uniqueTyped[key] == true { return }
            return log(KeyDigest(UnsafeRawBufferPointer(text)), key: key, of: record, in: keyLog)
        }
        let start = pendingText.count
        // The key text merge matches by (trimmed, NFC, numbers by value);
        // none for null, nor for an empty value of a typed field.
        guard KeyText.append(record, at: position, to: &pendingText) else { return }
        if pendingText.count == start && rules?.uniqueTyped[key] == true { return }
        let digest = pendingText.withUnsafeBytes { KeyDigest(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        if let keyLog {
            pendingText.removeAll(keepingCapacity: true)
            return log(digest, key: key, of: record, in: keyLog)
        }
        pendingKeys.append(
            PendingKey(
                digest: digest, key: key, record: record.origin.index, byteOffset: record.origin.byteOffset,
                text: start..<pendingText.count))
        if pendingKeys.count >= pendingLimit { flushKeys(reader) }
    }

    /// Logs a key for the check of every part (`KeyLog`).
    @inline(__always)
    private mutating func log(_ digest: KeyDigest, key: Int, of record: RawRecord, in keyLog: KeyLog) {
        do { try keyLog.append(digest, key: key, record: record.origin.index, byteOffset: record.origin.byteOffset) }
        catch { reportOutOfMemory() }
    }

    /// Reports `io.outOfMemory` once: keys the tables or the log could not
    /// take are not checked from here on.
    private mutating func reportOutOfMemory() {
        guard !reportedOutOfMemory else { return }
        reportedOutOfMemory = true
        report(Diagnostic(FerryError.ioOutOfMemory(at: SourceLocation(file: path))))
    }

    /// Puts the waiting keys into their tables, in order, and reports those
    /// an earlier record had.
    private mutating func flushKeys(_ reader: any RecordReader) {
        guard !pendingKeys.isEmpty else { return }
        if !reserved, let expectedBytes, let last = pendingKeys.last, last.record >= 4096, last.byteOffset > 0 {
            reserved = true
            // A guess from the first records, which a file can belie (small
            // records first, large ones after): bounded, so that a wrong one
            // costs at most a table of 48 MiB, and by a key a record of 8
            // bytes; past it the tables double as they fill.
            let guess = Double(last.record + 1) * Double(expectedBytes) / Double(last.byteOffset)
            let records = Int(min(guess, Double(min(Self.largestReservation, expectedBytes / 8))))
            for table in uniqueKeys { table.reserve(keys: table.count + max(records - last.record, 0)) }
        }
        var duplicates: [(PendingKey, first: Int)] = []
        // A table at a time: one reference to it for the whole batch.
        for (key, table) in uniqueKeys.enumerated() {
            for pending in pendingKeys where pending.key == key { table.prefetch(pending.digest) }
            for pending in pendingKeys where pending.key == key {
                if let first = table.insert(pending.digest, record: pending.record) { duplicates.append((pending, first)) }
            }
        }
        if uniqueKeys.contains(where: \.outOfMemory) { reportOutOfMemory() }
        if uniqueKeys.count > 1 { duplicates.sort { ($0.0.record, $0.0.key) < ($1.0.record, $1.0.key) } }
        let texts = duplicates.map { String(decoding: pendingText[$0.0.text], as: UTF8.self) }
        pendingKeys.removeAll(keepingCapacity: true)
        pendingText.removeAll(keepingCapacity: true)
        guard let rules else { return }
        for ((pending, first), text) in zip(duplicates, texts) {
            let field = rules.uniqueFields[pending.key]
            report(
                duplicate(field: field, text: text, record: pending.record, first: first)
                    .located(reader.location(of: field, inRecordAt: pending.byteOffset)))
        }
    }

    /// The error for a key of unique field `field` that record `first` had
    /// before record `record` (both 0-based).
    func duplicate(field: String, text: String, record: Int, first: Int) -> Diagnostic {
        Diagnostic(
            .error, .recordDuplicateKey, [.string(field), .string(text), .integer(first + 1)],
            at: SourceLocation(file: path, record: record, field: field), value: text,
            rule: rules?.uniqueRule(field))
    }

    /// A key's text, as `KeyText` gives it: strings trimmed and in NFC,
    /// numbers by value; nil for null and for values that are no key
    /// (bytes, arrays, objects).
    static func keyText(_ value: Value) -> String? {
        var bytes: [UInt8] = []
        guard KeyText.append(value, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Photos

    /// A product's photo, when present, must be a PNG or a JPEG, by its
    /// bytes; a reference must name a file in the input's folder, read as
    /// `convert` reads it to embed it.
    private mutating func checkPhoto(_ record: RawRecord, at position: Int, photos: PhotoStore?, reader: any RecordReader) {
        // The field's name and location are made only when a check needs them.
        switch record.values[position] {
        case .null:
            return
        case .bytes(let bytes):
            checkImage(bytes, shown: Photo.dataURI(bytes), field: record.fields.names[position], record: record, reader: reader)
        case .text(let text) where !text.isEmpty && !Self.isDataURI(text):
            checkReference(text, at: position, record: record, photos: photos, reader: reader)
        default:
            let field = record.fields.names[position]
            let here = SourceLocation(field: field)
            switch record.value(at: position) {
            case .string(var text) where !text.isEmpty && !Photo.isDataURI(text):
                // A value the reader made whole (the first record, read to
                // infer the kind, comes so): a reference as above.
                text.withUTF8 { checkReference($0, at: position, record: record, photos: photos, reader: reader) }
            case .string(let text) where Photo.isDataURI(text):
                guard let decoded = Photo.bytes(fromDataURI: text) else {
                    let problem = Diagnostic(FerryError.photoInvalidDataURI(at: here), value: text, rule: "photo.format")
                    reportAfterKeys(locate(problem, of: record, reader: reader), reader: reader)
                    return
                }
                decoded.withUnsafeBytes { checkImage($0, shown: text, field: field, record: record, reader: reader) }
            case .bytes(let bytes):
                bytes.withUnsafeBytes { checkImage($0, shown: Photo.dataURI($0), field: field, record: record, reader: reader) }
            default:
                return  // an empty reference, or a value of the wrong type, which the rules report
            }
        }
    }

    /// Whether `text` starts with `data:` (a data URI, not a reference).
    @inline(__always)
    private static func isDataURI(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.count >= 5 && text[0] == 0x64 && text[1] == 0x61 && text[2] == 0x74 && text[3] == 0x61 && text[4] == 0x3A
    }

    /// Checks the photo reference `text` (a path relative to the file's
    /// folder) of the field at `position`: it must not leave the folder,
    /// and, unless `photos` is nil, its file must be there and be an image.
    /// A file a listing of its folder lacks costs a lookup (`PhotoFolders`).
    @inline(__always)
    private mutating func checkReference(
        _ text: UnsafeBufferPointer<UInt8>, at position: Int, record: RawRecord, photos: PhotoStore?,
        reader: any RecordReader
    ) {
        let problem: FerryError
        let reference: String
        let field: String
        if PhotoStore.leavesFolder(text) {
            (reference, field) = (String(decoding: text, as: UTF8.self), record.fields.names[position])
            problem = .photoOutsideFolder(reference, at: SourceLocation(field: field))
        } else if let photos {
            let missing = photos.missingReason(text)
            (reference, field) = (String(decoding: text, as: UTF8.self), record.fields.names[position])
            let here = SourceLocation(field: field)
            if let missing {
                problem = .photoUnreadable(reference, errno: missing, at: here)
            } else {
                do throws(FerryError) {
                    let bytes = try photos.read(reference: reference, at: here)
                    bytes.withUnsafeBytes { checkImage($0, shown: reference, field: field, record: record, reader: reader) }
                    return
                } catch {
                    problem = error
                }
            }
        } else {
            return
        }
        let diagnostic = Diagnostic(problem, value: reference, rule: "photo.format")
        reportAfterKeys(locate(diagnostic, of: record, reader: reader), reader: reader)
    }

    private mutating func checkImage(
        _ bytes: UnsafeRawBufferPointer, shown: @autoclosure () -> String, field: String, record: RawRecord,
        reader: any RecordReader
    ) {
        let type = Photo.imageType(of: bytes)
        guard type != .png && type != .jpeg else { return }
        let diagnostic = Diagnostic(
            .error, .photoNotImage, [.string(type.mediaType)], at: SourceLocation(field: field), value: shown(),
            rule: "photo.format")
        reportAfterKeys(locate(diagnostic, of: record, reader: reader), reader: reader)
    }
}
