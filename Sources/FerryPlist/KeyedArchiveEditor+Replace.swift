import FerryCore

// MARK: - Replacing a record's fields

extension KeyedArchiveEditor {
    /// Rewrites instance `uid`, which reads as `old`, so that it reads as
    /// `record`: the fields whose values differ, and no others.
    mutating func rewrite(_ uid: Int, from old: Record, to record: Record, index: Int) throws(FerryError) {
        guard let instance = instanceOf(.uid(UInt64(uid))) else {
            return try rewriteWhole(uid, with: record, index: index)
        }
        let kind = classMap.kind(of: instance.archiveClass.name) ?? contextKind
        try validate(record, kind: kind, index: index)
        var changed: [(String, Value)] = []
        var cleared: [String] = []
        for (field, value) in record.pairs where !ArchiveClass.isClassField(field) && value != (old[field] ?? .null) {
            if value == .null { cleared.append(field) } else { changed.append((field, value)) }
        }
        for (field, value) in old.pairs where !ArchiveClass.isClassField(field) && record[field] == nil && value != .null {
            cleared.append(field)
        }
        var fields = instance.fields
        if !changed.isEmpty {
            let counts = KeyedArchiveGraph.referenceCounts(header: header, objects: objects)
            var graft = try KeyedArchiveGraft(
                changed, kind: kind ?? .generic, className: instance.archiveClass.name, into: objects, classMap: classMap)
            for (field, value) in changed {
                let written = KeyedArchiveWriter.archivedKey(field)
                let key = Self.key(of: field, in: fields) ?? written
                if case .bytes(let bytes) = value, let image = imageUID(fields[key]) {
                    fields.set(key, to: .uid(UInt64(swapImageData(of: image, to: bytes, counts: counts))))
                } else if let leaf = graft.leaf(ofKey: written), let slot = soleLeaf(fields[key], counts: counts) {
                    // A string or data that nothing else refers to takes the new value in its place.
                    objects[slot] = leaf
                } else if let value = graft.value(ofKey: written, into: &objects) {
                    fields.set(key, to: value)
                }
            }
        }
        for field in cleared {
            guard let key = Self.key(of: field, in: fields) else { continue }
            if let nilValue = nilValue(forKey: key, classOf: fields) {
                fields.set(key, to: nilValue)
            } else {
                fields.remove(key)
            }
        }
        objects[uid] = .dictionary(fields)
    }

    /// Writes a record that is no instance (an NSDictionary) again whole,
    /// at its UID.
    private mutating func rewriteWhole(_ uid: Int, with record: Record, index: Int) throws(FerryError) {
        try validate(record, kind: contextKind ?? RecordKind.infer(from: record.fields), index: index)
        var graft = try KeyedArchiveGraft(record.pairs, kind: .generic, className: nil, into: objects, classMap: classMap)
        var objects = self.objects
        objects[uid] = .dictionary(graft.copyInstance(into: &objects))
        self.objects = objects
    }

    /// The key an instance archived `field` under: the field's name, or
    /// with one more `$` for a name that starts with `$`.
    static func key(of field: String, in fields: PlistDictionary) -> String? {
        fields.keys.first { $0 != "$class" && KeyedArchiveDecoder.fieldName($0) == field }
    }

    /// How instances of the class of `fields` archive nil under `key`: a
    /// `$null` reference (as NSKeyedArchiver writes nil), or, when some of
    /// them lack the key and none holds `$null` there, no key (nil).
    func nilValue(forKey key: String, classOf fields: PlistDictionary) -> PlistValue? {
        let null = PlistValue.uid(0)
        guard let classReference = fields["$class"] else { return null }
        var someLack = false
        for case .dictionary(let other) in objects where other["$class"] == classReference {
            guard let value = other[key] else {
                someLack = true
                continue
            }
            if value == null { return null }
        }
        return someLack ? nil : null
    }

    // MARK: - Photos

    /// The UID `reference` names when it is an image instance.
    private func imageUID(_ reference: PlistValue?) -> Int? {
        guard case .uid(let uid)? = reference, uid > 0, uid < UInt64(objects.count),
            KeyedArchiveGraph.archiveClass(of: Int(uid), in: objects, classMap: classMap)?.foundationKind == .image
        else { return nil }
        return Int(uid)
    }

    /// Image `uid` with `bytes` as its data and its other keys as they
    /// were. An image that other objects refer to too is copied first, and
    /// data that other objects refer to is left to them.
    /// - Returns: the UID of the image holding the bytes.
    private mutating func swapImageData(of uid: Int, to bytes: [UInt8], counts: [Int]) -> Int {
        guard case .dictionary(var fields) = objects[uid] else { return uid }
        // An object an earlier field of this edit appended is in no count: this edit alone refers to it.
        let shared = (counts[safe: uid] ?? 0) > 1
        let key = fields["UIImageData"] != nil ? "UIImageData" : dataKey(in: fields) ?? "UIImageData"
        switch fields[key] {
        case .data?:
            fields.set(key, to: .data(bytes))
        case .uid(let data)? where !shared && soleLeaf(.uid(data), counts: counts) != nil:
            objects[Int(data)] = .data(bytes)
        default:
            objects.append(.data(bytes))
            fields.set(key, to: .uid(UInt64(objects.count - 1)))
        }
        guard shared else {
            objects[uid] = .dictionary(fields)
            return uid
        }
        objects.append(.dictionary(fields))
        return objects.count - 1
    }

    /// The key of an image's data in an older key set: the first whose
    /// value is data, in place or referred to.
    private func dataKey(in fields: PlistDictionary) -> String? {
        for (key, value) in zip(fields.keys, fields.values) where key != "$class" {
            if case .data = value { return key }
            if case .uid(let uid) = value, case .data? = objects[safe: Int(clamping: uid)] { return key }
        }
        return nil
    }

    /// The UID `reference` names when it is a leaf (a string, data, a
    /// number) that only one reference reaches.
    private func soleLeaf(_ reference: PlistValue?, counts: [Int]) -> Int? {
        guard case .uid(let uid)? = reference, uid > 0, uid < UInt64(counts.count), counts[Int(uid)] == 1,
            KeyedArchiveGraph.isLeaf(objects[Int(uid)])
        else { return nil }
        return Int(uid)
    }
}
