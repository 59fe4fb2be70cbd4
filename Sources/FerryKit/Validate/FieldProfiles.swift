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
    private var lastList: (address: UnsafeRawPointer, indexes: [Int])?
    private(set) var records = 0

    /// Learns from one record; `context`'s deferred fields are those of its reader.
    mutating func observe(_ record: RawRecord, context: ReadContext) {
        records += 1
        let indexes: [Int]
        if let lastList, lastList.address == record.fieldsAddress {
            indexes = lastList.indexes
        } else {
            deferredNames = Set(context.deferredFields)
            indexes = lists[record.fieldsAddress] ?? addList(record.fields)
            lastList = (record.fieldsAddress, indexes)
        }
        for (position, index) in indexes.enumerated() {
            profiles[index].observe(record, at: position, ordinal: records - 1)
        }
    }

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
            profiles.append(FieldProfile(name: name, deferred: deferredNames.contains(name)))
            indexByName[name] = profiles.count - 1
            return profiles.count - 1
        }
        listsKept.append(fields)
        lists[RawRecord.address(of: fields)] = indexes
        return indexes
    }

    /// Ends the reading of a file or a part: every profile's pending keys
    /// go into its unique check. Called before `merge` and `resolved`.
    mutating func finish() {
        for index in profiles.indices { profiles[index].finish() }
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
    func schema() -> Value {
        var properties = OrderedObject()
        var required: [Value] = []
        for profile in profiles {
            properties.append(key: profile.name, value: profile.schema())
            if profile.filled == records && records > 0 { required.append(.string(profile.name)) }
        }
        var document = OrderedObject()
        document.append(key: "$schema", value: .string("https://json-schema.org/draft/2020-12/schema"))
        document.append(key: "type", value: .string("object"))
        if !required.isEmpty { document.append(key: "required", value: .array(required)) }
        document.append(key: "properties", value: .object(properties))
        return .object(document)
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

    init(name: String) { typed = FieldProfile(name: name) }

    /// Whether a cell turned the column into text: nothing more to learn.
    @inline(__always)
    var isText: Bool { typed == nil }

    /// Learns from a cell of the column, read as text.
    func observe(_ cell: RawValue, others: UnsafeBufferPointer<Value>, ordinal: Int) {
        switch cell {
        case .null:
            // The `--null` text: null whatever the type.
            return
        case .text(let bytes):
            let shapes = column.observe(bytes)
            if column.isText {
                typed = nil
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
            typed = nil
        case .bool, .integer, .double, .number, .bytes:
            // A reader that leaves the column untyped hands over no such cell.
            column.observeText()
            typed = nil
        }
    }

    /// Ends the reading (see `FieldProfile.finish`).
    func finish() { typed?.finish() }

    /// Adds what `later`, the same column in the records after these, saw.
    func merge(_ later: DeferredColumn) {
        column.merge(later.column)
        if column.isText {
            typed = nil
        } else if let theirs = later.typed {
            typed?.merge(theirs)
        }
    }

    /// The profile as the inferred type reads the cells; nil when the
    /// column is text.
    var typedProfile: FieldProfile? { column.type == nil ? nil : typed }
}
