import Foundation
import FerryTestSupport
import Testing

@testable import FerryKit
@testable import FerryPlist

/// The legacy archive and ways to look into the archives the editor writes.
enum EditorFixtures {
    static func legacy() throws -> [UInt8] { try LegacyArchive.binary() }

    static func legacyXML() throws -> [UInt8] { try LegacyArchive.xml() }

    /// The legacy archive in each form.
    static func legacy(_ form: KeyedArchiveEditor.Form) throws -> [UInt8] {
        form == .binary ? try legacy() : try legacyXML()
    }

    static let names = ["Xbox 360", "Wii", "Wireless Controller"]
    static let prices = [299.0, 269.0, 19.99]

    static func photo(_ index: Int) throws -> [UInt8] {
        try TestPaths.examplePhoto(["xbox-360.png", "wii.png", "wireless-controller.png"][index])
    }

    static func editor(_ bytes: [UInt8], options: [String: String] = [:]) throws(FerryError) -> KeyedArchiveEditor {
        try KeyedArchiveEditor(bytes: bytes, name: "Products", context: ReadContext(options: OptionValues(options)))
    }

    /// The top dictionary and `$objects` of an archive, read by the plist
    /// parsers alone.
    static func graph(_ bytes: [UInt8]) throws -> (header: PlistDictionary, objects: [PlistValue]) {
        let top =
            bytes.starts(with: BinaryPlistScanner.magic)
            ? try PlistFixtures.decode(bytes) : try XMLPlistParser.parse(bytes, name: "test")
        guard case .dictionary(let header) = top, case .array(let objects)? = header["$objects"] else {
            Issue.record("not an archive")
            return (PlistDictionary(), [])
        }
        return (header, objects)
    }

    /// The UIDs of the root array's elements.
    static func elements(_ objects: [PlistValue]) -> [Int] {
        guard case .dictionary(let root) = objects[1], case .array(let list)? = root["NS.objects"] else { return [] }
        return list.compactMap { if case .uid(let uid) = $0 { Int(uid) } else { nil } }
    }

    /// Object `uid` with every UID in it replaced by what it names, class
    /// descriptions included: two archives hold the same record when this
    /// is equal, whatever their UIDs.
    static func subgraph(_ uid: Int, in objects: [PlistValue], depth: Int = 0) -> PlistValue {
        guard depth < 64, uid < objects.count else { return .string("<too deep>") }
        return followed(objects[uid], in: objects, depth: depth)
    }

    private static func followed(_ value: PlistValue, in objects: [PlistValue], depth: Int) -> PlistValue {
        switch value {
        case .uid(let uid): return subgraph(Int(uid), in: objects, depth: depth + 1)
        case .array(let elements): return .array(elements.map { followed($0, in: objects, depth: depth) })
        case .dictionary(let dictionary):
            return .dictionary(
                PlistDictionary(zip(dictionary.keys, dictionary.values).map { ($0, followed($1, in: objects, depth: depth)) }))
        default: return value
        }
    }

    /// The instance dictionary at `uid`.
    static func fields(_ uid: Int, in objects: [PlistValue]) -> PlistDictionary {
        guard case .dictionary(let fields) = objects[uid] else { return PlistDictionary() }
        return fields
    }

    /// A product record as the editor's callers give one.
    static func product(_ name: String, price: Value, photo: [UInt8]? = nil) -> Record {
        var pairs: [(String, Value)] = [("name", .string(name)), ("price", price)]
        if let photo { pairs.append(("photo", .bytes(photo))) }
        return Record(pairs)
    }

    /// Record `index` of `editor` with `field` set to `value`.
    static func edited(_ editor: KeyedArchiveEditor, _ index: Int, _ field: String, _ value: Value) throws -> Record {
        let record = try editor.record(at: index)
        var pairs = record.pairs
        if let position = pairs.firstIndex(where: { $0.0 == field }) {
            pairs[position].1 = value
        } else {
            pairs.append((field, value))
        }
        return Record(pairs)
    }
}
