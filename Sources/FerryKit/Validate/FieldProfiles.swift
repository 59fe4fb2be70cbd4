// MARK: - Design
//
// The profiles of one read (a file, or a part of one) are kept by field
// name, in the order first seen; reads are merged in order into the
// profiles of all the files, as if their records had come one after
// another (`merge`).
//
// A CSV reader told to leave its free columns untyped
// (`ReadContext.defersTypeInference`) hands their cells over as text and
// names them. Such a column gets two profiles until its type is known at
// the end of the file: the one of its cells as text, and the one of its
// cells as the inferred type would read them, with the inference itself
// (`CSVTypeInference.Column`), which drops the second at the first cell
// that is no number or boolean. `resolved()` keeps the one the type picks:
//
//     zip,price          zip:   text "00123"  | shapes none: text
//     00123,1.50   ──▶   price: text "1.50"   | shapes number, typed 1.50
//     10115,               ... text ""        | (empty: null when typed)
//
// So the file is read once, where the reader's own inference would read
// it twice (a look over the whole file, then the records).
//
// Whether a field's values are unique (`x-ferry-unique`) is found as
// `validate` finds the keys the parts of a file share: each read logs the
// digest of every key with the field's number (`KeyLog`: the profile's
// index twice, plus one for a deferred column's typed cells), and the logs
// of all the reads are matched at the end (`schema()`), each read's
// numbers renamed to the profiles'. A field whose keys repeat early (a
// category, a price) should not log the whole file: the read matches its
// own log after 64 records, then after 4 times as many each time up to
// 65,536, and a field found repeating there logs no more. (A file of 100
// columns of a dozen values each logged 4,096 keys of each column with a
// first check at 4,096: 100 MB, twice main's time; from 64, a few
// thousand keys in all.)
//
//     read 0: sku#6 A, price#2 9.99, sku#6 B, price#2 9.99  ─▶ check at 64: #2 repeats, sku goes on
//     read 1: sku#6 C, sku#6 A                              ─▶ end: sku's A in reads 0 and 1: not unique

/// The profiles of every field seen, in the order first seen.
struct FieldProfiles {
    private var profiles: [FieldProfile] = []
    private var indexByName: [String: Int] = [:]
    /// The fields the reader left untyped (`ReadContext.deferredFields`),
    /// taken when their list first comes.
    private var deferredNames: Set<String> = []
    /// The profile index of each field of a list, by the list's address;
    /// the lists are kept so that no address is reused.
    private var lists: [UnsafeRawPointer: [Int]] = [:]
    private var listsKept: [FieldList] = []
    /// The last list looked up, and its indexes: records of one file share
    /// a list, so the table is rarely asked.
    private var lastList: UnsafeRawPointer?
    private var lastIndexes: [Int] = []
    private(set) var records = 0
    /// The keys of this read's fields (see the design note).
    let keyLog = KeyLog()
    /// The record count at which the read next matches its log, or 0 for none.
    private var nextKeyCheck = FieldProfiles.keyChecks.lowerBound

    /// Learns from one record; `context`'s deferred fields are those of its reader.
    mutating func observe(_ record: RawRecord, context: ReadContext) {
        records += 1
        if lastList != record.fieldsAddress {
            deferredNames = Set(context.deferredFields)
            lastIndexes = lists[record.fieldsAddress] ?? addList(record.fields)
            lastList = record.fieldsAddress
        }
        let ordinal = records - 1
        // Through the buffers, as the profiles are many cells' work each:
        // the arrays' subscripts counted a reference and checked the
        // profiles' uniqueness a cell.
        lastIndexes.withUnsafeBufferPointer { indexes in
            profiles.withUnsafeMutableBufferPointer { profiles in
                for position in indexes.indices {
                    profiles[indexes[position]].observe(record, at: position, ordinal: ordinal)
                }
            }
        }
        if records == nextKeyCheck { checkKeys() }
    }

    /// The reads match their own logs after this many records, and again
    /// at each multiple by 4 up to the last (see the design note).
    static let keyChecks = 1 << 6...1 << 16

