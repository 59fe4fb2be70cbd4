import FerryCore

/// Streams the records of a keyed archive: the objects of its root array
/// (the shape `NSKeyedArchiver.archiveRootObject([Product], toFile:)` saves),
/// or the root object itself when it is a single instance or dictionary.
///
/// Each instance becomes a record of its fields by key. Its class decides its
/// kind: `Product` or `*.Product` is a product, `Book` or `*.Book` a book,
/// and `--class-map NAME=kind` names others. Instances of other classes keep
/// their class name in a `$class` field, and their superclasses in
/// `$classes` unless they are NSObject alone.
package final class KeyedArchiveReader: RecordReader {
    // The state below is shared with the raw reading of
    // KeyedArchiveReader+Raw.swift. It is never shared between threads, so
    // the run-time exclusivity checks are left out of what each record uses.
    @exclusivity(unchecked) var decoder: KeyedArchiveDecoder
    private let classMap: ClassMap
    private let context: ReadContext
    /// The records' elements: decoded, or the UIDs of a binary archive's
    /// root array as numbers.
    let elements: RootElements
    var position = 0
    private var failure: FerryError?
    /// Whether the error being thrown skipped one bad element (see `readNext`).
    private var lastErrorResumes = false
    package var resumesAfterError: Bool { lastErrorResumes }
    /// Whether `failure` is set: cheaper to test for every record than
    /// copying the optional error out.
    private var failed = false
    private var recentFields: [FieldList] = []
    private var classKinds: [String: RecordKind?] = [:]
    package private(set) var declaredKind: RecordKind?
    private var kindDeclared = false
    /// The cells of the raw record being read, reused from one to the next.
    @exclusivity(unchecked) var rawBuffers = RawRecordBuffers()
    /// How the last few key sets of instances read raw turn into fields.
    @exclusivity(unchecked) var keySets = KeySetCache<InstanceKeys?>()
    /// The same for the UIImages of their photos.
    @exclusivity(unchecked) var imageKeySets = KeySetCache<ImageKeys?>()
    /// How each field of the instance being read raw is to be read.
    /// Plain memory, made and grown as needed (not in the initializer, whose
    /// failure would skip the `deinit` that frees it): storing a plan costs
    /// no uniqueness check (`FieldPlan` holds no references).
    @exclusivity(unchecked) var plans = UnsafeMutableBufferPointer<FieldPlan>(start: nil, count: 0)
    /// The scanner of a binary archive and where its `$objects` references
    /// start, for reading entries in place. The decoder holds the scanner
    /// for as long as the reader lives, so this reference counts nothing:
    /// the raw path looks at it once a record.
    unowned(unsafe) let entryScanner: BinaryPlistScanner?
    let entryList: Int
    /// The classes of the instances read raw lately, with their kinds.
    @exclusivity(unchecked) var recentClasses: [KnownClass] = []
    @exclusivity(unchecked) var recentClassNames: [String] = []
    @exclusivity(unchecked) var recentClassChains: [Value?] = []

    /// - Throws: `archive.*` header errors, `format.notRecords` when the root
    ///   holds no records, and the plist's errors.
    package init(_ objects: KeyedArchiveObjects, context: ReadContext, classMap: ClassMap) throws(FerryError) {
        decoder = KeyedArchiveDecoder(objects, limits: context.limits, classMap: classMap)
        entryScanner = objects.entries?.scanner
        entryList = objects.entries?.list ?? 0
        self.classMap = classMap
        self.context = context
        let root = objects.root
        guard let (rootClass, fields, uids) = try decoder.classOf(root, separating: "NS.objects") else {
            let found = try decoder.value(uid: root, depth: 1)
            throw .formatNotRecords(found: found.typeName, at: decoder.location(root))
        }
        if rootClass.foundationKind == .array {
            // A collection of records, as `archiveRootObject([Product], …)` saves.
            if let uids {
                elements = RootElements(uids: uids)
            } else {
                guard case .array(let list)? = fields["NS.objects"] ?? KeyedArchiveDecoder.numberedElements(fields) ?? .array([]) else {
                    throw .archiveWrongType(root, field: "NS.objects", expected: .typeArray, at: decoder.location(root, field: "NS.objects"))
                }
                elements = RootElements(list)
            }
        } else {
            elements = RootElements([.uid(UInt64(root))])
        }
    }

    deinit {
        rawBuffers.deallocate()
        plans.deallocate()
        keySets.deallocate()
        imageKeySets.deallocate()
    }

    package func next() throws(FerryError) -> Record? {
        try readNext { (element) throws(FerryError) in try record(element) }
    }

    /// Reads the next element with `read`; nil at the end. An error is
    /// located at the record and kept: every later call throws it again.
    func readNext<Read>(_ read: (PlistValue) throws(FerryError) -> Read) throws(FerryError) -> Read? {
        if failed, let failure { throw failure }
        lastErrorResumes = false
        guard position < elements.count else { return nil }
        do throws(FerryError) {
            let result = try read(elements[position])
            position += 1
            return result
        } catch {
            let located = error.located(SourceLocation(file: decoder.objects.name, record: position))
            if context.resumesAfterBadRecords, elements.count > 1, error.spoilsOneRecord {
                // One bad element of the root array: the next call reads
                // the one after it.
                position += 1
                lastErrorResumes = true
                throw located
            }
            failure = located
            failed = true
            throw located
        }
    }

    func record(_ element: PlistValue) throws(FerryError) -> Record {
        guard case .uid(let reference) = element else {
            throw .archiveWrongType(decoder.objects.root, field: "NS.objects", expected: .typeUID, at: decoder.location(decoder.objects.root))
        }
        let uid = try decoder.checked(reference, from: decoder.objects.root)
        let origin = RecordOrigin(index: position, byteOffset: decoder.objects.byteOffset(of: uid) ?? 0)
        let value = try decoder.value(uid: uid, depth: 2)
        guard case .object(var object) = value else {
            throw .archiveRecordNotObject(uid, found: value.typeName, at: decoder.location(uid))
        }
        var kind: RecordKind?
        if object.keys.first == "$class", case .string(let className) = object.values[0], let mapped = classKind(className) {
            kind = mapped
            // A record of a kind is written back as the kind's class.
            object["$class"] = nil
            if object.keys.first == "$classes" { object["$classes"] = nil }
        }
        recordRead(kind: kind)
        return Record(fields: fieldList(object.keys), values: object.values, origin: origin)
    }

    /// Notes the kind of the first record, and warns of the named images
    /// of the record just read.
    func recordRead(kind: RecordKind?) {
        if !kindDeclared {
            kindDeclared = true
            declaredKind = kind
        }
        // Most records name no image: no loop, and no emptying of an empty array.
        guard !decoder.namedImages.isEmpty else { return }
        for name in decoder.namedImages {
            context.warn(FerryWarning(.archiveNamedImage, [.string(name)], at: SourceLocation(file: decoder.objects.name, record: position)))
        }
        decoder.clearNamedImages()
    }

    /// The kind of class `name`, looked up once per class.
    func classKind(_ name: String) -> RecordKind? {
        if let known = classKinds[name] { return known }
        let found = classMap.kind(of: name)
        if classKinds.count < 4096 { classKinds[name] = found }
        return found
    }

    /// A field list for `names`, shared with earlier records that had the
    /// same names (compared byte by byte).
    private func fieldList(_ names: [String]) -> FieldList {
        for fields in recentFields where fields.names.count == names.count
            && zip(fields.names, names).allSatisfy({ $0.hasSameBytes(as: $1) })
        {
            return fields
        }
        let made = FieldList(names)
        if recentFields.count == 16 { recentFields.removeFirst() }
        recentFields.append(made)
        return made
    }
}

