import FerryCore

// MARK: - Design
//
// An edit changes an archive's object graph where the edited records are,
// and nowhere else. `Examples/Products` holds, among its 17 objects:
//
//      1  {NS.objects: [UID 7, UID 11, UID 15], $class: UID 16}   the root
//      5  {UIImageData: UID 4, UIScale: 1.0, …, $class: UID 3}     a UIImage
//      7  {name: UID 6, photo: UID 5, price: 299.0, $class: UID 2} Xbox 360
//
// - `replace(at: 0, …)` with the price 249 rewrites `price` in object 7
//   alone; a new name takes the place of string 6 when nothing else refers
//   to it, and is appended at the end of `$objects` otherwise; a new photo
//   swaps object 5's `UIImageData` and keeps its `UIScale` and the rest.
// - `append(_:)` adds an instance of the class the other records have
//   (UID 2, `GameStoreiOS.Product`) after object 16, with a UIImage shaped
//   like object 5, and adds its UID to the root's `NS.objects`.
// - `remove(at: 1)` drops UID 11 from `NS.objects`.
//
// No object is ever renumbered: every UID an untouched record holds still
// names what it named. Objects that no edit left reachable from `$top`
// (the removed Wii, its name and its photo) are blanked to the string
// `$null` when the archive is encoded, so that their data leaves the file;
// blanked and orphaned slots at the end of `$objects` are dropped. Objects
// the input already left unreachable stay as they were.
//
// The archive is parsed with the project's scanners, and every record is
// read once by `KeyedArchiveReader` first, so a damaged archive fails with
// the reader's own error (`archive.cycle`, `bplist.invalidTrailer`, …).
// `encoded()` writes the whole plist again with `BinaryPlistBuilder` or
// `XMLPlistWriter`, in the form it came in.

