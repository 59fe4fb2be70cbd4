#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import FerryCore

/// Follows the UIDs of a keyed archive and turns its objects into values.
///
/// Foundation's classes become the values they stand for: NSArray, NSSet and
/// NSOrderedSet arrays, NSDictionary objects, NSString strings, NSData bytes,
/// NSDate dates, NSNull null, NSUUID and NSURL strings. A UIImage (or
/// `*.UIImage`, or a class the class map names an image) becomes its image
/// bytes. Any other class becomes an object of its fields by key, with
/// its class name under `$class`.
///
/// Like the binary plist decoder it refuses cycles (`archive.cycle`), nesting
/// past the limit and sharing that multiplies without end.
package struct KeyedArchiveDecoder {
    package private(set) var objects: KeyedArchiveObjects
    private let maxDepth: Int
    /// One bit an object: set while the object is on the path being decoded.
    /// A class, so that setting a bit costs no uniqueness check: copies of
    /// the decoder share it (a decoder is used from one place).
    private let onPath: PathBits
    private var classes: [Int: ArchiveClass] = [:]
    private var budget: Int
    private let initialBudget: Int
    /// Names of images that a UIImage named without holding their bytes.
    package private(set) var namedImages: [String] = []

    /// Which classes are images besides UIImage (`--class-map NAME=image`).
    private let classMap: ClassMap

    package init(_ objects: KeyedArchiveObjects, limits: ReadLimits, classMap: ClassMap = ClassMap()) {
        self.objects = objects
        self.classMap = classMap
        maxDepth = limits.maxDepth
        onPath = PathBits(count: objects.count)
        initialBudget = max(objects.count, 1 << 16) * 16
        budget = initialBudget
    }

    // MARK: - Classes

    /// The class of a `$class` reference, read once per class dictionary.
    /// - Throws: `archive.invalidClass` when it is no class dictionary.
    package mutating func archiveClass(_ uid: Int, of object: Int) throws(FerryError) -> ArchiveClass {
        if let known = classes[uid] { return known }
        guard case .dictionary(let dictionary) = try objects.object(uid),
            let made = ArchiveClass(description: dictionary, classMap: classMap)
        else {
            throw .archiveInvalidClass(object, at: location(object))
        }
        classes[uid] = made
        return made
    }

    /// The class of object `index` when it is an instance dictionary.
    /// The field `key` comes apart as numbers when it is an array of UIDs
    /// (see `KeyedArchiveObjects.object(_:separating:)`).
    package mutating func classOf(
        _ index: Int, separating key: String
    ) throws(FerryError) -> (ArchiveClass, PlistDictionary, uids: [UInt64]?)? {
        let (object, uids) = try objects.object(index, separating: key)
        guard case .dictionary(let dictionary) = object, let classValue = dictionary["$class"] else { return nil }
        guard case .uid(let uid) = classValue else { throw .archiveInvalidClass(index, at: location(index)) }
        return (try archiveClass(try checked(uid, from: index), of: index), dictionary, uids)
    }

    // MARK: - Values

    /// The value a UID stands for.
    /// - Parameter depth: the nesting of the value (1 for the root).
    package mutating func value(uid: Int, depth: Int) throws(FerryError) -> Value {
        try spend(uid: uid)
        let object = try objects.object(uid)
        switch object {
        case .string(let text):
            // `$null` stands for nil wherever a UID points at it.
            return text == "$null" ? .null : .string(text)
        case .dictionary(let dictionary):
            // Every dictionary NSKeyedArchiver puts in `$objects` is an instance.
            guard let classValue = dictionary["$class"] else { throw .archiveMissingClass(uid, at: location(uid)) }
            guard case .uid(let classUID) = classValue else { throw .archiveInvalidClass(uid, at: location(uid)) }
            let archiveClass = try archiveClass(try checked(classUID, from: uid), of: uid)
            try enter(uid, depth: depth)
            defer { leave(uid) }
            return try instance(uid, of: archiveClass, fields: dictionary, depth: depth)
        case .array, .uid:
            // Not what NSKeyedArchiver writes, but their UIDs are followed
            // too, so they are on the path like an instance, one level deeper.
            try enter(uid, depth: depth)
            defer { leave(uid) }
            return try inline(object, in: uid, key: nil, depth: depth + 1)
        default:
            return try inline(object, in: uid, key: nil, depth: depth)
        }
    }

    /// Counts `count` plist values of an entry (plist object `object`)
    /// against the binary decoder's budget, as decoding the entry would.
    mutating func spendDecoding(_ count: Int, atPlistObject object: Int) throws(FerryError) {
        try objects.spendDecoding(count, atPlistObject: object)
    }

    /// Counts one followed UID against the budget, as `value(uid:depth:)`
    /// does first.
    /// - Throws: `limit.expansionTooLarge`.
    mutating func spend(uid: Int) throws(FerryError) {
        budget -= 1
        if budget < 0 { throw .expansionTooLarge(limit: initialBudget, at: location(uid)) }
    }

    /// Puts object `uid` on the path being decoded.
    /// - Throws: `limit.nestingTooDeep`; `archive.cycle` when it already is.
    @inline(__always)
    func enter(_ uid: Int, depth: Int) throws(FerryError) {
        guard depth <= maxDepth else { throw .nestingTooDeep(limit: maxDepth, at: location(uid)) }
        guard uid >= 0, uid < objects.count else {
            throw .archiveUIDOutOfRange(uid, count: objects.count, at: SourceLocation(file: objects.name))
        }
        guard onPath.insert(uid) else { throw .archiveCycle(uid, at: location(uid)) }
    }

    @inline(__always)
    func leave(_ uid: Int) { onPath.remove(uid) }

    /// A value stored in an instance's dictionary: a UID to follow, or a
    /// number, string or data stored in place.
    package mutating func field(_ value: PlistValue, in object: Int, field key: String, depth: Int) throws(FerryError) -> Value {
        if case .uid(let uid) = value { return try self.value(uid: try checked(uid, from: object), depth: depth) }
        return try inline(value, in: object, key: key, depth: depth)
    }

    private mutating func inline(_ value: PlistValue, in object: Int, key: String?, depth: Int) throws(FerryError) -> Value {
        switch value {
        case .uid(let uid): return try self.value(uid: try checked(uid, from: object), depth: depth)
        case .array(let elements):
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try inline(element, in: object, key: key, depth: depth + 1)) }
            return .array(values)
        case .dictionary(let dictionary):
            var fields = OrderedObject()
            for (name, element) in zip(dictionary.keys, dictionary.values) {
                fields.append(key: name, value: try inline(element, in: object, key: name, depth: depth + 1))
            }
            return .object(fields)
        default:
            do throws(FerryError) {
                return try value.recordValue()
            } catch {
                throw error.located(location(object, field: key))
            }
        }
    }

    /// An instance of `archiveClass` with its fields.
    ///
    /// Each kind of class has a function of its own, so that the frame on the
    /// recursion's path (instance → fields → value) stays small: a deep
    /// archive must reach the depth limit, not the end of the stack.
    private mutating func instance(
        _ uid: Int, of archiveClass: ArchiveClass, fields: PlistDictionary, depth: Int
    ) throws(FerryError) -> Value {
        switch archiveClass.foundationKind {
        case .array: return .array(try references(fields, "NS.objects", in: uid, depth: depth))
        case .dictionary: return try dictionaryInstance(uid, fields: fields, depth: depth)
        case .image: return try image(uid, fields: fields, depth: depth)
        case nil: return try customInstance(uid, of: archiveClass, fields: fields, depth: depth)
        case .some(let kind): return try foundationValue(uid, kind: kind, fields: fields, depth: depth)
        }
    }

    /// An instance of a class Ferry does not know: its fields by key.
    @inline(never)
    private mutating func customInstance(
        _ uid: Int, of archiveClass: ArchiveClass, fields: PlistDictionary, depth: Int
    ) throws(FerryError) -> Value {
        var object = OrderedObject()
        object.reserveCapacity(fields.count)
        object.append(key: "$class", value: .string(archiveClass.name))
        if let chain = archiveClass.classesField { object.append(key: "$classes", value: chain) }
        for (key, value) in zip(fields.keys, fields.values) where key != "$class" {
            object.append(key: Self.fieldName(key), value: try field(value, in: uid, field: key, depth: depth + 1))
        }
        return .object(object)
    }

    /// The field an instance's key stands for. NSKeyedArchiver escapes a key
    /// that starts with `$` with one more `$` (`$$note` for `$note`), so
    /// that it cannot pass for one of the archive's own keys; `$$class` and
    /// `$$classes` stay escaped, so that no field passes for the record's
    /// class either.
    static func fieldName(_ key: String) -> String {
        guard key.utf8.starts(with: [UInt8(ascii: "$"), UInt8(ascii: "$")]) else { return key }
        let name = String(decoding: key.utf8.dropFirst(), as: UTF8.self)
        return ArchiveClass.isClassField(name) ? key : name
    }

    /// An NSDictionary: `NS.keys` and `NS.objects`, pairwise.
    @inline(never)
    private mutating func dictionaryInstance(_ uid: Int, fields: PlistDictionary, depth: Int) throws(FerryError) -> Value {
        let keys = try references(fields, "NS.keys", in: uid, depth: depth)
        let values = try references(fields, "NS.objects", in: uid, depth: depth)
        guard keys.count == values.count else {
            throw .archiveWrongType(uid, field: "NS.keys", expected: .typeArray, at: location(uid, field: "NS.keys"))
        }
        var object = OrderedObject()
        for (key, value) in zip(keys, values) {
            guard case .string(let name) = key else {
                throw .archiveWrongType(uid, field: "NS.keys", expected: .typeString, at: location(uid, field: "NS.keys"))
            }
            object[name] = value
        }
        return .object(object)
    }

    /// The Foundation classes that stand for one value: strings, data,
    /// dates, NSNull, UUIDs, URLs and boxed numbers.
    @inline(never)
    private mutating func foundationValue(
        _ uid: Int, kind: ArchiveClass.FoundationKind, fields: PlistDictionary, depth: Int
    ) throws(FerryError) -> Value {
        switch kind {
        case .string:
            guard let text = fields["NS.string"] ?? fields["NS.bytes"] else { return .string("") }
            switch try field(text, in: uid, field: "NS.string", depth: depth + 1) {
            case .string(let string): return .string(string)
            case .bytes(let bytes): return .string(String(decoding: bytes, as: UTF8.self))
            default:
                throw .archiveWrongType(uid, field: "NS.string", expected: .typeString, at: location(uid, field: "NS.string"))
            }
        case .data:
            guard let data = fields["NS.data"] else { return .bytes([]) }
            let value = try field(data, in: uid, field: "NS.data", depth: depth + 1)
            guard case .bytes = value else {
                throw .archiveWrongType(uid, field: "NS.data", expected: .typeData, at: location(uid, field: "NS.data"))
            }
            return value
        case .date:
            guard case .real(let seconds)? = fields["NS.time"] else {
                throw .archiveWrongType(uid, field: "NS.time", expected: .typeReal, at: location(uid, field: "NS.time"))
            }
            guard Timestamp.isWritable(sinceReferenceDate: seconds) else {
                throw .plistInvalidDate(uid, seconds: seconds, at: location(uid, field: "NS.time"))
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uuid:
            guard case .data(let bytes)? = fields["NS.uuidbytes"], bytes.count == 16 else {
                throw .archiveWrongType(uid, field: "NS.uuidbytes", expected: .typeData, at: location(uid, field: "NS.uuidbytes"))
            }
            return .string(Self.uuidText(bytes))
        case .url:
            let relative = try fields["NS.relative"].map { value throws(FerryError) in
                try field(value, in: uid, field: "NS.relative", depth: depth + 1)
            }
            let base = try fields["NS.base"].map { value throws(FerryError) in
                try field(value, in: uid, field: "NS.base", depth: depth + 1)
            }
            guard case .string(let path)? = relative else {
                throw .archiveWrongType(uid, field: "NS.relative", expected: .typeString, at: location(uid, field: "NS.relative"))
            }
            if case .string(let baseText)? = base { return .string(Self.resolve(path, against: baseText)) }
            return .string(path)
        case .number:
            for key in ["NS.intval", "NS.dblval", "NS.boolval"] {
                if let number = fields[key] { return try field(number, in: uid, field: key, depth: depth + 1) }
            }
            return .null
        case .null, .array, .dictionary, .image:
            return .null
        }
    }

    /// The values of a UID array such as `NS.objects`.
    @inline(never)
    private mutating func references(
        _ fields: PlistDictionary, _ key: String, in uid: Int, depth: Int
    ) throws(FerryError) -> [Value] {
        guard let list = fields[key] ?? (key == "NS.objects" ? Self.numberedElements(fields) : nil) else { return [] }
        guard case .array(let elements) = list else {
            throw .archiveWrongType(uid, field: key, expected: .typeArray, at: location(uid, field: key))
        }
        var values: [Value] = []
        values.reserveCapacity(elements.count)
        for element in elements { values.append(try field(element, in: uid, field: key, depth: depth + 1)) }
        return values
    }

    /// The elements of a collection archived one key each, as NSOrderedSet
    /// (`NS.object.0`, `NS.object.1`, …) and NSCountedSet (`NS.object0`, …) do.
    package static func numberedElements(_ fields: PlistDictionary) -> PlistValue? {
        for prefix in ["NS.object.", "NS.object"] {
            var elements: [PlistValue] = []
            while let element = fields[prefix + String(elements.count)] { elements.append(element) }
            if !elements.isEmpty { return .array(elements) }
        }
        return nil
    }

    // MARK: - Images

    /// A UIImage's bytes: `UIImageData`, or any data that starts like a PNG
    /// or JPEG (older key sets). An image that only names a bundled image
    /// (`UIImageName`) becomes null, and its name is kept for a warning.
    @inline(never)
    private mutating func image(_ uid: Int, fields: PlistDictionary, depth: Int) throws(FerryError) -> Value {
        if let data = fields["UIImageData"] {
            let value = try field(data, in: uid, field: "UIImageData", depth: depth + 1)
            if case .bytes = value { return value }
            if value != .null {
                throw .archiveWrongType(uid, field: "UIImageData", expected: .typeData, at: location(uid, field: "UIImageData"))
            }
        }
        for (key, candidate) in zip(fields.keys, fields.values) where key != "$class" {
            guard case .uid = candidate else {
                if case .data(let bytes) = candidate, Self.looksLikeImage(bytes) { return .bytes(bytes) }
                continue
            }
            if case .bytes(let bytes) = try field(candidate, in: uid, field: key, depth: depth + 1), Self.looksLikeImage(bytes) {
                return .bytes(bytes)
            }
        }
        if let name = fields["UIImageName"], case .string(let text) = try field(name, in: uid, field: "UIImageName", depth: depth + 1) {
            namedImages.append(text)
        }
        return .null
    }

    /// Forgets the image names collected so far, once they are reported.
    package mutating func clearNamedImages() { namedImages.removeAll() }

    static func looksLikeImage(_ bytes: [UInt8]) -> Bool {
        let type = Photo.imageType(of: bytes)
        return type == .png || type == .jpeg
    }

    // MARK: - Helpers

    /// `uid` as an index, when it names an object.
    /// - Throws: `archive.uidOutOfRange`.
    package func checked(_ uid: UInt64, from object: Int) throws(FerryError) -> Int {
        guard uid < UInt64(objects.count) else {
            throw .archiveUIDOutOfRange(Int(clamping: uid), count: objects.count, at: location(object))
        }
        return Int(uid)
    }

    /// Where object `index` is, as far as the format can say.
    package func location(_ index: Int, field: String? = nil) -> SourceLocation {
        SourceLocation(file: objects.name, byteOffset: objects.byteOffset(of: index), field: field)
    }

    static func uuidText(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { byte in
            let digits = Array("0123456789ABCDEF".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    /// `relative` against `base`, as NSURL joins them for the usual cases:
    /// a relative with a scheme stands alone, an absolute path keeps the
    /// base's scheme and host, and any other path replaces the base's last
    /// component.
    static func resolve(_ relative: String, against base: String) -> String {
        let baseBytes = Array(base.utf8)
        let separator = Array("://".utf8)
        if Array(relative.utf8).firstRange(of: separator) != nil || base.isEmpty {
            return relative
        }
        // The path starts after `scheme://host`, or at the start without one.
        let pathStart: Int
        if let scheme = baseBytes.firstRange(of: separator) {
            pathStart = baseBytes[scheme.upperBound...].firstIndex(of: UInt8(ascii: "/")) ?? baseBytes.count
        } else {
            pathStart = 0
        }
        if relative.hasPrefix("/") { return String(decoding: baseBytes[..<pathStart], as: UTF8.self) + relative }
        guard let slash = baseBytes[pathStart...].lastIndex(of: UInt8(ascii: "/")) else {
            return String(decoding: baseBytes[..<pathStart], as: UTF8.self) + "/" + relative
        }
        return String(decoding: baseBytes[...slash], as: UTF8.self) + relative
    }
}

/// A class an archive names, with its superclasses.
package struct ArchiveClass: Sendable, Hashable {
    package let name: String
    /// The class and its superclasses, most derived first, as `$classes`
    /// lists them (the class alone when it lists none).
    package let superclasses: [String]
    /// The superclasses, then the classes a reader may use instead
    /// (`$classhints`).
    package let chain: [String]

    /// What Foundation class this stands for, looked up along the chain
    /// once: every instance of the class asks.
    let foundationKind: FoundationKind?

    /// The `$classes` field of a record of this class: nil for the usual
    /// chain, the class and then NSObject, which writers use when a record
    /// has no `$classes`.
    let classesField: Value?

    init(name: String, superclasses: [String], hints: [String] = [], classMap: ClassMap = ClassMap()) {
        self.name = name
        self.superclasses = superclasses
        chain = superclasses + hints
        foundationKind = chain.lazy.compactMap { FoundationKind.byName[$0] ?? (classMap.isImage($0) ? .image : nil) }.first
        classesField = superclasses == Self.usualChain(name) ? nil : .array(superclasses.map { .string($0) })
    }

    /// The class a class description names: `$classname`, with its
    /// `$classes` and then its `$classhints`, the classes a reader may use
    /// instead when it lacks this one (`classFallbacksForKeyedArchiver`).
    /// - Returns: nil without a `$classname` string.
    init?(description: PlistDictionary, classMap: ClassMap) {
        guard case .string(let name)? = description["$classname"] else { return nil }
        var superclasses: [String] = []
        if case .array(let names)? = description["$classes"] {
            for case .string(let superclass) in names { superclasses.append(superclass) }
        }
        var hints: [String] = []
        if case .array(let names)? = description["$classhints"] {
            for case .string(let hint) in names { hints.append(hint) }
        }
        self.init(name: name, superclasses: superclasses.isEmpty ? [name] : superclasses, hints: hints, classMap: classMap)
    }

    /// The chain of a class that names no other: the class, then NSObject.
    static func usualChain(_ name: String) -> [String] { [name, "NSObject"] }

    /// Whether a record's field `name` names its class (`$class`, `$classes`)
    /// rather than holding a value.
    static func isClassField(_ name: String) -> Bool { name == "$class" || name == "$classes" }

    enum FoundationKind {
        case array, dictionary, string, data, date, null, uuid, url, image, number

        static let byName: [String: FoundationKind] = [
            "NSArray": .array, "NSMutableArray": .array, "NSSet": .array, "NSMutableSet": .array,
            "NSOrderedSet": .array, "NSMutableOrderedSet": .array, "NSCountedSet": .array,
            "NSDictionary": .dictionary, "NSMutableDictionary": .dictionary,
            "NSString": .string, "NSMutableString": .string,
            "NSData": .data, "NSMutableData": .data,
            "NSDate": .date, "NSNull": .null, "NSUUID": .uuid, "NSURL": .url,
            "UIImage": .image, "NSNumber": .number,
        ]
    }
}

/// A set of the UIDs `0..<count`, one bit each.
final class PathBits {
    private let words: UnsafeMutableBufferPointer<UInt64>
    private let count: Int

    init(count: Int) {
        self.count = count
        words = .allocate(capacity: count / 64 + 1)
        words.initialize(repeating: 0)
    }

    deinit { words.deallocate() }

    /// Adds `uid`.
    /// - Returns: false when it was there already, or is outside `0..<count`.
    @inline(__always)
    func insert(_ uid: Int) -> Bool {
        guard uid >= 0 && uid < count else { return false }  // the decoder checks first
        let bit = UInt64(1) << UInt64(uid & 63)
        let word = words[uid >> 6]
        guard word & bit == 0 else { return false }
        words[uid >> 6] = word | bit
        return true
    }

    @inline(__always)
    func remove(_ uid: Int) {
        guard uid >= 0 && uid < count else { return }
        words[uid >> 6] &= ~(UInt64(1) << UInt64(uid & 63))
    }
}
