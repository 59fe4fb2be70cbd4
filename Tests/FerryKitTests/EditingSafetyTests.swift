#if canImport(Glibc)
import Glibc
#endif
import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// A rejected edit changes nothing; a saved one keeps the file's mode and
/// links, and is refused when the file changed meanwhile; selectors find
/// the record meant, or say which ones were.
@Suite struct EditingSafetyTests {
    static let products = Array(
        #"[{"name":"Wii","price":269},{"name":"Xbox","price":299},{"name":"Wii","price":199},{"name":"PS5","price":499}]"#
            .utf8)

    func change(_ assignments: String...) throws -> RecordChange {
        var change = RecordChange()
        try change.assign(assignments)
        return change
    }

    // MARK: - Rejected edits

    @Test(arguments: [
        ("name=", "record.emptyField", "name"),
        ("price=-1", "record.negative", "price"),
    ])
    func rejectedEditLeavesTheFileByteIdentical(assignment: String, code: String, field: String) throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.json", Self.products)
        let file = try EditedFile(path: path)
        let error = try #require(throws: FerryError.self) { try file.edit("2", change: change(assignment)) }
        #expect(error.code.rawValue == code)
        #expect(error.arguments == [.string(field)])
        #expect(error.location.file == path && error.location.record == 1 && error.location.field == field)
        #expect(try folder.read("p.json") == Self.products)
        // The editor holds no half-made change either: saving writes the file as it was.
        try file.save()
        #expect(try folder.read("p.json") == Self.products)
    }

    @Test func valueOfTheWrongTypeIsRefused() throws {
        let folder = try ScratchFolder()
        let file = try EditedFile(path: try folder.write("b.csv", "title,author,pages,readThisBook\nDune,Frank Herbert,412,true\n"))
        let pages = try #require(throws: FerryError.self) { try file.edit("1", change: change("pages=4.5")) }
        #expect(pages.code == .editValueType)
        #expect(pages.arguments == [.string("pages"), .string("4.5"), .message(.typeInteger)])
        #expect(pages.location.record == 0 && pages.location.field == "pages")
        let read = try #require(throws: FerryError.self) { try file.edit("1", change: change("readThisBook=maybe")) }
        #expect(read.arguments == [.string("readThisBook"), .string("maybe"), .message(.typeBool)])
        try file.edit("Dune", change: change("pages=500", "readThisBook=no"))
        #expect(file.records[0]["pages"] == .integer(500))
        #expect(file.records[0]["readThisBook"] == .bool(false))
    }

    @Test func assignmentWithoutEqualsIsRefused() throws {
        var change = RecordChange()
        let error = try #require(throws: FerryError.self) { try change.assign(["price"]) }
        #expect(error.code == .editInvalidAssignment)
        #expect(error.arguments == [.string("price")])
    }

    // MARK: - Selectors

    @Test func keyOfSeveralRecordsListsThem() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.json", Self.products)
        let file = try EditedFile(path: path)
        let error = try #require(throws: FerryError.self) { try file.remove("Wii") }
        #expect(error.code == .editAmbiguousKey)
        #expect(error.arguments == [.string("Wii"), .count(2), .string("1: Wii; 3: Wii")])
        #expect(error.location.file == path)
        #expect(try folder.read("p.json") == Self.products)
    }

    @Test func keyOfNoRecordListsCandidates() throws {
        let folder = try ScratchFolder()
        let file = try EditedFile(path: try folder.write("p.json", Self.products))
        let error = try #require(throws: FerryError.self) { try file.remove("xbox one") }
        #expect(error.code == .editNoSuchRecord)
        #expect(error.arguments == [.string("xbox one"), .string("1: Wii; 2: Xbox; 3: Wii; 4: PS5")])
        let near = try #require(throws: FerryError.self) { try file.remove("X") }
        #expect(near.arguments == [.string("X"), .string("2: Xbox")])
    }

    /// Records count from 1, as every message counts them: 4 is the last of
    /// four, 0 and 5 are none.
    @Test func numberPastTheLastRecord() throws {
        let folder = try ScratchFolder()
        let file = try EditedFile(path: try folder.write("p.json", Self.products))
        #expect(try file.selector(key: nil).index(of: "4", count: 4, in: "p.json") == 3)
        #expect(try file.selector(key: nil).index(of: "1", count: 4, in: "p.json") == 0)
        for number in [0, 5] {
            let error = try #require(throws: FerryError.self) { try file.remove(String(number)) }
            #expect(error.code == .editIndexOutOfRange)
            #expect(error.arguments == [.ungrouped(number), .count(4)])
        }
    }

    @Test func keysMatchAsMergeMatchesThem() throws {
        let folder = try ScratchFolder()
        let file = try EditedFile(
            path: try folder.write("b.json", #"[{"title":"Dune","author":"Frank Herbert"},{"title":"Emma","author":"Jane Austen","isbn":"x"}]"#))
        // A book has an isbn: the file is keyed by isbn, and the book
        // without one is found by its number.
        #expect(try file.selector(key: nil).index(of: " x ", count: 2, in: "b.json") == 1)
        #expect(try file.selector(key: nil).index(of: "1", count: 2, in: "b.json") == 0)
        #expect(throws: FerryError.self) { try file.selector(key: nil).index(of: "Dune", count: 2, in: "b.json") }
        let untitled = try EditedFile(
            path: try folder.write("t.json", #"[{"title":"Dune","author":"Frank Herbert"},{"title":"Emma","author":"Jane Austen"}]"#))
        // No book has one: title and author.
        #expect(try untitled.selector(key: nil).index(of: " Dune ", count: 2, in: "t.json") == 0)
        #expect(try untitled.selector(key: nil).index(of: "Emma / Jane Austen", count: 2, in: "t.json") == 1)
        let skus = try EditedFile(path: try folder.write("s.json", #"[{"name":"A","sku":269.0},{"name":"B","sku":"0"}]"#))
        // With --key, digits are a key, and a number matches by value.
        #expect(try skus.selector(key: ["sku"]).index(of: "0", count: 2, in: "s.json") == 1)
        #expect(try skus.selector(key: ["sku"]).index(of: "269", count: 2, in: "s.json") == 0)
        let generic = try EditedFile(path: try folder.write("g.json", #"[{"a":1}]"#))
        let error = try #require(throws: FerryError.self) { try generic.remove("one") }
        #expect(error.code == .editNoKey)
    }

    // MARK: - Saving in place

    @Test func fileChangedSinceReadingIsNotReplaced() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("p.json", Self.products)
        let file = try EditedFile(path: path)
        try file.edit("2", change: change("price=1"))
        let meanwhile = Array(#"[{"name":"Other","price":1}]"#.utf8)
        try folder.write("p.json", meanwhile)
        let error = try #require(throws: FerryError.self) { try file.save() }
        #expect(error.code == .editFileChanged)
        #expect(error.arguments == [.path(path)])
        #expect(try folder.read("p.json") == meanwhile)
        #expect(try folder.contents() == ["p.json"])
    }

    @Test func modeAndOwnerAreKeptAndALinkStaysALink() throws {
        let folder = try ScratchFolder()
        let target = try folder.write("data/p.json", Self.products)
        // Only root may give a file away; others keep their own files' owner anyway.
        let owner: uid_t = getuid() == 0 ? 4321 : getuid()
        #expect(chown(target, owner, gid_t(owner)) == 0)
        chmod(target, 0o640)
        let link = folder.path("link.json")
        #expect(symlink("data/p.json", link) == 0)
        let file = try EditedFile(path: link)
        try file.edit("PS5", change: change("price=449"))
        try file.save()
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(stat(target, &info) == 0 && info.st_mode & 0o7777 == 0o640)
        #expect(info.st_uid == owner && info.st_gid == gid_t(owner))
        #expect(String(decoding: try folder.read("data/p.json"), as: UTF8.self).hasSuffix(#"{"name":"PS5","price":449}]"#))
        #expect(try folder.contents("data") == ["p.json"])
    }
}
