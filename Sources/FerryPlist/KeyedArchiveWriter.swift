import FerryCore

/// Writes records as an NSKeyedArchiver archive that Foundation's
/// `NSKeyedUnarchiver` reads back: a binary plist whose root is an NSArray of
/// instances, as `archiveRootObject([Product], toFile:)` saves it.
///
/// - Products are instances of `GameStoreiOS.Product` (the seed app's module)
///   and books of `BookStore.Book`; `--class-name` names another class.
///   Generic records become NSDictionary objects, unless a class is named.
/// - Strings, data, dates, arrays and objects are archived objects the
///   fields refer to by UID; numbers and booleans are stored in place, as
///   `encode(_:forKey:)` stores them. A product's price is always a double,
///   as the app's `decodeDouble(forKey:)` expects.
/// - A product's photo is a UIImage whose `UIImageData` holds the bytes.
/// - A null field is a `$null` reference, as a nil property is; in an
///   NSDictionary or NSArray, which cannot hold nil, it is an NSNull.
package final class KeyedArchiveWriter: RecordWriter {
    private let output: any ByteOutput
    private let kind: RecordKind
    private let className: String?
    private var builder = BinaryPlistBuilder()
    /// The plist object of each archive object; entry 1, the root, comes last.
    private var objects: [Int] = []
    private var rootElements: [Int] = []
    private var classes: [String: Int] = [:]
    private let keyClass: Int
    private var finished = false

    /// The class names records get by default.
    package static let defaultProductClass = "GameStoreiOS.Product"
    package static let defaultBookClass = "BookStore.Book"

    /// Where numbers that do not fit their stored form are counted.
    private let losses: LossTally

    package init(_ output: any ByteOutput, kind: RecordKind, className: String?, losses: LossTally = LossTally()) {
        self.output = output
        self.losses = losses
        self.kind = kind
        self.className = className
        // The header's strings go first, so that `$archiver` is near the
        // start of the file, where sniffing looks for it.
        for header in ["$version", "$archiver", "$top", "$objects", "NSKeyedArchiver", "root"] {
            _ = builder.addString(header)
        }
        _ = builder.addInteger(100_000)
        keyClass = builder.addString("$class")
        objects.append(builder.addString("$null"))
        objects.append(0)  // the root, built by finish()
    }

    package func write(_ record: Record) throws(FerryError) {
        let record = losses.storable(record)
        var named: NamedClass?
        do throws(FerryError) {
            // Most records name no class: no pairs are made for them.
            if record["$class"] != nil { named = try NamedClass(record.pairs) }
        } catch {
            throw error.located(SourceLocation(record: record.origin.index))
        }
        // --class-name, then the record's own class, then the kind's.
        let name: String? =
            className ?? named?.name
            ?? (kind == .product ? Self.defaultProductClass : kind == .book ? Self.defaultBookClass : nil)
        guard let name else {
            rootElements.append(try dictionaryObject(record.pairs, record: record))
            return
        }
        let chain = className == nil ? named?.chain : nil
        if let named {
            rootElements.append(try instanceObject(named.fields, className: name, chain: chain, record: record))
        } else {
            rootElements.append(
                try instanceObject(zip(record.fields.names, record.values), className: name, chain: chain, record: record))
        }
    }

    package func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        let elements = rootElements.map { builder.addUID(UInt64($0)) }
        let arrayClass = builder.addUID(UInt64(classObject("NSArray", chain: ["NSArray", "NSObject"])))
        objects[1] = builder.addDictionary(
            keys: [builder.addString("NS.objects"), keyClass], values: [builder.addArray(elements), arrayClass])
        let top = builder.addDictionary(keys: [builder.addString("root")], values: [builder.addUID(1)])
        let header = builder.addDictionary(
            keys: ["$version", "$archiver", "$top", "$objects"].map { builder.addString($0) },
            values: [
                builder.addInteger(100_000), builder.addString("NSKeyedArchiver"), top, builder.addArray(objects),
            ])
        try builder.write(top: header, to: output)
        try output.flush()
    }

    // MARK: - Instances

    /// An instance of class `className` (whose superclasses are `chain`, or
    /// NSObject alone) holding `pairs`; `record` is set for a record, whose
    /// kind decides how its price and photo are stored.
    private func instanceObject(
        _ pairs: some Sequence<(String, Value)>, className: String, chain: [String]?, record: Record?
    ) throws(FerryError) -> Int {
        var keys: [Int] = []
        var values: [Int] = []
        for (field, value) in pairs {
            do throws(FerryError) {
                guard let encoded = try fieldValue(value, field: record == nil ? nil : field) else { continue }
                keys.append(builder.addString(Self.archivedKey(field)))
                values.append(encoded)
            } catch {
                throw error.located(SourceLocation(record: record?.origin.index, field: field))
            }
        }
        keys.append(keyClass)
        let description = classObject(className, chain: chain ?? ArchiveClass.usualChain(className))
        values.append(builder.addUID(UInt64(description)))
        return append(builder.addDictionary(keys: keys, values: values))
    }

    /// The key a field is archived under: a name that starts with `$` gets
    /// one more, as NSKeyedArchiver escapes it, so that no field can pass
    /// for `$class`.
    static func archivedKey(_ field: String) -> String {
        field.utf8.first == UInt8(ascii: "$") ? "$" + field : field
    }

    // MARK: - Fields

    /// How a field is stored in its instance: a number or boolean in place,
    /// anything else as a UID; null as the UID of `$null`. `field` is the
    /// name of a record's field, whose kind may store it its own way, and
    /// nil in a nested instance.
    private func fieldValue(_ value: Value, field: String?) throws(FerryError) -> Int? {
        switch value {
        case .null: return builder.addUID(0)
        case .bool(let flag): return builder.addBool(flag)
        case .integer(let number):
            if kind == .product && field == "price" || kind == .book && field == "price" {
                return builder.addReal(Double(number))
            }
            return builder.addInteger(number)
        case .double(let number): return builder.addReal(number)
        case .bytes(let bytes) where kind == .product && field == "photo":
            let data = append(builder.addData(bytes))
            let image = builder.addDictionary(
                keys: [builder.addString("UIImageData"), keyClass],
                values: [builder.addUID(UInt64(data)), builder.addUID(UInt64(classObject("UIImage", chain: ["UIImage", "NSObject"])))])
            return builder.addUID(UInt64(append(image)))
        default:
            return builder.addUID(UInt64(try object(value)))
        }
    }

    /// Archives `value` as an object of its own and returns its UID.
    private func object(_ value: Value) throws(FerryError) -> Int {
        switch value {
        case .null:
            let nullClass = classObject("NSNull", chain: ["NSNull", "NSObject"])
            return append(builder.addDictionary(keys: [keyClass], values: [builder.addUID(UInt64(nullClass))]))
        case .bool(let flag): return append(builder.addBool(flag))
        case .integer(let number): return append(builder.addInteger(number))
        case .double(let number): return append(builder.addReal(number))
        case .number(let number): return try object(number.value)
        case .string(let text): return append(builder.addString(text))
        case .bytes(let bytes): return append(builder.addData(bytes))
        case .date(let date):
            let dateClass = classObject("NSDate", chain: ["NSDate", "NSObject"])
            let seconds = builder.addReal(date.timeIntervalSinceReferenceDate)
            return append(
                builder.addDictionary(
                    keys: [builder.addString("NS.time"), keyClass], values: [seconds, builder.addUID(UInt64(dateClass))]))
        case .array(let elements):
            var references: [Int] = []
            for element in elements { references.append(builder.addUID(UInt64(try object(element)))) }
            let arrayClass = classObject("NSArray", chain: ["NSArray", "NSObject"])
            return append(
                builder.addDictionary(
                    keys: [builder.addString("NS.objects"), keyClass],
                    values: [builder.addArray(references), builder.addUID(UInt64(arrayClass))]))
        case .object(let fields):
            let pairs = Array(zip(fields.keys, fields.values))
            // An object that names its class is an instance of it, as the
            // reader makes one of an instance of a class it does not know.
            if let named = try NamedClass(pairs) {
                return try instanceObject(named.fields, className: named.name, chain: named.chain, record: nil)
            }
            return try dictionaryObject(pairs, record: nil)
        }
    }

    /// An NSDictionary of `pairs`; a null value is an NSNull.
    private func dictionaryObject(_ pairs: [(String, Value)], record: Record?) throws(FerryError) -> Int {
        var keys: [Int] = []
        var values: [Int] = []
        for (key, value) in pairs {
            do throws(FerryError) {
                keys.append(builder.addUID(UInt64(append(builder.addString(key)))))
                values.append(builder.addUID(UInt64(try object(value))))
            } catch {
                throw error.located(SourceLocation(record: record?.origin.index, field: key))
            }
        }
        let dictionaryClass = classObject("NSDictionary", chain: ["NSDictionary", "NSObject"])
        return append(
            builder.addDictionary(
                keys: [builder.addString("NS.keys"), builder.addString("NS.objects"), keyClass],
                values: [builder.addArray(keys), builder.addArray(values), builder.addUID(UInt64(dictionaryClass))]))
    }

    // MARK: - Objects

    /// Adds a plist object to `$objects`; returns its UID.
    private func append(_ plistObject: Int) -> Int {
        objects.append(plistObject)
        return objects.count - 1
    }

    /// The UID of the class description `name`, written once.
    private func classObject(_ name: String, chain: [String]) -> Int {
        if let known = classes[name] { return known }
        let names = builder.addArray(chain.map { builder.addString($0) })
        let uid = append(
            builder.addDictionary(
                keys: [builder.addString("$classname"), builder.addString("$classes")],
                values: [builder.addString(name), names]))
        classes[name] = uid
        return uid
    }
}

