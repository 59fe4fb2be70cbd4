import Foundation
import Testing

/// Foundation's `PropertyListSerialization` reads the binary plists Ferry
/// writes, and Ferry reads the ones Foundation writes, with every value type
/// and at the sizes where the binary format changes its encodings.
@Suite struct PropertyListSerializationTests {
    /// What PropertyListSerialization reads from `path`, checked to be a
    /// binary plist.
    static func foundationRead(_ path: String) throws -> Typed {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.starts(with: Array("bplist00".utf8)), "not a binary plist")
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        #expect(format == .binary)
        return try Typed(foundation: object)
    }

    static func foundationWrite(_ value: Typed, to name: String, in folder: ScratchFolder) throws -> String {
        try folder.write(
            name, PropertyListSerialization.data(fromPropertyList: try value.foundation, format: .binary, options: 0))
    }

    // MARK: - Foundation reads Ferry

    @Test func foundationReadsFerryProducts() throws {
        let folder = try ScratchFolder()
        // The photos' bytes, not their references: --embed-photos.
        try Ferry.convert([
            TestPaths.example("products.json"), folder.path("products.plist"), "--to", "plist", "--embed-photos",
        ])
        let read = try Self.foundationRead(folder.path("products.plist"))
        expectSame(read, Typed.array(try ExampleData.products()).normalized)
    }

    @Test func foundationReadsFerryBooks() throws {
        let folder = try ScratchFolder()
        try Ferry.convert([TestPaths.example("books.json"), folder.path("books.plist")])
        let read = try Self.foundationRead(folder.path("books.plist"))
        expectSame(read, Typed.array(ExampleData.books).normalized)
    }

    /// Random records with strings in every script, integers at every width
    /// and doubles of every magnitude, from Python's `json` through Ferry.
    @Test(arguments: ["generic", "book"])
    func foundationReadsFerryRandomRecords(kind: String) throws {
        let folder = try ScratchFolder()
        try PythonReader.randomDocument(kind: kind, seed: 0x5EED + kind.count, count: 300, to: folder.path("in.json"))
        try Ferry.convert([folder.path("in.json"), folder.path("out.plist"), "--kind", kind])
        let expected = try PythonReader.describe("json", folder.path("in.json"))
        expectSame(try Self.foundationRead(folder.path("out.plist")), expected.normalized)
    }

    // MARK: - Ferry reads Foundation

    /// Foundation writes every value type; Ferry converts the file to a plist
    /// Foundation reads back as the same values, and to JSON that Python
    /// reads as the same values in JSON's terms (dates as ISO 8601 text,
    /// bytes as data URIs).
    @Test func everyValueTypeSurvivesFerry() throws {
        let folder = try ScratchFolder()
        let sample = try PlistSamples.allTypes()
        let input = try Self.foundationWrite(sample, to: "foundation.plist", in: folder)
        #expect(try Self.foundationRead(input) == sample.normalized, "Foundation does not read its own plist back")

        try Ferry.convert([input, folder.path("ferry.plist"), "--to", "plist", "--kind", "generic"])
        expectSame(try Self.foundationRead(folder.path("ferry.plist")), sample.normalized)

        try Ferry.convert([input, folder.path("ferry.json"), "--kind", "generic"])
        let json = try PythonReader.describe("json", folder.path("ferry.json"))
        expectSame(json.normalized, sample.inJSON.normalized)
    }

    /// More than 255 and more than 65,535 objects (four a record), so that
    /// references take two and then three or four bytes.
    @Test(arguments: [200, 17_000])
    func manyObjectsSurviveFerry(count: Int) throws {
        let folder = try ScratchFolder()
        let records: [Typed] = (0..<count).map { index in
            .dict([
                ("n", .integer(Int64(index) * 7919)), ("label", .string("item \(index) ⛴")),
                ("ratio", .float(Double(index) / 7)),
            ])
        }
        let input = try Self.foundationWrite(.array(records), to: "many.plist", in: folder)
        try Ferry.convert([input, folder.path("ferry.plist"), "--to", "plist"])
        expectSame(try Self.foundationRead(folder.path("ferry.plist")), Typed.array(records).normalized)
        try Ferry.convert([input, folder.path("ferry.json")])
        expectSame(
            try PythonReader.describe("json", folder.path("ferry.json")).normalized, Typed.array(records).normalized)
    }

    /// A top-level dictionary is one record.
    @Test func topLevelDictionaryIsOneRecord() throws {
        let folder = try ScratchFolder()
        let input = try Self.foundationWrite(PlistSamples.integers, to: "one.plist", in: folder)
        try Ferry.convert([input, folder.path("one.json"), "--kind", "generic"])
        expectSame(
            try PythonReader.describe("json", folder.path("one.json")).normalized,
            Typed.array([PlistSamples.integers]).normalized)
    }
}
