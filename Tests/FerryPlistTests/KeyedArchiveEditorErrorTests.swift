import Foundation
import FerryTestSupport
import Testing

import FerryCore
@testable import FerryKit
@testable import FerryPlist

/// Edits the rules refuse, indexes past the end, and damaged archives: each
/// a coded error, and the archive as it was.
@Suite struct KeyedArchiveEditorErrorTests {
    typealias Location = FerryCore.SourceLocation
    typealias F = EditorFixtures

    /// The error `body` throws, or nil.
    static func error(_ body: () throws(FerryError) -> Void) -> FerryError? {
        do throws(FerryError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    /// The error the archive reader stops at in `bytes`, as `convert` reads them.
    static func readerError(_ bytes: [UInt8]) -> FerryError? { PlistFixtures.read(bytes, codec: ArchiveCodec()).error }

    // MARK: - Rejected edits

    /// An empty name and a negative price break the product rules: the
    /// error names the field and the record, and the archive encodes to the
    /// bytes it was read from.
    @Test(arguments: [KeyedArchiveEditor.Form.binary, .xml])
    func aRejectedEditLeavesTheArchiveByteIdentical(form: KeyedArchiveEditor.Form) throws {
        let bytes = try F.legacy(form)
        var editor = try F.editor(bytes)
        func at(_ field: String) -> Location { Location(file: "Products", record: 1, field: field) }
        #expect(
            Self.error { () throws(FerryError) in try editor.replace(at: 1, with: F.product("", price: .double(269))) }
                == .recordEmptyField("name", at: at("name")))
        #expect(
            Self.error { () throws(FerryError) in try editor.replace(at: 1, with: F.product("Wii", price: .integer(-1))) }
                == .recordNegative("price", at: at("price")))
        #expect(
            Self.error { () throws(FerryError) in try editor.append(F.product("", price: .double(1))) }
                == .recordEmptyField("name", at: Location(file: "Products", record: 3, field: "name")))
        #expect(try editor.encoded() == bytes)
        #expect(editor.count == 3)
        // A good edit after the rejected ones still works from the archive as it was.
        try editor.replace(at: 1, with: F.product("Wii U", price: .double(299)))
        #expect(try editor.record(at: 1)["name"] == .string("Wii U"))
    }

    /// A failed edit leaves an archive on disk byte for byte as it was, when
    /// the caller writes only what `encoded()` gives after a success.
    @Test func aRejectedEditLeavesTheFileAsItWas() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("Products", try F.legacy())
        var editor = try F.editor(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let rejected = Self.error { () throws(FerryError) in
            try editor.replace(at: 0, with: F.product("Xbox 360", price: .double(-299)))
        }
        if rejected == nil { try Data(try editor.encoded()).write(to: URL(fileURLWithPath: path)) }
        #expect(rejected?.code == .recordNegative)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == (try F.legacy()))
    }

    // MARK: - Indexes

    @Test func anIndexPastTheEndIsACodedError() throws {
        var editor = try F.editor(try F.legacy())
        let expected = FerryError.archiveNoSuchRecord(3, count: 3, at: Location(file: "Products"))
        #expect(Self.error { () throws(FerryError) in _ = try editor.record(at: 3) } == expected)
        #expect(Self.error { () throws(FerryError) in try editor.remove(at: 3) } == expected)
        #expect(
            Self.error { () throws(FerryError) in try editor.replace(at: -1, with: F.product("A", price: .double(1))) }
                == .archiveNoSuchRecord(-1, count: 3, at: Location(file: "Products")))
        #expect(try editor.encoded() == (try F.legacy()))
    }

    /// A root that is one instance has one record, which can be edited but
    /// not removed, and no room for another.
    @Test func aSingleInstanceRootHasNoArrayToEdit() throws {
        let objects: [PlistValue] = [
            .string("$null"),
            .dictionary(PlistDictionary([("name", .uid(2)), ("price", .real(1)), ("$class", .uid(3))])),
            .string("Gizmo"),
            .dictionary(PlistDictionary([("$classname", .string("Product")), ("$classes", .array([.string("Product"), .string("NSObject")]))])),
        ]
        var editor = try F.editor(try Self.archive(objects))
        #expect(editor.count == 1)
        let expected = FerryError.archiveRootNotArray("Product", at: Location(file: "Products"))
        #expect(Self.error { () throws(FerryError) in try editor.remove(at: 0) } == expected)
        #expect(Self.error { () throws(FerryError) in try editor.append(F.product("B", price: .double(2))) } == expected)
        try editor.replace(at: 0, with: F.product("Gizmo 2", price: .double(2)))
        #expect(try editor.record(at: 0) == Record([("name", .string("Gizmo 2")), ("price", .double(2))]))
    }

    /// A record that names a field twice (records allow it) sets it twice:
    /// the second value wins, and nothing reads out of bounds on the way.
    @Test func aFieldNamedTwiceIsSetTwice() throws {
        var editor = try F.editor(try F.legacy())
        let photo = try F.photo(2)
        try editor.replace(
            at: 0,
            with: Record([
                ("name", .string("A")), ("name", .string("B")), ("price", .double(1)), ("photo", .bytes(photo)),
                ("photo", .bytes(Array(photo.reversed()))),
            ]))
        let record = try F.editor(try editor.encoded()).record(at: 0)
        #expect(record["price"] == .double(1))
        #expect(record["photo"] == .bytes(Array(photo.reversed())))
    }

    // MARK: - Damaged archives

    /// A binary archive of `objects` whose root is UID 1.
    static func archive(_ objects: [PlistValue]) throws -> [UInt8] {
        try PlistFixtures.encode(
            .dictionary(
                PlistDictionary([
                    ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
                    ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
                ])))
    }

    /// A product whose `parts` array holds the product itself.
    static func cyclic() throws -> [UInt8] {
        try archive([
            .string("$null"),
            .dictionary(PlistDictionary([("NS.objects", .array([.uid(3)])), ("$class", .uid(2))])),
            .dictionary(PlistDictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray")]))])),
            .dictionary(PlistDictionary([("name", .uid(5)), ("parts", .uid(4)), ("$class", .uid(6))])),
            .dictionary(PlistDictionary([("NS.objects", .array([.uid(3)])), ("$class", .uid(2))])),
            .string("Loop"),
            .dictionary(PlistDictionary([("$classname", .string("GameStoreiOS.Product"))])),
        ])
    }

    /// A cut file, a cycle, a UID past the objects: the editor fails with
    /// the very error (code, arguments, location) the reader fails with.
    @Test(arguments: ["truncated", "cyclic", "uidOutOfRange", "xmlTruncated"])
    func aDamagedArchiveFailsAsTheReaderDoes(damage: String) throws {
        let legacy = try F.legacy()
        let bytes: [UInt8]
        let code: FerryError.Code
        switch damage {
        case "truncated":
            (bytes, code) = (Array(legacy.prefix(1000)), .bplistInvalidTrailer)
        case "cyclic":
            (bytes, code) = (try Self.cyclic(), .archiveCycle)
        case "uidOutOfRange":
            var objects = try F.graph(legacy).objects
            objects[1] = .dictionary(PlistDictionary([("NS.objects", .array([.uid(7), .uid(99)])), ("$class", .uid(16))]))
            (bytes, code) = (try Self.archive(objects), .archiveUIDOutOfRange)
        default:
            (bytes, code) = (Array(try F.legacyXML().prefix(900)), .xmlPlistUnterminated)
        }
        let expected = try #require(Self.readerError(bytes))
        #expect(expected.code == code)
        let found = Self.error { () throws(FerryError) in _ = try KeyedArchiveEditor(bytes: bytes, name: "test", context: ReadContext()) }
        #expect(found == expected)
    }

    /// Limits apply as the reader applies them.
    @Test func aLimitAppliesAsToTheReader() throws {
        var limits = ReadLimits()
        limits.maxInputBytes = 1000
        let bytes = try F.legacy()
        let found = Self.error { () throws(FerryError) in
            _ = try KeyedArchiveEditor(bytes: bytes, name: "test", context: ReadContext(limits: limits))
        }
        #expect(found == .inputTooLarge(limit: 1000, at: Location(file: "test")))
    }
}
