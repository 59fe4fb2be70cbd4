import Foundation
import FerryTestSupport
import Testing

@testable import FerryKit
@testable import FerryPlist

/// Classes the editor must keep as they are: module-qualified ones
/// (`GameStoreiOS.UIImage`, as Swift's NSKeyedArchiver names a Swift class)
/// and a class of no kind (`MyApp.Widget`, with a `$$note` key).
@Suite struct KeyedArchiveEditorClassTests {
    typealias F = EditorFixtures

    static func classDescription(_ name: String, _ chain: [String]) -> PlistValue {
        .dictionary(PlistDictionary([("$classname", .string(name)), ("$classes", .array(chain.map { .string($0) }))]))
    }

    /// A product with a `GameStoreiOS.UIImage` photo, a widget, and a
    /// product without a photo.
    static func mixedObjects() throws -> [PlistValue] {
        [
            .string("$null"),
            .dictionary(PlistDictionary([("NS.objects", .array([.uid(4), .uid(9), .uid(13)])), ("$class", .uid(2))])),
            classDescription("NSArray", ["NSArray", "NSObject"]),
            classDescription("GameStoreiOS.Product", ["GameStoreiOS.Product", "NSObject"]),
            .dictionary(PlistDictionary([("name", .uid(5)), ("photo", .uid(6)), ("price", .real(299)), ("$class", .uid(3))])),
            .string("Xbox 360"),
            .dictionary(
                PlistDictionary([
                    ("UIImageData", .uid(7)), ("UIScale", .real(2)), ("UIImageOrientation", .integer(3)), ("$class", .uid(8)),
                ])),
            .data(try F.photo(0)),
            classDescription("GameStoreiOS.UIImage", ["GameStoreiOS.UIImage", "NSObject"]),
            .dictionary(PlistDictionary([("name", .uid(10)), ("$$note", .uid(11)), ("price", .real(9.5)), ("$class", .uid(12))])),
            .string("Gizmo"),
            .string("kept"),
            classDescription("MyApp.Widget", ["MyApp.Widget", "MyApp.Base", "NSObject"]),
            .dictionary(PlistDictionary([("name", .uid(14)), ("photo", .uid(0)), ("price", .real(19.99)), ("$class", .uid(3))])),
            .string("Wireless Controller"),
        ]
    }

    static func mixed() throws -> [UInt8] { try KeyedArchiveEditorErrorTests.archive(try mixedObjects()) }

    /// The widget as the reader gives it: its class and chain, `$note` unescaped.
    static let widget = Record([
        ("$class", .string("MyApp.Widget")),
        ("$classes", .array([.string("MyApp.Widget"), .string("MyApp.Base"), .string("NSObject")])),
        ("name", .string("Gizmo")), ("$note", .string("kept")), ("price", .double(9.5)),
    ])

    @Test func theReaderSeesAProductAWidgetAndAProduct() throws {
        let editor = try F.editor(try Self.mixed())
        let records = try editor.records()
        #expect(records.count == 3)
        #expect(records[0]["photo"] == .bytes(try F.photo(0)))
        #expect(records[1] == Self.widget)
        #expect(records[2]["photo"] == .null)
    }

