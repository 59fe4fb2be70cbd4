import FerryCore

// MARK: - Design
//
// An NSKeyedArchiver archive is a property list whose top dictionary holds
// four keys:
//
//     $archiver  "NSKeyedArchiver"
//     $version   100000
//     $top       {root: UID(1)}
//     $objects   ["$null", {NS.objects: [UID(3)], $class: UID(2)},
//                 {$classname: "NSArray", $classes: ["NSArray", "NSObject"]},
//                 {name: UID(4), price: 269.0, $class: UID(5)}, "Wii",
//                 {$classname: "GameStoreiOS.Product", $classes: [...]}]
//
// Objects refer to each other by UID, an index into `$objects`; UID 0 is
// the `$null` string, which stands for nil. Strings, numbers and data are
// stored as plain plist objects; everything else is a dictionary whose
// `$class` names a class dictionary. `KeyedArchiveObjects` reads the header
// and hands out `$objects` entries one at a time; `KeyedArchiveDecoder`
// follows the UIDs.

/// The `$objects` of a keyed archive, from a binary or an XML plist.
package struct KeyedArchiveObjects {
    /// A binary plist: entries decoded on demand from its `$objects` array.
    private var binary: (decoder: BinaryPlistDecoder, list: Int)?
    /// An XML plist, parsed whole.
    private var parsed: [PlistValue] = []
    /// The number of entries in `$objects`.
    package let count: Int
    /// The UID `$top.root` names.
    package let root: Int
    /// The input's name, for locations.
    package let name: String

    /// Reads the header of a binary archive.
    /// - Throws: `archive.*` header errors and the binary plist's errors.
    package init(binary contents: InputBytes, name: String, limits: ReadLimits) throws(FerryError) {
        let scanner = try BinaryPlistScanner(contents, name: name, limits: limits)
        var decoder = BinaryPlistDecoder(scanner, limits: limits, fileSize: contents.count)
        let top = scanner.topObject
        let here = scanner.location(try scanner.offset(of: top))
        guard case .dictionary(let list, let keyCount) = try scanner.object(top) else {
            throw .archiveNotArchive(at: here)
        }
        var header = PlistDictionary()
        var objects: (list: Int, count: Int)?
        for position in 0..<keyCount {
            let key = try decoder.keyString(try scanner.reference(list, position), of: top)
            let valueIndex = try scanner.reference(list, keyCount + position)
            if key == "$objects" {
                guard case .array(let elements, let elementCount) = try scanner.object(valueIndex) else {
                    throw .archiveHeaderWrongType("$objects", expected: "array", at: here)
                }
                objects = (elements, elementCount)
            } else if key.hasPrefix("$") {
                header.append(key: key, value: try decoder.value(valueIndex, depth: 2))
            }
        }
        guard let objects else { throw .archiveMissingHeader("$objects", at: here) }
        (count, root) = try Self.check(header, count: objects.count, name: name)
        self.name = name
        binary = (decoder, objects.list)
    }

    /// Reads the header of an archive already parsed, such as an XML one.
    package init(parsed top: PlistValue, name: String) throws(FerryError) {
        let here = SourceLocation(file: name)
        guard case .dictionary(let dictionary) = top else { throw .archiveNotArchive(at: here) }
        guard let objectsValue = dictionary["$objects"] else { throw .archiveMissingHeader("$objects", at: here) }
        guard case .array(let objects) = objectsValue else {
            throw .archiveHeaderWrongType("$objects", expected: "array", at: here)
        }
        (count, root) = try Self.check(dictionary, count: objects.count, name: name)
        self.name = name
        parsed = objects
    }

    /// Checks `$archiver`, `$version` and `$top`.
    /// - Returns: the object count and the root's UID.
    private static func check(
        _ header: PlistDictionary, count: Int, name: String
    ) throws(FerryError) -> (count: Int, root: Int) {
        let here = SourceLocation(file: name)
        guard let archiver = header["$archiver"] else { throw .archiveMissingHeader("$archiver", at: here) }
        guard archiver == .string("NSKeyedArchiver") else {
            throw .archiveUnknownArchiver(describe(archiver), at: here)
        }
        guard let version = header["$version"] else { throw .archiveMissingHeader("$version", at: here) }
        guard version == .integer(100_000) else { throw .archiveUnsupportedVersion(describe(version), at: here) }
        guard let top = header["$top"] else { throw .archiveMissingHeader("$top", at: here) }
        guard case .dictionary(let topDictionary) = top else {
            throw .archiveHeaderWrongType("$top", expected: "dict", at: here)
        }
        guard let rootValue = topDictionary["root"] else { throw .archiveMissingHeader("$top.root", at: here) }
        guard case .uid(let root) = rootValue else {
            throw .archiveHeaderWrongType("$top.root", expected: "uid", at: here)
        }
        guard root < UInt64(count) else {
            throw .archiveUIDOutOfRange(Int(clamping: root), count: count, at: here)
        }
        return (count, Int(root))
    }

    /// Entry `index` of `$objects`, decoded whole (entries are shallow: their
    /// references to other entries are UIDs).
    /// - Throws: `archive.uidOutOfRange`; the plist's errors.
    package mutating func object(_ index: Int) throws(FerryError) -> PlistValue {
        guard index >= 0, index < count else {
            throw .archiveUIDOutOfRange(index, count: count, at: SourceLocation(file: name))
        }
        guard let list = binary?.list else { return parsed[index] }
        let reference = try binary?.decoder.scanner.reference(list, index) ?? 0
        return try binary?.decoder.value(reference, depth: 3) ?? .null
    }

    /// Entry `index` as `object(_:)` decodes it, except that in a binary
    /// archive the value of `key`, when it is an array of UIDs, comes back
    /// as plain numbers (see `BinaryPlistDecoder.dictionary(_:depth:separating:)`).
    package mutating func object(
        _ index: Int, separating key: String
    ) throws(FerryError) -> (PlistValue, uids: [UInt64]?) {
        guard index >= 0, index < count, let list = binary?.list else { return (try object(index), nil) }
        let reference = try binary?.decoder.scanner.reference(list, index) ?? 0
        guard let (dictionary, uids) = try binary?.decoder.dictionary(reference, depth: 3, separating: key) else {
            return (try object(index), nil)
        }
        return (.dictionary(dictionary), uids)
    }

    /// The scanner of a binary archive and where its `$objects` references
    /// start, for readers that decode entries in place; nil for a parsed
    /// archive.
    var entries: (scanner: BinaryPlistScanner, list: Int)? {
        guard let binary else { return nil }
        return (binary.decoder.scanner, binary.list)
    }

    /// Counts `count` plist values of plist object `object` against the
    /// budget of the binary decoder, as `object(_:)` counts the values it
    /// decodes.
    mutating func spendDecoding(_ count: Int, atPlistObject object: Int) throws(FerryError) {
        try binary?.decoder.spend(count, at: object)
    }

    /// Where entry `index` starts in a binary file, for locations.
    package func byteOffset(of index: Int) -> Int? {
        guard let binary, index >= 0, index < count else { return nil }
        do throws(FerryError) {
            return try binary.decoder.scanner.offset(of: try binary.decoder.scanner.reference(binary.list, index))
        } catch {
            return nil
        }
    }

    /// A header value as a message shows it: a string or a version number
    /// as it is, anything else by its type's name in the reader's language.
    static func describe(_ value: PlistValue) -> MessageArgument {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .ungrouped(Int(number))
        default: .typeName(value.typeName)
        }
    }
}
