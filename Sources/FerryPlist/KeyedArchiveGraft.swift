import FerryCore

// MARK: - Design
//
// The editor never encodes a record by hand: `KeyedArchiveWriter`, the one
// place that knows how a record becomes archive objects (a price as a real,
// a photo as a UIImage, a field `$note` under `$$note`, nil as `$null`),
// archives the changed fields into a small archive of their own. A graft
// then copies the objects one field refers to into the `$objects` being
// edited, appending them at the end:
//
//     written:  0 "$null"  1 root  2 {name: UID 3, $class: UID 4}  3 "PS5"
//               4 {$classname: "GameStoreiOS.Product", …}
//     edited:   … 17 "PS5"           (UID 3 grafted; the field's value is UID 17)
//
// Class descriptions are not copied when the edited archive describes a
// class of that name already: the copy refers to the archive's own. A
// UIImage is built like the archive's first image: its class, and its
// other keys (`UIScale`, `UIImageOrientation`, `UIKitDidEncode`) with their
// values, around the new `UIImageData`.

/// The objects `KeyedArchiveWriter` made for some fields, and the copying of
/// them into the `$objects` of an archive being edited.
struct KeyedArchiveGraft {
    /// The written archive's `$objects`.
    let written: [PlistValue]
    /// The instance the written archive's root array holds.
    let instance: PlistDictionary
    /// Written UIDs already copied, and where to.
    private var copies: [Int: Int] = [:]
    /// The edited archive's class descriptions by name, found on first use.
    private var classes: [String: Int]?
    private let classMap: ClassMap
    /// An image in the edited archive that new images copy their shape from.
    private let imageTemplate: (uid: Int, fields: PlistDictionary)?

    /// Archives `pairs` as one instance of `className`, as `ferry convert`
    /// archives a record of `kind`.
    /// - Throws: the writer's errors (`archive.classFieldWrongType`, …).
    init(
        _ pairs: [(String, Value)], kind: RecordKind, className: String?, into objects: [PlistValue], classMap: ClassMap
    ) throws(FerryError) {
        let output = MemoryOutput()
        let writer = KeyedArchiveWriter(output, kind: kind, className: className)
        try writer.write(Record(pairs))
        try writer.finish()
        let contents = InputBytes(output.bytes)
        let scanner = try BinaryPlistScanner(contents, name: output.name, limits: ReadLimits())
        var decoder = BinaryPlistDecoder(scanner, limits: ReadLimits(), fileSize: contents.count)
        guard case .dictionary(let top) = try decoder.value(scanner.topObject),
            case .array(let written)? = top["$objects"], written.count > 1,
            case .dictionary(let root) = written[1], case .array(let elements)? = root["NS.objects"],
            case .uid(let first)? = elements.first, first < UInt64(written.count),
            case .dictionary(let instance) = written[Int(first)]
        else { throw .archiveNotArchive(at: SourceLocation(file: output.name)) }
        self.written = written
        self.instance = instance
        self.classMap = classMap
        imageTemplate = Self.firstImage(in: objects, classMap: classMap)
    }

    /// The written value of `key` in the instance, its UIDs now naming
    /// copies in `objects`; nil when the writer left the key out.
    mutating func value(ofKey key: String, into objects: inout [PlistValue]) -> PlistValue? {
        instance[key].map { copy($0, into: &objects) }
    }

    /// The written object `key` refers to when it is a single value (a
    /// string, data, a number), which may take an old object's place.
    func leaf(ofKey key: String) -> PlistValue? {
        guard case .uid(let uid)? = instance[key], let object = written[safe: Int(clamping: uid)] else { return nil }
        switch object {
        case .dictionary, .array, .uid: return nil
        case .string(let text) where text == "$null": return nil
        default: return object
        }
    }

    /// The written instance, its UIDs naming copies in `objects`.
    mutating func copyInstance(into objects: inout [PlistValue]) -> PlistDictionary {
        copy(instance, into: &objects)
    }

