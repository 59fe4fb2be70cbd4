import FerryCore

/// Questions about the UIDs of a keyed archive's `$objects` as a whole,
/// which editing asks: what `$top` reaches, how often each object is
/// referred to, and the class of an instance.
///
/// The objects come from a parsed archive, so each is shallow (its nesting
/// was bounded by the parser), but the graph they form may be deep or have
/// cycles: the walk keeps its own stack and a mark an object.
enum KeyedArchiveGraph {
    /// One flag an object: whether `$top` reaches it through UIDs. `$null`
    /// (UID 0) counts as reached.
    static func reached(from header: PlistDictionary, objects: [PlistValue]) -> [Bool] {
        var reached = [Bool](repeating: false, count: objects.count)
        var pending: [Int] = []
        func visit(_ uid: Int) {
            guard uid >= 0, uid < reached.count, !reached[uid] else { return }
            reached[uid] = true
            pending.append(uid)
        }
        visit(0)
        if let top = header["$top"] { forEachUID(in: top, visit) }
        while let uid = pending.popLast() { forEachUID(in: objects[uid], visit) }
        return reached
    }

    /// How many times each object is referred to, by every object in
    /// `$objects` and by `$top`, reached or not.
    /// - Complexity: O(size of the objects).
    static func referenceCounts(header: PlistDictionary, objects: [PlistValue]) -> [Int] {
        var counts = [Int](repeating: 0, count: objects.count)
        func count(_ uid: Int) {
            if uid >= 0 && uid < counts.count { counts[uid] += 1 }
        }
        if let top = header["$top"] { forEachUID(in: top, count) }
        for object in objects { forEachUID(in: object, count) }
        return counts
    }

    /// Calls `body` with each UID in `value`, which is one object: arrays
    /// and dictionaries in it are walked, UIDs are not followed.
    static func forEachUID(in value: PlistValue, _ body: (Int) -> Void) {
        switch value {
        case .uid(let uid): body(Int(clamping: uid))
        case .array(let elements): for element in elements { forEachUID(in: element, body) }
        case .dictionary(let dictionary): for element in dictionary.values { forEachUID(in: element, body) }
        default: break
        }
    }

    /// The class of instance `uid`, or nil when it is no instance or its
    /// `$class` names no class description.
    static func archiveClass(of uid: Int, in objects: [PlistValue], classMap: ClassMap) -> ArchiveClass? {
        guard case .dictionary(let fields)? = objects[safe: uid], case .uid(let classUID)? = fields["$class"],
            case .dictionary(let description)? = objects[safe: Int(clamping: classUID)]
        else { return nil }
        return ArchiveClass(description: description, classMap: classMap)
    }

    /// Whether `object` is one value that no other object is part of: a
    /// string (not `$null`), data, a number, a date or a boolean.
    static func isLeaf(_ object: PlistValue) -> Bool {
        switch object {
        case .dictionary, .array, .uid, .null: false
        case .string(let text): text != "$null"
        default: true
        }
    }
}