/// Which archived classes are which kinds of record, and which are images.
package struct ClassMap: Sendable, Hashable {
    /// Names given with `--class-map`, before the built-in rules.
    package var names: [String: RecordKind]
    /// Classes given with `--class-map NAME=image`, besides UIImage and
    /// `*.UIImage`.
    package var images: Set<String>

    /// What `--class-map` maps a class to besides a kind of record.
    package static let image = "image"

    package init(_ names: [String: RecordKind] = [:], images: Set<String> = []) {
        self.names = names
        self.images = images
    }

    /// Parses `NAME=kind[,NAME=kind…]`, where a kind is `product`, `book`
    /// or `image`.
    /// - Throws: `usage.invalidValue` for a pair without a known kind.
    package init(parsing text: String) throws(FerryError) {
        var names: [String: RecordKind] = [:]
        var images: Set<String> = []
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw .usageInvalidValue(option: "class-map", value: text, expected: .message(.expectedClassMap))
            }
            let name = String(parts[0])
            if parts[1] == Self.image {
                images.insert(name)
                names[name] = nil
            } else if let kind = RecordKind(rawValue: String(parts[1])), kind != .generic {
                names[name] = kind
                images.remove(name)
            } else {
                throw .usageInvalidValue(option: "class-map", value: text, expected: .message(.expectedClassMap))
            }
        }
        self.names = names
        self.images = images
    }

    /// The kind of records of class `name`, or nil for a class of no kind.
    package func kind(of name: String) -> RecordKind? {
        if let given = names[name] { return given }
        if images.contains(name) { return nil }
        switch Self.baseName(name) {
        case "Product": return .product
        case "Book": return .book
        default: return nil
        }
    }

    /// Whether instances of class `name` are images: UIImage, `*.UIImage`
    /// (a Swift class named UIImage, in any module), or a class mapped to
    /// `image`. A class mapped to a kind of record is none.
    package func isImage(_ name: String) -> Bool {
        if images.contains(name) { return true }
        return names[name] == nil && Self.baseName(name) == "UIImage"
    }

    /// A Swift class's name without its module: `Product` for
    /// `GameStoreiOS.Product`.
    static func baseName(_ name: String) -> Substring {
        guard let dot = name.lastIndex(of: ".") else { return name[...] }
        return name[name.index(after: dot)...]
    }
}

