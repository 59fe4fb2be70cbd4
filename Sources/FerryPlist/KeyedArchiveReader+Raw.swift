import FerryCore

// MARK: - Design
//
// Raw records from a binary archive. `record(_:)` decodes an instance the
// general way: the whole entry into a `PlistValue` dictionary, each field
// through `KeyedArchiveDecoder`, the result into an `OrderedObject` and then
// a `Record`. For the common shape, the GameStore app's products, that is
// most of the work: an instance of a class that is no Foundation class,
// with string keys, a `$class` UID, and fields that are numbers in place or
// UIDs of strings, `$null` and UIImages.
//
// Such an instance is read in place instead, in two steps:
// 1. Look, changing nothing: the entry is a dictionary, its key set is one
//    seen before (by reference bytes, `KeySetCache`) or valid, its class is
//    a custom class, and each field is planned (`FieldPlan`). Anything else,
//    or anything malformed, leaves the record to `record(_:)`.
// 2. Read: spend the budgets, enter the instance for cycle checks, and fill
//    the cells, in the order the general path does, so that any error comes
//    out the same. ASCII strings stay in the file as text cells, a UIImage
//    of data becomes its bytes; a field of any other kind (a date, a nested
//    instance, an image of another shape) goes through the decoder's
//    `field`, as in the general path.
//
// RawRecordTests check that both paths give the same bytes and the same
// errors, over the examples, the corpora and generated archives.

/// What a key set of an instance turns into, made once per key set. A
/// class, so handing it out retains one object, not each of its members.
final class InstanceKeys {
    /// Where `$class` is among the keys.
    let classSlot: Int
    /// The other keys, in order, as archived.
    let names: [String]
    /// The record's fields when the class maps to a kind (no `$class`),
    /// when it does not (`$class` first), and when it does not and has an
    /// unusual chain (`$class`, then `$classes`); escaped keys unescaped.
    let kindFields: FieldList
    let classFields: FieldList
    let chainFields: FieldList

    init(classSlot: Int, names: [String]) {
        self.classSlot = classSlot
        self.names = names
        let fields = names.map(KeyedArchiveDecoder.fieldName)
        kindFields = FieldList(fields)
        classFields = FieldList(["$class"] + fields)
        chainFields = FieldList(["$class", "$classes"] + fields)
    }
}

/// What the raw path needs of a class met lately: plain values, which copy
/// without reference counts (its name and `$classes` are kept apart, in
/// `recentClassNames` and `recentClassChains`).
struct KnownClass {
    let uid: UInt64
    let foundationKind: ArchiveClass.FoundationKind?
    /// The kind it maps to, for a class that is no Foundation class.
    let kind: RecordKind?
    /// Whether records of the class have a `$classes` field.
    let hasChain: Bool
}

/// How one field of an instance is read.
enum FieldPlan {
    /// A number, boolean or ASCII string stored in place.
    case inline(RawValue)
    /// The UID of an ASCII string entry (plist object `entry`), `$null`
    /// included (text nil).
    case string(uid: Int, entry: Int, text: UnsafeBufferPointer<UInt8>?)
    /// The UID of a UIImage (plist object `entry`, a dictionary of `count`
    /// scalars) whose `UIImageData` is data: in place (`dataUID` nil) or the
    /// entry `dataUID` (plist object `dataEntry`).
    case image(uid: Int, entry: Int, count: Int, dataUID: Int?, dataEntry: Int, data: UnsafeRawBufferPointer)
    /// The UID of anything else, decoded the general way.
    case follow(uid: Int, key: Int)
}

/// Where `$class` and `UIImageData` are among the keys of a UIImage.
struct ImageKeys {
    let classSlot: Int
    let dataSlot: Int
}

extension KeyedArchiveReader: RawRecordReader {
    /// Hands out up to a few thousand records; the ASCII strings of those
    /// read in place point into the archive, which the reader holds whole.
    package func readRaw(_ body: (RawRecord) throws(FerryError) -> Void) throws(FerryError) -> Bool {
        // The buffers move into a local for the loop, and back after it.
        var buffers = RawRecordBuffers()
        swap(&buffers, &rawBuffers)
        defer { swap(&buffers, &rawBuffers) }
        for _ in 0..<4096 {
            guard let (fields, origin) = try nextRaw(into: &buffers) else { return false }
            try buffers.withRecord(fields: fields, origin: origin, body)
        }
        return true
    }

    /// Reads the next record's cells into `buffers`.
    /// - Returns: its fields and origin; nil at the end.
    private func nextRaw(into buffers: inout RawRecordBuffers) throws(FerryError) -> (FieldList, RecordOrigin)? {
        try readNext { (element) throws(FerryError) in
            if let inPlace = try instanceInPlace(element, into: &buffers) { return inPlace }
            let record = try record(element)
            buffers.removeAll()
            for value in record.values { buffers.append(other: value) }
            return (record.fields, record.origin)
        }
    }