/// The class a record or object names with its `$class` field, and the
/// superclasses its `$classes` field lists, apart from its other fields.
struct NamedClass {
    let name: String
    /// nil without `$classes`: the class, then NSObject.
    let chain: [String]?
    let fields: [(String, Value)]

    /// nil when `pairs` has no `$class`.
    /// - Throws: `archive.classFieldWrongType` (located at the field) for a
    ///   `$class` that is no string or `$classes` that is no array of strings.
    init?(_ pairs: [(String, Value)]) throws(FerryError) {
        guard let classValue = pairs.first(where: { $0.0 == "$class" })?.1 else { return nil }
        guard case .string(let name) = classValue else {
            throw FerryError.archiveClassFieldWrongType(field: "$class", expected: .typeString)
                .located(SourceLocation(field: "$class"))
        }
        var chain: [String]?
        if let listed = pairs.first(where: { $0.0 == "$classes" })?.1 {
            guard case .array(let elements) = listed, !elements.isEmpty else { throw Self.wrongChain() }
            var names: [String] = []
            for element in elements {
                guard case .string(let superclass) = element else { throw Self.wrongChain() }
                names.append(superclass)
            }
            chain = names
        }
        self.name = name
        self.chain = chain
        fields = pairs.filter { !ArchiveClass.isClassField($0.0) }
    }

    private static func wrongChain() -> FerryError {
        FerryError.archiveClassFieldWrongType(field: "$classes", expected: .typeArray).located(SourceLocation(field: "$classes"))
    }
}