extension KeyedArchiveReader: StructureReporting {
    /// The archive's object count and the classes of all its instances.
    package func structure() throws(FerryError) -> InputStructure {
        var objects = decoder.objects
        var counts: [String: Int] = [:]
        var order: [String] = []
        var names: [Int: String] = [:]
        for index in 0..<objects.count {
            guard case .dictionary(let dictionary) = try objects.object(index), case .uid(let uid)? = dictionary["$class"]
            else { continue }
            let classIndex = Int(clamping: uid)
            let name: String
            if let known = names[classIndex] {
                name = known
            } else {
                guard classIndex < objects.count, case .dictionary(let description) = try objects.object(classIndex),
                    case .string(let className)? = description["$classname"]
                else { throw .archiveInvalidClass(index, at: decoder.location(index)) }
                name = className
                names[classIndex] = name
            }
            if counts[name] == nil { order.append(name) }
            counts[name, default: 0] += 1
        }
        let classes = order.map { (name: $0, count: counts[$0] ?? 0) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
        return InputStructure(objectCount: objects.count, classes: classes)
    }
}

/// The elements of an archive's root: decoded values, or the numbers of a
/// binary archive's array of UIDs.
struct RootElements {
    private let values: [PlistValue]
    private let uids: [UInt64]

    init(_ values: [PlistValue]) {
        self.values = values
        uids = []
    }

    init(uids: [UInt64]) {
        values = []
        self.uids = uids
    }

    var count: Int { values.isEmpty ? uids.count : values.count }

    subscript(position: Int) -> PlistValue {
        values.isEmpty ? .uid(uids[position]) : values[position]
    }
}