    /// Ends the unique check of the fields whose keys repeat in this read
    /// so far. The keys of fields already out of it are left unmatched: a
    /// wide file logs thousands of them before the first check.
    private mutating func checkKeys() {
        nextKeyCheck = nextKeyCheck < Self.keyChecks.upperBound ? nextKeyCheck * 4 : 0
        var fields = [UInt64](repeating: KeyLog.ignored, count: profiles.count * 2)
        for profile in profiles { profile.markChecked(&fields) }
        guard fields.contains(where: { $0 != KeyLog.ignored }) else { return }
        let repeated = KeyLog.repeatedFields(in: [keyLog], fields: [fields], threads: 1)
        for index in profiles.indices { profiles[index].keysRepeat(among: repeated) }
    }

    /// The most fields a read checks for unique values: each takes two
    /// numbers in its log, which has 16 bits for them.
    static let keyedFieldLimit = 1 << 15

    /// The most field lists kept: JSON records whose keys come in ever new
    /// orders would otherwise keep one list each. Past it the table starts
    /// again, and no freed list's address can be found in it.
    static let listLimit = 4096

    private mutating func addList(_ fields: FieldList) -> [Int] {
        if listsKept.count >= Self.listLimit {
            lists.removeAll(keepingCapacity: true)
            listsKept.removeAll(keepingCapacity: true)
        }
        let indexes = fields.names.map { name -> Int in
            if let index = indexByName[name] { return index }
            let number = profiles.count * 2
            profiles.append(
                FieldProfile(
                    name: name, deferred: deferredNames.contains(name),
                    keys: profiles.count < Self.keyedFieldLimit ? (keyLog, number) : nil))
            indexByName[name] = profiles.count - 1
            return profiles.count - 1
        }
        listsKept.append(fields)
        lists[RawRecord.address(of: fields)] = indexes
        return indexes
    }

    /// Ends the reading of a file or a part; a small read's log is packed
    /// (`KeyLog.pack()`). Called before `merge` and `resolved`.
    mutating func finish() {
        for index in profiles.indices { profiles[index].finish() }
        keyLog.pack()
    }

    // MARK: - Merging

    /// Adds the profiles of `later`, the records read after these: those
    /// of the next part of the same file, its columns still undecided.
    mutating func merge(_ later: FieldProfiles) {
        for profile in later.profiles {
            if let mine = indexByName[profile.name] {
                profiles[mine].merge(profile)
            } else {
                profiles.append(profile)
                indexByName[profile.name] = profiles.count - 1
            }
        }
        records += later.records
    }

    /// The profiles with each deferred column's type decided: as typed, or
    /// as text, as the reader's own inference would have read the file.
    func resolved() -> FieldProfiles {
        var resolved = FieldProfiles()
        resolved.records = records
        resolved.indexByName = indexByName
        resolved.profiles = profiles.map { $0.resolved() }
        return resolved
    }

    // MARK: - The schema

    /// The schema document: the draft, an object whose required fields
    /// are those present and not null in every record, and a property for
    /// each field.
    /// - Parameter threads: the threads the keys may be matched on
    ///   (`KeyLog.repeatedFields`; `--jobs`).
    func schema(threads: Int = 2) -> Value {
        var properties = OrderedObject()
        var required: [Value] = []
        let repeated = repeatedFields(threads: threads)
        for (index, profile) in profiles.enumerated() {
            properties.append(key: profile.name, value: profile.schema(unique: !repeated.contains(UInt64(index))))
            if profile.filled == records && records > 0 { required.append(.string(profile.name)) }
        }
        var document = OrderedObject()
        document.append(key: "$schema", value: .string("https://json-schema.org/draft/2020-12/schema"))
        document.append(key: "type", value: .string("object"))
        if !required.isEmpty { document.append(key: "required", value: .array(required)) }
        document.append(key: "properties", value: .object(properties))
        return .object(document)
    }