/// Edits the records of an NSKeyedArchiver archive in its object graph,
/// keeping class names, `$classes` chains, image keys and the plist form.
package struct KeyedArchiveEditor {
    /// The plist form of an archive, which encoding keeps.
    package enum Form: Sendable, Hashable {
        case binary, xml
    }

    package let form: Form
    /// The input's name, for locations.
    package let name: String
    /// The archive's top dictionary (`$archiver`, `$version`, `$top`,
    /// `$objects`, in the input's order); `$objects` is replaced on encoding.
    let header: PlistDictionary
    /// The archive's `$objects`, edited.
    var objects: [PlistValue]
    /// The UID of `$top.root`.
    let root: Int
    /// Whether the root is an NSArray (or a set) of records, rather than one.
    private let rootIsArray: Bool
    private let original: [UInt8]
    private var changed = false
    /// Which objects `$top` reached before any edit.
    private let reachedAtStart: [Bool]
    let classMap: ClassMap
    private let context: ReadContext
    /// Whether a replaced or appended record is checked against the
    /// context's schema or its kind first. A caller that checks records
    /// itself (the edit layer, `EditedFile`) turns it off, so that one rule
    /// is applied in one place.
    package var checksRecords = true

    // MARK: - Reading

    /// Parses the archive in `bytes`, a binary or XML plist, and reads every
    /// record once as `KeyedArchiveReader` does.
    /// - Parameters:
    ///   - name: the file's name, for locations.
    ///   - context: the limits, the `class-map` option, and the kind or
    ///     schema that edits are checked against.
    /// - Throws: whatever reading the archive throws: `limit.*`, `bplist.*`,
    ///   `xmlplist.*`, `archive.*`, `format.notRecords`.
    package init(bytes: [UInt8], name: String = "-", context: ReadContext) throws(FerryError) {
        let limits = context.limits
        classMap = try ArchiveCodec.classMap(context)
        let contents = try InputBytes.read(MemoryInput(bytes, name: name), limit: limits.maxInputBytes)
        let top: PlistValue
        if contents.starts(with: BinaryPlistScanner.magic) {
            form = .binary
            try Self.readEveryRecord(
                try KeyedArchiveObjects(binary: contents, name: name, limits: limits), context: context, classMap: classMap)
            let scanner = try BinaryPlistScanner(contents, name: name, limits: limits)
            var decoder = BinaryPlistDecoder(scanner, limits: limits, fileSize: contents.count)
            top = try decoder.value(scanner.topObject)
        } else {
            form = .xml
            top = try XMLPlistParser.parse(bytes, name: name, limits: limits)
            try Self.readEveryRecord(try KeyedArchiveObjects(parsed: top, name: name), context: context, classMap: classMap)
        }
        // The reader has checked the header; these hold.
        guard case .dictionary(let header) = top, case .array(let objects)? = header["$objects"],
            case .dictionary(let topKey)? = header["$top"], case .uid(let root)? = topKey["root"]
        else { throw .archiveNotArchive(at: SourceLocation(file: name)) }
        self.header = header
        self.objects = objects
        self.root = Int(root)
        self.name = name
        self.context = context
        original = bytes
        reachedAtStart = KeyedArchiveGraph.reached(from: header, objects: objects)
        rootIsArray = KeyedArchiveGraph.archiveClass(of: self.root, in: objects, classMap: classMap)?.foundationKind == .array
    }

    private static func readEveryRecord(
        _ objects: KeyedArchiveObjects, context: ReadContext, classMap: ClassMap
    ) throws(FerryError) {
        let reader = try KeyedArchiveReader(objects, context: context, classMap: classMap)
        while try reader.next() != nil {}
    }

    /// The number of records: the root array's elements, or 1 for a root
    /// that is one instance.
    package var count: Int { elements.count }

    /// Record `index`, decoded exactly as `KeyedArchiveReader` decodes it.
    /// - Throws: `archive.noSuchRecord`; the reader's errors.
    package func record(at index: Int) throws(FerryError) -> Record {
        try checkIndex(index)
        let reader = try makeReader()
        reader.position = index
        guard let record = try reader.next() else { throw noSuchRecord(index) }
        return record
    }

    /// Every record, in order.
    /// - Throws: the reader's errors.
    package func records() throws(FerryError) -> [Record] {
        let reader = try makeReader()
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    private func makeReader() throws(FerryError) -> KeyedArchiveReader {
        try KeyedArchiveReader(
            try KeyedArchiveObjects(parsed: .dictionary(currentHeader(objects)), name: name), context: context,
            classMap: classMap)
    }

    // MARK: - Editing

    /// Replaces record `index`: its instance keeps its UID, its class and
    /// the keys it had; only the fields whose values differ are written.
    /// A field `record` lacks, or holds null, becomes nil as the class
    /// archives nil (a `$null` reference, or no key). A new photo keeps the
    /// old UIImage's other keys. `$class` and `$classes` fields are ignored:
    /// the class stays.
    /// - Throws: `archive.noSuchRecord`; the first rule of the record's kind
    ///   (or of the context's schema) it breaks, such as `record.emptyField`
    ///   or `record.negative`, located at the record; the writer's errors.
    ///   On an error the archive is as it was.
    package mutating func replace(at index: Int, with record: Record) throws(FerryError) {
        let old = try self.record(at: index)
        let uid = try elementUID(index)
        var edited = self
        try edited.rewrite(uid, from: old, to: record, index: index)
        edited.changed = true
        self = edited
    }

    /// Appends a record: an instance of the class of the last record (so
    /// `GameStoreiOS.Product` in the GameStore's archive), or, in an archive
    /// without one, of the class `KeyedArchiveWriter` gives it; a photo is
    /// a UIImage shaped like the archive's others.
    /// - Throws: `archive.rootNotArray`; the kind's or schema's rules, as
    ///   `replace(at:with:)`; the writer's errors.
    package mutating func append(_ record: Record) throws(FerryError) {
        let list = try rootArray()
        let template = list.last.flatMap { instanceOf($0) }
        let kind = template.flatMap { classMap.kind(of: $0.archiveClass.name) } ?? context.kind ?? RecordKind.infer(from: record.fields)
        try validate(record, kind: kind, index: list.count)
        // Records archived as NSDictionaries get another NSDictionary.
        let lastIsDictionary = list.last.flatMap { element -> ArchiveClass? in
            guard case .uid(let uid) = element else { return nil }
            return KeyedArchiveGraph.archiveClass(of: Int(clamping: uid), in: objects, classMap: classMap)
        }?.foundationKind == .dictionary
        var edited = self
        var graft = try KeyedArchiveGraft(
            record.pairs, kind: lastIsDictionary ? .generic : kind, className: template?.archiveClass.name, into: objects,
            classMap: classMap)
        var instance = graft.copyInstance(into: &edited.objects)
        if let template {
            // The class's other keys, nil as the class archives nil.
            for (key, value) in zip(template.fields.keys, template.fields.values)
            where instance[key] == nil && value.holdsUID {
                if let nilValue = edited.nilValue(forKey: key, classOf: template.fields) {
                    instance.set(key, to: nilValue)
                }
            }
        }
        edited.objects.append(.dictionary(instance))
        edited.setRootArray(list + [.uid(UInt64(edited.objects.count - 1))])
        edited.changed = true
        self = edited
    }

    /// Removes record `index` from the root array. Its objects are blanked
    /// on encoding, unless something else still refers to them.
    /// - Throws: `archive.noSuchRecord`, `archive.rootNotArray`.
    package mutating func remove(at index: Int) throws(FerryError) {
        try checkIndex(index)
        var list = try rootArray()
        list.remove(at: index)
        setRootArray(list)
        changed = true
    }

    // MARK: - Encoding

    /// The archive in the form it came in: its own bytes when nothing was
    /// edited, else the whole plist written again around the edited objects.
    /// - Throws: `xmlplist.invalidCharacter` and the like for an XML archive
    ///   whose new strings XML cannot carry; `io.writeFailed`.
    package func encoded() throws(FerryError) -> [UInt8] {
        guard changed else { return original }
        let reached = KeyedArchiveGraph.reached(from: header, objects: objects)
        var objects = self.objects
        for uid in objects.indices where !reached[uid] && (uid >= reachedAtStart.count || reachedAtStart[uid]) {
            objects[uid] = .string("$null")
        }
        // Blank slots at the end go: nothing refers to them.
        while let last = objects.indices.last, last > root, !reached[last],
            last >= reachedAtStart.count || reachedAtStart[last]
        {
            objects.removeLast()
        }
        let top = PlistValue.dictionary(currentHeader(objects))
        switch form {
        case .xml:
            return try XMLPlistWriter.document(top, dataLines: XMLPlistWriter.DataLines(of: original))
        case .binary:
            var builder = BinaryPlistBuilder()
            let output = MemoryOutput(name: name)
            let topObject = builder.add(top)
            try builder.write(top: topObject, to: output)
            return output.bytes
        }
    }

    private func currentHeader(_ objects: [PlistValue]) -> PlistDictionary {
        var header = header
        header.set("$objects", to: .array(objects))
        return header
    }

    // MARK: - The root

    /// The root's elements: the UIDs of its array, or the root alone.
    private var elements: [PlistValue] {
        guard rootIsArray else { return [.uid(UInt64(root))] }
        guard case .dictionary(let fields) = objects[root] else { return [] }
        if case .array(let list)? = fields["NS.objects"] { return list }
        if case .array(let list)? = KeyedArchiveDecoder.numberedElements(fields) { return list }
        return []
    }

    /// The root's `NS.objects`, which appending and removing edit.
    /// - Throws: `archive.rootNotArray` for a root that is one instance (or
    ///   a collection archived one key an element).
    private func rootArray() throws(FerryError) -> [PlistValue] {
        guard rootIsArray, case .dictionary(let fields) = objects[root], case .array(let list)? = fields["NS.objects"] else {
            let className = KeyedArchiveGraph.archiveClass(of: root, in: objects, classMap: classMap)?.name ?? "?"
            throw .archiveRootNotArray(className, at: SourceLocation(file: name))
        }
        return list
    }

    private mutating func setRootArray(_ list: [PlistValue]) {
        guard case .dictionary(var fields) = objects[root] else { return }
        fields.set("NS.objects", to: .array(list))
        objects[root] = .dictionary(fields)
    }

    func checkIndex(_ index: Int) throws(FerryError) {
        guard index >= 0, index < count else { throw noSuchRecord(index) }
    }

    private func noSuchRecord(_ index: Int) -> FerryError {
        .archiveNoSuchRecord(index, count: count, at: SourceLocation(file: name))
    }

    /// The UID of record `index`'s object.
    /// - Throws: `archive.wrongType`, `archive.uidOutOfRange` (which reading
    ///   the record has ruled out already).
    func elementUID(_ index: Int) throws(FerryError) -> Int {
        guard case .uid(let uid) = elements[index] else {
            throw .archiveWrongType(root, field: "NS.objects", expected: .typeUID, at: SourceLocation(file: name))
        }
        guard uid < UInt64(objects.count) else {
            throw .archiveUIDOutOfRange(Int(clamping: uid), count: objects.count, at: SourceLocation(file: name))
        }
        return Int(uid)
    }

    /// The instance a root element names, with its class.
    func instanceOf(_ element: PlistValue) -> ArchiveInstance? {
        guard case .uid(let uid) = element, uid < UInt64(objects.count), case .dictionary(let fields) = objects[Int(uid)],
            let archiveClass = KeyedArchiveGraph.archiveClass(of: Int(uid), in: objects, classMap: classMap),
            archiveClass.foundationKind == nil
        else { return nil }
        return ArchiveInstance(uid: Int(uid), fields: fields, archiveClass: archiveClass)
    }

    // MARK: - Rules

    /// Checks `record` against the context's schema, or else its kind's.
    func validate(_ record: Record, kind: RecordKind?, index: Int) throws(FerryError) {
        guard checksRecords, let schema = context.schema ?? kind?.schema else { return }
        var validator = RecordValidator(schema: schema)
        try validator.validate(record, at: SourceLocation(file: name, record: index))
    }

    /// The kind records of a class of no kind are checked as.
    var contextKind: RecordKind? { context.kind }
}

/// An instance dictionary in `$objects`, with its class.
struct ArchiveInstance {
    let uid: Int
    let fields: PlistDictionary
    let archiveClass: ArchiveClass
}
