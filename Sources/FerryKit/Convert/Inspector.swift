/// What `ferry inspect` reports about a file.
public struct Inspection: Sendable {
    public var file: String
    public var format: String
    public var compressed: Bool
    public var kind: RecordKind
    public var records: Int
    /// Every field name, in the order first seen.
    public var fields: [String]
    /// Records whose photo is set (bytes or a reference).
    public var photos: Int
    public var structure: InputStructure
    public var warnings: [FerryWarning]
}

/// Reads a file through and describes it: format, kind, records, fields,
/// photos, and what the format adds (a keyed archive's objects and classes).
public struct Inspector {
    public let registry: CodecRegistry

    public init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// - Throws: the first problem, located.
    public func inspect(
        _ path: String, from: String?, options: OptionValues = OptionValues(), limits: ReadLimits = ReadLimits()
    ) throws(FerryError) -> Inspection {
        do throws(FerryError) {
            return try OpenedInput.reading(path, limits: limits) { (opened) throws(FerryError) in
                let codec = try FormatResolver(registry: registry).inputCodec(
                    path: opened.formatPath, prefix: opened.prefix, from: from)
                let context = ReadContext(options: options, limits: limits)
                let reader = try opened.makeReader(codec, path: path, context: context)
                var records = 0
                var photos = 0
                var kind: RecordKind?
                var fields: [String] = []
                var known: Set<[UInt8]> = []
                var seenLists: Set<ObjectIdentifier> = []
                var listsKept: [FieldList] = []
                var first: Record?
                while let record = try reader.next() {
                    records += 1
                    if records == 1 { first = record }
                    if kind == nil { kind = reader.declaredKind ?? RecordKind.infer(from: record.fields) }
                    // Readers share field lists, so each list's names are looked at
                    // once; the lists are kept alive so that no identifier is reused.
                    if seenLists.insert(ObjectIdentifier(record.fields)).inserted {
                        listsKept.append(record.fields)
                        for name in record.fields.names where known.insert(Array(name.utf8)).inserted {
                            fields.append(name)
                        }
                    }
                    if let photo = record["photo"], photo != .null { photos += 1 }
                }
                let structure = try (reader as? any StructureReporting)?.structure() ?? InputStructure()
                if records == 1, let first, codec.options.contains(where: { $0.name == JSONCodec.recordsAt }),
                    options[JSONCodec.recordsAt] == nil, let member = Self.memberHoldingRecords(first)
                {
                    context.warn(.inspectRecordsInMember(member, pointer: JSONPointer.member(member), path: path))
                }
                return Inspection(
                    file: path, format: codec.id, compressed: opened.isCompressed, kind: kind ?? .generic,
                    records: records, fields: fields, photos: photos, structure: structure,
                    warnings: context.takeWarnings())
            }
        } catch {
            throw error.located(SourceLocation(file: path))
        }
    }

    /// The one member of `record` that holds an array of objects, if
    /// exactly one does: `{"products": [{…}, {…}], "count": 2}` is more
    /// likely a wrapper around records than one record.
    static func memberHoldingRecords(_ record: Record) -> String? {
        var found: [String] = []
        for (name, value) in zip(record.fields.names, record.values) {
            guard case .array(let elements) = value, !elements.isEmpty,
                elements.allSatisfy({ if case .object = $0 { true } else { false } })
            else { continue }
            found.append(name)
        }
        return found.count == 1 ? found[0] : nil
    }
}