    /// The indexes of the profiles whose keys repeat: the logs of every
    /// read, matched at once with each read's numbers renamed to them.
    private func repeatedFields(threads: Int) -> Set<UInt64> {
        var logs: [KeyLog] = []
        var fields: [[UInt64]] = []
        var logIndex: [ObjectIdentifier: Int] = [:]
        for (index, profile) in profiles.enumerated() where profile.mayBeUnique {
            for source in profile.keySources {
                let log = logIndex[ObjectIdentifier(source.log)] ?? logs.count
                if log == logs.count {
                    logIndex[ObjectIdentifier(source.log)] = log
                    logs.append(source.log)
                    fields.append([])
                }
                if fields[log].count <= source.number {
                    fields[log] += repeatElement(KeyLog.ignored, count: source.number + 1 - fields[log].count)
                }
                fields[log][source.number] = UInt64(index)
            }
        }
        return logs.isEmpty ? [] : KeyLog.repeatedFields(in: logs, fields: fields, threads: threads)
    }
}

/// A CSV column whose type is inferred from the cells its profile reads
/// as text (see the design note above). A class, so that a profile's check
/// of it is a test of one reference; only the thread that reads the part
/// touches it.
final class DeferredColumn {
    @exclusivity(unchecked) private var column = CSVTypeInference.Column()
    /// The column's profile with its cells as its type reads them (null
    /// when empty); nil once a cell is no number and no boolean.
    @exclusivity(unchecked) private var typed: FieldProfile?

    /// - Parameter keys: the log for the typed cells' keys, and their number in it.
    init(name: String, keys: (log: KeyLog, number: Int)?) { typed = FieldProfile(name: name, keys: keys) }

    /// Whether a cell turned the column into text: nothing more to learn
    /// (`typed` is nil). A flag of its own, as testing the optional for
    /// nil took a call a cell.
    @exclusivity(unchecked) private(set) var isText = false

    /// Learns from a cell of the column, read as text.
    func observe(_ cell: RawValue, others: UnsafeBufferPointer<Value>, ordinal: Int) {
        switch cell {
        case .null:
            // The `--null` text: null whatever the type.
            return
        case .text(let bytes):
            let shapes = column.observe(bytes)
            if column.isText {
                becomeText()
            } else if shapes.contains(.boolean), let flag = BoolText.value(of: bytes) {
                typed?.observe(.bool(flag), others: others, ordinal: ordinal)
            } else if !shapes.isEmpty, let number = DecimalText.cell(bytes) {
                // The cell the reader makes of a number, typed integer or number alike.
                typed?.observe(number, others: others, ordinal: ordinal)
            }
        case .other(let index):
            // An empty cell a short row was padded with is null when typed.
            if case .string(let text) = others[index], text.isEmpty { return }
            if case .null = others[index] { return }
            column.observeText()
            becomeText()
        case .bool, .integer, .double, .number, .bytes:
            // A reader that leaves the column untyped hands over no such cell.
            column.observeText()
            becomeText()
        }
    }

    /// Ends the reading (see `FieldProfile.finish`).
    func finish() { typed?.finish() }

    /// Ends the unique check of the typed cells when `repeated` has their
    /// number (see `FieldProfile.keysRepeat(among:)`).
    func keysRepeat(among repeated: Set<UInt64>) { typed?.keysRepeat(among: repeated) }

    /// Keeps the typed cells' number in `fields` while their keys are checked.
    func markChecked(_ fields: inout [UInt64]) { typed?.markChecked(&fields) }

    /// Adds what `later`, the same column in the records after these, saw.
    func merge(_ later: DeferredColumn) {
        column.merge(later.column)
        if column.isText {
            becomeText()
        } else if let theirs = later.typed {
            typed?.merge(theirs)
        }
    }

    /// Drops the profile of the cells as typed: the column is text.
    private func becomeText() {
        typed = nil
        isText = true
    }

    /// The profile as the inferred type reads the cells; nil when the
    /// column is text.
    var typedProfile: FieldProfile? { column.type == nil ? nil : typed }
}