    /// Reads the instance `element` names in place, when it has the common
    /// shape (see the design note).
    /// - Returns: its fields and origin; nil to leave it to `record(_:)`.
    private func instanceInPlace(
        _ element: PlistValue, into buffers: inout RawRecordBuffers
    ) throws(FerryError) -> (FieldList, RecordOrigin)? {
        // 1. Look.
        guard case .uid(let reference) = element, let scanner = entryScanner,
            reference < UInt64(decoder.objects.count)
        else { return nil }
        let uid = Int(reference)
        guard let index = try? scanner.reference(entryList, uid),
            case .dictionary(let list, let count)? = try? scanner.object(index)
        else { return nil }
        guard
            let keys = keySets.entry(
                for: scanner.referenceBytes(list, count: count), count: count,
                make: { Self.instanceKeys(list, count: count, scanner: scanner) })
        else { return nil }
        guard let classReference = try? scanner.reference(list, count + keys.classSlot),
            let classUID = scanner.uidValue(classReference),
            let known = knownClass(classUID, of: uid), recentClasses[known].foundationKind == nil
        else { return nil }
        let kind = recentClasses[known].kind
        // The plans overwrite the last instance's.
        if plans.count < count {
            plans.deallocate()
            plans = .allocate(capacity: count)
        }
        var planned = 0
        for position in 0..<count where position != keys.classSlot {
            guard
                let plan = plan(
                    try? scanner.reference(list, count + position), key: planned, scanner: scanner, entryList: entryList)
            else { return nil }
            plans.initializeElement(at: planned, to: plan)
            planned += 1
        }

        // 2. Read, spending and checking as `record(_:)` would.
        try decoder.spend(uid: uid)
        try decoder.spendDecoding(1 + count, atPlistObject: index)
        try decoder.enter(uid, depth: 2)
        defer { decoder.leave(uid) }
        buffers.removeAll()
        let hasChain = kind == nil && recentClasses[known].hasChain
        if kind == nil { buffers.append(other: .string(recentClassNames[known])) }
        if hasChain, let chain = recentClassChains[known] { buffers.append(other: chain) }
        for plan in plans[0..<planned] {
            switch plan {
            case .inline(let value):
                buffers.cells.append(value)
            case .string(let target, let entry, let text):
                try decoder.spend(uid: target)
                try decoder.spendDecoding(1, atPlistObject: entry)
                buffers.cells.append(text.map(RawValue.text) ?? .null)
            case .image(let target, let entry, let count, let dataUID, let dataEntry, let data):
                try decoder.spend(uid: target)
                try decoder.spendDecoding(1 + count, atPlistObject: entry)
                try decoder.enter(target, depth: 3)
                defer { decoder.leave(target) }
                if let dataUID {
                    try decoder.spend(uid: dataUID)
                    try decoder.spendDecoding(1, atPlistObject: dataEntry)
                }
                buffers.cells.append(.bytes(data))
            case .follow(let target, let key):
                let name = keys.names[key]
                buffers.append(other: try decoder.field(.uid(UInt64(target)), in: uid, field: name, depth: 3))
            }
        }
        recordRead(kind: kind)
        let origin = RecordOrigin(index: position, byteOffset: (try? scanner.offset(of: index)) ?? 0)
        return (kind != nil ? keys.kindFields : hasChain ? keys.chainFields : keys.classFields, origin)
    }

    /// How to read the field whose value is plist object `reference`; nil
    /// when the general path must.
    private func plan(_ reference: Int?, key: Int, scanner: BinaryPlistScanner, entryList: Int) -> FieldPlan? {
        guard let reference else { return nil }
        if let target = scanner.uidValue(reference) {
            guard target < UInt64(decoder.objects.count), let entry = try? scanner.reference(entryList, Int(target))
            else { return nil }
            if case .text(let text)? = try? scanner.rawScalar(entry) {
                return .string(uid: Int(target), entry: entry, text: Self.isNull(text) ? nil : text)
            }
            return imagePlan(Int(target), entry: entry, scanner: scanner, entryList: entryList)
                ?? .follow(uid: Int(target), key: key)
        }
        if let value = try? scanner.rawScalar(reference) { return .inline(value) }
        guard let object = try? scanner.object(reference) else { return nil }
        switch object {
        case .integer(let number): return .inline(.integer(number))
        case .real(let number): return .inline(.double(number))
        case .bool(let flag): return .inline(.bool(flag))
        case .null, .fill: return .inline(.null)
        case .asciiString(let range):
            guard let text = try? scanner.asciiBytes(range, index: reference) else { return nil }
            return .inline(.text(text))
        default: return nil
        }
    }

