import Foundation
import FerryTestSupport
import Testing

@testable import FerryKit
@testable import FerryPlist

/// Editing Examples/Products in its object graph: the edited record's
/// objects change, and nothing else does.
@Suite struct KeyedArchiveEditorTests {
    typealias F = EditorFixtures
    static let forms: [KeyedArchiveEditor.Form] = [.binary, .xml]

    /// Every record of `bytes`, read by the archive codec as `convert` reads it.
    static func read(_ bytes: [UInt8], count: Int = 3) throws -> [Record] {
        let read = PlistFixtures.read(bytes, codec: ArchiveCodec())
        if let error = read.error { throw error }
        try #require(read.records.count == count)
        return read.records
    }

    /// Requires the root elements other than `edited` to be the same UIDs
    /// holding the same subgraphs in `after` as in `before`.
    static func expectUntouched(_ before: [PlistValue], _ after: [PlistValue], except edited: Set<Int>) {
        let old = F.elements(before)
        let new = F.elements(after)
        for uid in old where !edited.contains(uid) {
            #expect(new.contains(uid), "element \(uid) moved")
            #expect(F.subgraph(uid, in: after) == F.subgraph(uid, in: before), "element \(uid) changed")
        }
    }

    // MARK: - Reading and not editing

    @Test(arguments: forms) func anUneditedArchiveEncodesToItsOwnBytes(form: KeyedArchiveEditor.Form) throws {
        let bytes = try F.legacy(form)
        let editor = try F.editor(bytes)
        #expect(editor.form == form)
        #expect(editor.count == 3)
        #expect(try editor.encoded() == bytes)
        #expect(try editor.records() == (try Self.read(bytes)))
        #expect(try editor.record(at: 2)["name"] == .string("Wireless Controller"))
    }

    // MARK: - Edit

    /// A new price is written in the product's dictionary, in place; no
    /// object is added and every other object is as it was.
    @Test(arguments: forms) func editingThePriceRewritesThatFieldAlone(form: KeyedArchiveEditor.Form) throws {
        let bytes = try F.legacy(form)
        var editor = try F.editor(bytes)
        try editor.replace(at: 1, with: try F.edited(editor, 1, "price", .integer(249)))
        let output = try editor.encoded()
        #expect(output.starts(with: BinaryPlistScanner.magic) == (form == .binary))
        let records = try Self.read(output)
        #expect(records.map { $0["name"] } == F.names.map { .string($0) })
        #expect(records.map { $0["price"] } == [.double(299), .double(249), .double(19.99)])
        #expect(records[1]["photo"] == .bytes(try F.photo(1)))
        let before = try F.graph(bytes).objects
        let after = try F.graph(output).objects
        #expect(after.count == before.count)
        let wii = F.elements(before)[1]
        for uid in before.indices where uid != wii {
            #expect(after[uid] == before[uid], "object \(uid) changed")
        }
        var expected = F.fields(wii, in: before)
        expected.set("price", to: .real(249))
        #expect(F.fields(wii, in: after) == expected)
    }

