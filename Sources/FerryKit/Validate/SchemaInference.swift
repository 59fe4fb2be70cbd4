// MARK: - Design
//
// `ferry schema infer` reads records as `validate` does, one at a time in
// the reader's buffers (raw records where the reader has them), and keeps
// a `FieldProfile` for each field name: what it learnt, never the records.
// Its memory is flat in the number of records but for the unique check,
// which is bounded (see `FieldProfile.uniqueSlotLimit`).
//
//     name,price,sku                 {"$schema": ".../2020-12/schema", "type": "object",
//     Wii,269.00,W-1          ──▶      "required": ["name", "price", "sku"],
//     Wii,199,W-2                      "properties": {
//                                        "name":  {"type": "string", "enum": ["Wii"]},
//                                        "price": {"type": "number", "minimum": 199, "maximum": 269.00},
//                                        "sku":   {"type": "string", "x-ferry-unique": true}}}
//
// Records are read with no kind, so that the schema says what the data
// holds rather than what a kind asks; CSV columns are typed by inference
// (Formats/csv.md), over the whole file. Every rule is one that each
// record read met, so `ferry validate --schema` passes the input.

/// Drafts a JSON Schema (draft 2020-12) from the records of some files.
public struct SchemaInference {
    public let registry: CodecRegistry

    public init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// The draft schema the records of `paths`, taken together, meet.
    /// - Parameters:
    ///   - from: the input format, when the extension or contents cannot tell it.
    ///   - options: the codecs' read options (`--delimiter`, `--null`, …).
    /// - Returns: the schema document, and the readers' warnings.
    /// - Throws: the first problem reading a file, located.
    public func infer(
        _ paths: [String], from: String? = nil, options: OptionValues = OptionValues(), limits: ReadLimits = ReadLimits()
    ) throws(FerryError) -> (schema: Value, warnings: [FerryWarning]) {
        var profiles = FieldProfiles()
        var warnings: [FerryWarning] = []
        for path in paths {
            do throws(FerryError) {
                try OpenedInput.reading(path, limits: limits) { (opened) throws(FerryError) in
                    let codec = try FormatResolver(registry: registry).inputCodec(
                        path: opened.formatPath, prefix: opened.prefix, from: from)
                    let context = ReadContext(kind: .generic, options: options, limits: limits)
                    let reader = try opened.makeReader(codec, path: path, context: context)
                    if let raw = reader as? any RawRecordReader {
                        while try raw.readRaw({ (record) throws(FerryError) in profiles.observe(record) }) {}
                    } else {
                        while let record = try reader.next() {
                            RawRecord.with(record) { profiles.observe($0) }
                        }
                    }
                    warnings += context.takeWarnings()
                }
            } catch {
                throw error.located(SourceLocation(file: path))
            }
        }
        return (profiles.schema(), warnings)
    }

    /// A schema document as indented JSON text, with a final line break.
    package static func text(of schema: Value) -> String { schema.prettyJSON }
}

/// The profiles of every field seen, in the order first seen.
struct FieldProfiles {
    private var profiles: [FieldProfile] = []
    private var indexByName: [String: Int] = [:]
    /// The profile index of each field of a list, by the list's address;
    /// the lists are kept so that no address is reused.
    private var lists: [UnsafeRawPointer: [Int]] = [:]
    private var listsKept: [FieldList] = []
    /// The last list looked up, and its indexes: records of one file share
    /// a list, so the table is rarely asked.
    private var lastList: (address: UnsafeRawPointer, indexes: [Int])?
    private var records = 0

    /// Learns from one record.
    mutating func observe(_ record: RawRecord) {
        records += 1
        let indexes: [Int]
        if let lastList, lastList.address == record.fieldsAddress {
            indexes = lastList.indexes
        } else {
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
            profiles.append(FieldProfile(name: name))
            indexByName[name] = profiles.count - 1
            return profiles.count - 1
        }
        listsKept.append(fields)
        lists[RawRecord.address(of: fields)] = indexes
        return indexes
    }

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