    /// How to read entry `uid` (plist object `entry`) when it is a UIImage
    /// of scalars whose `UIImageData` is data; nil otherwise.
    private func imagePlan(_ uid: Int, entry: Int, scanner: BinaryPlistScanner, entryList: Int) -> FieldPlan? {
        guard case .dictionary(let list, let count)? = try? scanner.object(entry) else { return nil }
        guard
            let keys = imageKeySets.entry(
                for: scanner.referenceBytes(list, count: count), count: count,
                make: { Self.imageKeys(list, count: count, scanner: scanner) })
        else { return nil }
        // Every value a scalar, as decoding the dictionary then counts one
        // value each; the class a UIImage.
        for position in 0..<count {
            guard let reference = try? scanner.reference(list, count + position), scanner.isScalar(reference)
            else { return nil }
        }
        guard let classReference = try? scanner.reference(list, count + keys.classSlot),
            let classUID = scanner.uidValue(classReference),
            let known = knownClass(classUID, of: uid), recentClasses[known].foundationKind == .image,
            let dataReference = try? scanner.reference(list, count + keys.dataSlot),
            let dataObject = try? scanner.object(dataReference)
        else { return nil }
        switch dataObject {
        case .data(let range):
            return .image(uid: uid, entry: entry, count: count, dataUID: nil, dataEntry: dataReference, data: scanner.payload(range))
        case .uid(let dataUID):
            guard dataUID < UInt64(decoder.objects.count), let dataEntry = try? scanner.reference(entryList, Int(dataUID)),
                case .data(let range)? = try? scanner.object(dataEntry)
            else { return nil }
            return .image(
                uid: uid, entry: entry, count: count, dataUID: Int(dataUID), dataEntry: dataEntry, data: scanner.payload(range))
        default:
            return nil
        }
    }

    /// Where class `uid` is in `recentClasses` (and its name in
    /// `recentClassNames`), put there on first sight; nil for a broken
    /// class, left to `record(_:)`.
    private func knownClass(_ uid: UInt64, of instance: Int) -> Int? {
        for index in recentClasses.indices where recentClasses[index].uid == uid { return index }
        guard uid < UInt64(decoder.objects.count), let archiveClass = try? decoder.archiveClass(Int(uid), of: instance)
        else { return nil }
        let kind = archiveClass.foundationKind == nil ? classKind(archiveClass.name) : nil
        if recentClasses.count == 8 {
            recentClasses.removeFirst()
            recentClassNames.removeFirst()
            recentClassChains.removeFirst()
        }
        recentClasses.append(
            KnownClass(
                uid: uid, foundationKind: archiveClass.foundationKind, kind: kind, hasChain: archiveClass.classesField != nil))
        recentClassNames.append(archiveClass.name)
        recentClassChains.append(archiveClass.classesField)
        return recentClasses.count - 1
    }

    /// Whether an ASCII string is `$null`, which stands for nil.
    private static func isNull(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.count == 5 && text[0] == UInt8(ascii: "$") && text[1] == UInt8(ascii: "n") && text[2] == UInt8(ascii: "u")
            && text[3] == UInt8(ascii: "l") && text[4] == UInt8(ascii: "l")
    }

    /// The fields of an instance with these keys; nil unless every key is a
    /// string, none repeats, and one is `$class`.
    private static func instanceKeys(_ list: Int, count: Int, scanner: BinaryPlistScanner) -> InstanceKeys? {
        guard let names = keyNames(list, count: count, scanner: scanner),
            let classSlot = names.firstIndex(of: "$class")
        else { return nil }
        var others = names
        others.remove(at: classSlot)
        return InstanceKeys(classSlot: classSlot, names: others)
    }

    /// Where `$class` and `UIImageData` are among these keys; nil unless
    /// every key is a string, none repeats, and both are there.
    private static func imageKeys(_ list: Int, count: Int, scanner: BinaryPlistScanner) -> ImageKeys? {
        guard let names = keyNames(list, count: count, scanner: scanner),
            let classSlot = names.firstIndex(of: "$class"), let dataSlot = names.firstIndex(of: "UIImageData")
        else { return nil }
        return ImageKeys(classSlot: classSlot, dataSlot: dataSlot)
    }

    /// The `count` keys whose references start at byte `list`; nil unless
    /// every key is a string and no two have the same bytes.
    private static func keyNames(_ list: Int, count: Int, scanner: BinaryPlistScanner) -> [String]? {
        var names: [String] = []
        for position in 0..<count {
            guard let reference = try? scanner.reference(list, position), let name = try? scanner.string(reference),
                !names.contains(where: { $0.hasSameBytes(as: name) })
            else { return nil }
            names.append(name)
        }
        return names
    }
}