    /// Giving the last product a photo builds a `GameStoreiOS.UIImage` like
    /// the archive's other one (UIScale 2, orientation 3); the product and
    /// the widget before it are untouched, and no class is described twice.
    @Test func aPhotoAddedToAnotherRecordTakesTheArchivesImageShape() throws {
        let bytes = try Self.mixed()
        var editor = try F.editor(bytes)
        let photo = try F.photo(2)
        try editor.replace(at: 2, with: try F.edited(editor, 2, "photo", .bytes(photo)))
        let before = try Self.mixedObjects()
        let after = try F.graph(try editor.encoded()).objects
        for uid in 0..<13 { #expect(after[uid] == before[uid], "object \(uid) changed") }
        guard case .uid(let image)? = F.fields(13, in: after)["photo"] else {
            Issue.record("no photo")
            return
        }
        let fields = F.fields(Int(image), in: after)
        #expect(fields["$class"] == .uid(8))
        #expect(fields["UIScale"] == .real(2))
        #expect(fields["UIImageOrientation"] == .integer(3))
        #expect(after.count == before.count + 2, "a new image and its data, and nothing else")
        let records = try F.editor(try editor.encoded()).records()
        #expect(records[2]["photo"] == .bytes(photo))
        #expect(records[1] == Self.widget)
    }

    /// Renaming the widget keeps its class, its chain and its `$$note` key.
    @Test func editingTheWidgetKeepsItsClassAndEscapedKey() throws {
        var editor = try F.editor(try Self.mixed())
        var renamed = Self.widget.pairs
        renamed[2].1 = .string("Gizmo 2")
        try editor.replace(at: 1, with: Record(renamed))
        let before = try Self.mixedObjects()
        let after = try F.graph(try editor.encoded()).objects
        #expect(after.count == before.count)
        for uid in before.indices where uid != 10 { #expect(after[uid] == before[uid], "object \(uid) changed") }
        #expect(after[10] == .string("Gizmo 2"))
        #expect(try F.editor(try editor.encoded()).record(at: 1) == Record(renamed))
    }

    /// Replacing the module-qualified image's bytes keeps its class and
    /// keys, and the other two records are untouched.
    @Test func aNewPhotoKeepsTheModuleQualifiedImageClass() throws {
        var editor = try F.editor(try Self.mixed())
        try editor.replace(at: 0, with: try F.edited(editor, 0, "photo", .bytes(try F.photo(1))))
        let before = try Self.mixedObjects()
        let after = try F.graph(try editor.encoded()).objects
        #expect(after.count == before.count)
        for uid in before.indices where uid != 7 { #expect(after[uid] == before[uid], "object \(uid) changed") }
        #expect(after[7] == .data(try F.photo(1)))
    }

    /// An image two products share is copied before its bytes change, so
    /// the other product keeps its photo.
    @Test func aSharedImageIsCopiedBeforeItChanges() throws {
        var objects = try Self.mixedObjects()
        objects[13] = .dictionary(PlistDictionary([("name", .uid(14)), ("photo", .uid(6)), ("price", .real(19.99)), ("$class", .uid(3))]))
        var editor = try F.editor(try KeyedArchiveEditorErrorTests.archive(objects))
        try editor.replace(at: 2, with: try F.edited(editor, 2, "photo", .bytes(try F.photo(2))))
        let records = try F.editor(try editor.encoded()).records()
        #expect(records[0]["photo"] == .bytes(try F.photo(0)))
        #expect(records[2]["photo"] == .bytes(try F.photo(2)))
        let after = try F.graph(try editor.encoded()).objects
        for uid in objects.indices where uid != 13 { #expect(after[uid] == objects[uid], "object \(uid) changed") }
    }

    /// Records archived as NSDictionaries (generic records, as `convert`
    /// archives them): a replaced one is written again whole at its UID, an
    /// added one is another NSDictionary, and the others are untouched.
    @Test func dictionaryRecordsStayDictionaries() throws {
        let records = [
            Record([("title", .string("A")), ("count", .integer(1))]),
            Record([("title", .string("B")), ("count", .integer(2))]),
        ]
        let bytes = try PlistFixtures.write(records, codec: ArchiveCodec(), kind: .generic)
        var editor = try F.editor(bytes)
        try editor.replace(at: 0, with: Record([("title", .string("A2")), ("count", .integer(3))]))
        try editor.append(Record([("title", .string("C")), ("tags", .array([.string("x")]))]))
        let output = try editor.encoded()
        let before = try F.graph(bytes).objects
        let after = try F.graph(output).objects
        let elements = F.elements(after)
        #expect(elements.prefix(2) == F.elements(before).prefix(2))
        #expect(F.subgraph(elements[1], in: after) == F.subgraph(elements[1], in: before))
        let read = try F.editor(output).records()
        #expect(read == [
            Record([("title", .string("A2")), ("count", .integer(3))]), records[1],
            Record([("title", .string("C")), ("tags", .array([.string("x")]))]),
        ])
        let classNames = after.compactMap { object -> String? in
            guard case .dictionary(let fields) = object, case .string(let name)? = fields["$classname"] else { return nil }
            return name
        }
        #expect(Set(classNames) == ["NSArray", "NSDictionary"])
    }
}