    /// `value` with every UID in it naming the copy of what it named.
    mutating func copy(_ value: PlistValue, into objects: inout [PlistValue]) -> PlistValue {
        switch value {
        case .uid(let uid): return .uid(UInt64(copyObject(Int(clamping: uid), into: &objects)))
        case .array(let elements):
            return .array(elements.map { copy($0, into: &objects) })
        case .dictionary(let dictionary): return .dictionary(copy(dictionary, into: &objects))
        default: return value
        }
    }

    private mutating func copy(_ dictionary: PlistDictionary, into objects: inout [PlistValue]) -> PlistDictionary {
        var copied = PlistDictionary()
        for (key, element) in zip(dictionary.keys, dictionary.values) {
            copied.append(key: key, value: copy(element, into: &objects))
        }
        return copied
    }

    /// The UID in `objects` of written object `uid`, copying it (once) at
    /// the end. `$null` stays UID 0; a class description the archive has
    /// already is the archive's.
    private mutating func copyObject(_ uid: Int, into objects: inout [PlistValue]) -> Int {
        guard uid > 0, let object = written[safe: uid] else { return 0 }
        if let known = copies[uid] { return known }
        let made: PlistValue
        if case .dictionary(let dictionary) = object, case .string(let name)? = dictionary["$classname"] {
            if let existing = classUID(name, in: objects) { return remember(uid, as: existing) }
            made = object
        } else if case .dictionary(let dictionary) = object, let template = imageTemplate, isImage(dictionary) {
            made = .dictionary(image(dictionary, like: template, into: &objects))
        } else {
            made = copy(object, into: &objects)
        }
        objects.append(made)
        return remember(uid, as: objects.count - 1)
    }

    private mutating func remember(_ uid: Int, as target: Int) -> Int {
        copies[uid] = target
        return target
    }

    /// A written image rebuilt in the shape of the archive's `template`.
    private mutating func image(
        _ written: PlistDictionary, like template: (uid: Int, fields: PlistDictionary), into objects: inout [PlistValue]
    ) -> PlistDictionary {
        var made = PlistDictionary()
        let data = written["UIImageData"].map { copy($0, into: &objects) }
        for (key, value) in zip(template.fields.keys, template.fields.values) {
            if key == "UIImageData", let data {
                made.append(key: key, value: data)
            } else if key == "$class" || !value.holdsUID {
                // The class, and numbers and flags such as UIScale, as the
                // archive's images have them; objects such as a UIImageName
                // belong to that image alone.
                made.append(key: key, value: value)
            }
        }
        if made["UIImageData"] == nil, let data { made.set("UIImageData", to: data) }
        return made
    }

    private func isImage(_ dictionary: PlistDictionary) -> Bool {
        guard case .uid(let classUID)? = dictionary["$class"],
            case .dictionary(let description)? = written[safe: Int(clamping: classUID)],
            case .string(let name)? = description["$classname"]
        else { return false }
        return classMap.isImage(name)
    }

    private mutating func classUID(_ name: String, in objects: [PlistValue]) -> Int? {
        if classes == nil {
            var found: [String: Int] = [:]
            for (uid, object) in objects.enumerated() {
                guard case .dictionary(let dictionary) = object, case .string(let className)? = dictionary["$classname"]
                else { continue }
                if found[className] == nil { found[className] = uid }
            }
            classes = found
        }
        return classes?[name]
    }

    /// The first instance in `objects` of an image class that holds
    /// `UIImageData`, with its fields.
    static func firstImage(in objects: [PlistValue], classMap: ClassMap) -> (uid: Int, fields: PlistDictionary)? {
        for (uid, object) in objects.enumerated() {
            guard case .dictionary(let fields) = object, fields["UIImageData"] != nil,
                case .uid(let classUID)? = fields["$class"],
                case .dictionary(let description)? = objects[safe: Int(clamping: classUID)],
                case .string(let name)? = description["$classname"], classMap.isImage(name)
            else { continue }
            return (uid, fields)
        }
        return nil
    }
}

extension PlistValue {
    /// Whether the value is a UID or holds one.
    var holdsUID: Bool {
        switch self {
        case .uid: true
        case .array(let elements): elements.contains { $0.holdsUID }
        case .dictionary(let dictionary): dictionary.values.contains { $0.holdsUID }
        default: false
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