    /// plistlib's XML comes back line for line, the edited price apart:
    /// its data keeps plistlib's line width (60 characters two tabs in).
    @Test func anEditedXMLArchiveChangesOnlyTheEditedLine() throws {
        let bytes = try F.legacyXML()
        #expect(XMLPlistWriter.DataLines(of: bytes) == .plistlib)
        var editor = try F.editor(bytes)
        try editor.replace(at: 1, with: try F.edited(editor, 1, "price", .double(249)))
        let before = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let after = String(decoding: try editor.encoded(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        try #require(after.count == before.count)
        let changed = zip(before, after).filter { $0 != $1 }
        #expect(changed.map { "\($0.0) → \($0.1)" } == ["\t\t\t<real>269.0</real> → \t\t\t<real>249.0</real>"])
    }

    /// plutil's data lines, as Ferry's own writer makes them, stay plutil's.
    @Test func plutilDataLinesAreKept() throws {
        let document = try XMLPlistWriter.document(.array([.data(try F.photo(0))]))
        #expect(XMLPlistWriter.DataLines(of: document) == .plutil)
        #expect(XMLPlistWriter.DataLines(of: Array("<plist><data>\nAAAA\n</data></plist>".utf8)) == .plutil)
        #expect(XMLPlistWriter.DataLines.plistlib.width(atLevel: 2) == 60)
        #expect(XMLPlistWriter.DataLines.plistlib.width(atLevel: 9) == 16)
    }

    /// A new name takes the old string's UID, which nothing else refers to.
    @Test func aNewNameTakesTheOldStringsPlace() throws {
        let bytes = try F.legacy()
        var editor = try F.editor(bytes)
        try editor.replace(at: 0, with: try F.edited(editor, 0, "name", .string("Xbox 360 S")))
        let output = try editor.encoded()
        let before = try F.graph(bytes).objects
        let after = try F.graph(output).objects
        #expect(after.count == before.count)
        let xbox = F.elements(before)[0]
        let nameUID = try #require(F.fields(xbox, in: before)["name"])
        #expect(F.fields(xbox, in: after) == F.fields(xbox, in: before))
        guard case .uid(let uid) = nameUID else { Issue.record("name is no UID"); return }
        #expect(after[Int(uid)] == .string("Xbox 360 S"))
        Self.expectUntouched(before, after, except: [xbox])
        #expect(try Self.read(output).map { $0["name"] } == [.string("Xbox 360 S"), .string("Wii"), .string("Wireless Controller")])
    }

    /// A new photo swaps the UIImage's data and keeps its other keys.
    @Test(arguments: forms) func aNewPhotoKeepsTheImagesOtherKeys(form: KeyedArchiveEditor.Form) throws {
        let bytes = try F.legacy(form)
        var editor = try F.editor(bytes)
        let newPhoto = try F.photo(2)
        try editor.replace(at: 0, with: try F.edited(editor, 0, "photo", .bytes(newPhoto)))
        let output = try editor.encoded()
        let before = try F.graph(bytes).objects
        let after = try F.graph(output).objects
        let xbox = F.elements(before)[0]
        guard case .uid(let image)? = F.fields(xbox, in: after)["photo"] else { Issue.record("no photo"); return }
        #expect(F.fields(xbox, in: after) == F.fields(xbox, in: before))
        let oldImage = F.fields(Int(image), in: before)
        let newImage = F.fields(Int(image), in: after)
        #expect(newImage.keys == oldImage.keys)
        for key in ["UIScale", "UIImageOrientation", "UIKitDidEncode", "$class"] { #expect(newImage[key] == oldImage[key]) }
        #expect(F.subgraph(Int(image), in: after) != F.subgraph(Int(image), in: before))
        Self.expectUntouched(before, after, except: [xbox])
        #expect(try Self.read(output)[0]["photo"] == .bytes(newPhoto))
    }

    /// No photo: the field becomes `$null`, as NSKeyedArchiver writes nil
    /// and as the class's other instances (all with a photo) suggest.
    @Test func removingThePhotoSetsItToNull() throws {
        let bytes = try F.legacy()
        var editor = try F.editor(bytes)
        try editor.replace(at: 2, with: F.product("Wireless Controller", price: .double(19.99)))
        let output = try editor.encoded()
        let after = try F.graph(output).objects
        let controller = F.elements(after)[2]
        #expect(F.fields(controller, in: after)["photo"] == .uid(0))
        #expect(try Self.read(output)[2]["photo"] == .null)
        Self.expectUntouched(try F.graph(bytes).objects, after, except: [controller])
    }

    // MARK: - Add

    /// A new product is a `GameStoreiOS.Product` (the archive's own class
    /// description, not a new one) whose photo is a UIImage with the keys
    /// the archive's images have.
    @Test(arguments: forms) func anAddedProductIsLikeTheOthers(form: KeyedArchiveEditor.Form) throws {
        let bytes = try F.legacy(form)
        var editor = try F.editor(bytes)
        let photo = try F.photo(1)
        try editor.append(F.product("PS5", price: .integer(499), photo: photo))
        #expect(editor.count == 4)
        let output = try editor.encoded()
        let before = try F.graph(bytes).objects
        let after = try F.graph(output).objects
        let records = try Self.read(output, count: 4)
        #expect(records.map { $0["name"] } == (F.names + ["PS5"]).map { .string($0) })
        #expect(records[3]["price"] == .double(499))
        #expect(records[3]["photo"] == .bytes(photo))
        for uid in before.indices where uid != 1 { #expect(after[uid] == before[uid], "object \(uid) changed") }
        let product = try #require(F.elements(after).last)
        #expect(product >= before.count)
        let xbox = F.fields(F.elements(before)[0], in: before)
        let added = F.fields(product, in: after)
        #expect(added["$class"] == xbox["$class"])
        guard case .uid(let image)? = added["photo"], case .uid(let oldImage)? = xbox["photo"] else {
            Issue.record("no photo")
            return
        }
        let imageFields = F.fields(Int(image), in: after)
        let oldImageFields = F.fields(Int(oldImage), in: before)
        #expect(imageFields.keys == oldImageFields.keys)
        for key in ["UIScale", "UIImageOrientation", "UIKitDidEncode", "$class"] {
            #expect(imageFields[key] == oldImageFields[key])
        }
        let classNames = after.compactMap { object -> String? in
            guard case .dictionary(let fields) = object, case .string(let name)? = fields["$classname"] else { return nil }
            return name
        }
        #expect(classNames.sorted() == ["GameStoreiOS.Product", "NSArray", "UIImage"])
    }

    /// Without a photo, the new product's `photo` is `$null`, as the class
    /// archives nil.
    @Test func anAddedProductWithoutAPhoto() throws {
        var editor = try F.editor(try F.legacy())
        try editor.append(F.product("Game Pass", price: .double(9.99)))
        let output = try editor.encoded()
        let after = try F.graph(output).objects
        let product = try #require(F.elements(after).last)
        #expect(F.fields(product, in: after)["photo"] == .uid(0))
        let records = try Self.read(output, count: 4)
        #expect(records[3]["name"] == .string("Game Pass"))
        #expect(records[3]["photo"] == .null)
    }

    // MARK: - Remove

    /// The Wii leaves the root array; its objects are blanked (its photo
    /// leaves the file) and nothing is renumbered.
    @Test(arguments: forms) func removingAProductDropsItsUID(form: KeyedArchiveEditor.Form) throws {
        let bytes = try F.legacy(form)
        var editor = try F.editor(bytes)
        try editor.remove(at: 1)
        #expect(editor.count == 2)
        let output = try editor.encoded()
        let wiiPhoto = try F.photo(1)
        #expect(bytes.firstRange(of: wiiPhoto[8..<64]) != nil || form == .xml)
        #expect(output.firstRange(of: wiiPhoto[8..<64]) == nil, "the Wii's photo is still in the file")
        #expect(output.firstRange(of: Array("Wii".utf8)) == nil, "the Wii's name is still in the file")
        let before = try F.graph(bytes).objects
        let after = try F.graph(output).objects
        let elements = F.elements(before)
        #expect(F.elements(after) == [elements[0], elements[2]])
        Self.expectUntouched(before, after, except: [elements[1]])
        #expect(after[elements[1]] == .string("$null"))
        #expect(try Self.read(output, count: 2).map { $0["name"] } == [.string("Xbox 360"), .string("Wireless Controller")])
    }

    /// Editing again after an add and a remove.
    @Test func editsCombine() throws {
        var editor = try F.editor(try F.legacy())
        try editor.remove(at: 0)
        try editor.append(F.product("PS5", price: .double(499)))
        try editor.replace(at: 2, with: F.product("PS5 Pro", price: .double(699)))
        let records = try Self.read(try editor.encoded())
        #expect(records.map { $0["name"] } == [.string("Wii"), .string("Wireless Controller"), .string("PS5 Pro")])
        #expect(records.map { $0["price"] } == [.double(269), .double(19.99), .double(699)])
    }
}
