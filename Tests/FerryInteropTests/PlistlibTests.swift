import Foundation
import Testing

/// Python's `plistlib` reads Ferry's plists and archives, with exact types,
/// and Ferry reads what `plistlib` writes, 16-byte integers included.
@Suite struct PlistlibTests {
    // MARK: - plistlib reads Ferry's archives

    /// The header every NSKeyedArchiver archive has.
    static func expectArchiveHeader(_ graph: ArchiveGraph) {
        #expect(graph.top.keys.sorted() == ["$archiver", "$objects", "$top", "$version"])
        #expect(graph.top["$archiver"] == .string("NSKeyedArchiver"))
        #expect(graph.top["$version"] == .integer(100_000))
        #expect(graph.top["$top"] == .dict([("root", .uid(1))]))
        #expect(graph.objects.first == .string("$null"))
    }

    /// The class dictionary `instance` names, checked to describe `name`
    /// with NSObject as its superclass; returns the root's elements.
    static func expectClass(_ graph: ArchiveGraph, of instance: Typed?, _ name: String) {
        let description = graph.classOf(instance)
        #expect(description?["$classname"] == .string(name))
        #expect(description?["$classes"] == .array([.string(name), .string("NSObject")]))
    }

    /// The instances the root NSArray holds.
    static func rootElements(_ graph: ArchiveGraph) -> [Typed?] {
        expectClass(graph, of: graph.root, "NSArray")
        return (graph.root?["NS.objects"]?.elements ?? []).map { graph.object($0) }
    }

    @Test func plistlibReadsFerryProductArchive() throws {
        let folder = try ScratchFolder()
        try Ferry.convert([TestPaths.example("products.json"), folder.path("products.archive")])
        let graph = ArchiveGraph(try PythonReader.describe("plist", folder.path("products.archive")))
        Self.expectArchiveHeader(graph)
        let products = Self.rootElements(graph)
        #expect(products.count == 3)
        let photos = try ExampleData.photos()
        for (index, product) in products.enumerated() {
            Self.expectClass(graph, of: product, "GameStoreiOS.Product")
            #expect(product?.keys.sorted() == ["$class", "name", "photo", "price"])
            #expect(graph.object(product?["name"]) == .string(ExampleData.productNames[index]))
            #expect(product?["price"] == .float(ExampleData.productPrices[index]), "the price is a double in place")
            let image = graph.object(product?["photo"])
            Self.expectClass(graph, of: image, "UIImage")
            #expect(graph.object(image?["UIImageData"]) == .bytes(photos[index]))
        }
    }

    @Test func plistlibReadsFerryBookArchive() throws {
        let folder = try ScratchFolder()
        try Ferry.convert([TestPaths.example("books.json"), folder.path("books.archive")])
        let graph = ArchiveGraph(try PythonReader.describe("plist", folder.path("books.archive")))
        Self.expectArchiveHeader(graph)
        let books = Self.rootElements(graph)
        #expect(books.count == ExampleData.books.count)
        for (book, expected) in zip(books, ExampleData.books) {
            Self.expectClass(graph, of: book, "BookStore.Book")
            for key in ["title", "author", "description", "isbn"] {
                #expect(graph.object(book?[key]) == expected[key], "\(key) is a string object")
            }
            for key in ["pages", "readThisBook", "price"] {
                #expect(book?[key] == expected[key], "\(key) is stored in place")
            }
        }
    }

    /// Generic records are NSDictionary objects with `NS.keys` and
    /// `NS.objects`.
    @Test func plistlibReadsFerryGenericArchive() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", Array(#"[{"a": 1, "b": ["x", 2.5, true]}]"#.utf8))
        try Ferry.convert([input, folder.path("out.archive"), "--kind", "generic"])
        let graph = ArchiveGraph(try PythonReader.describe("plist", folder.path("out.archive")))
        Self.expectArchiveHeader(graph)
        let records = Self.rootElements(graph)
        #expect(records.count == 1)
        let record = records.first ?? nil
        Self.expectClass(graph, of: record, "NSDictionary")
        let keys = (record?["NS.keys"]?.elements ?? []).map { graph.object($0) }
        let values = (record?["NS.objects"]?.elements ?? []).map { graph.object($0) }
        #expect(keys == [.string("a"), .string("b")])
        #expect(values.first == .integer(1))
        let array = values.count > 1 ? values[1] : nil
        Self.expectClass(graph, of: array, "NSArray")
        #expect(
            (array?["NS.objects"]?.elements ?? []).map { graph.object($0) } == [.string("x"), .float(2.5), .bool(true)])
    }

    // MARK: - plistlib reads Ferry's plists

    /// Ferry's plist of a JSON file holds the same values, types and key
    /// order as Python's `json` reads from the JSON (photos as bytes).
    @Test(arguments: ["products.json", "books.json"])
    func plistlibReadsFerryPlist(example: String) throws {
        let folder = try ScratchFolder()
        // Referenced photos stay references unless embedded: embed them here.
        try Ferry.convert([TestPaths.example(example), folder.path("out.plist"), "--embed-photos"])
        let read = try PythonReader.describe("plist", folder.path("out.plist"))
        let expected =
            example == "books.json" ? Typed.array(ExampleData.books) : Typed.array(try ExampleData.products())
        expectSame(read, expected)
        if example == "books.json" {
            expectSame(read, try PythonReader.describe("json", TestPaths.example(example)))
        }
    }

    @Test(arguments: ["generic", "book", "product"])
    func plistlibReadsFerryRandomPlist(kind: String) throws {
        let folder = try ScratchFolder()
        try PythonReader.randomDocument(kind: kind, seed: 0xB1157 + kind.count, count: 300, to: folder.path("in.json"))
        try Ferry.convert([folder.path("in.json"), folder.path("out.plist"), "--kind", kind])
        var expected = try PythonReader.describe("json", folder.path("in.json"))
        if kind == "product" { expected = .array(try expected.elements.map(Self.photoAsBytes)) }
        expectSame(try PythonReader.describe("plist", folder.path("out.plist")), expected)
    }

    /// A product whose photo is a data URI, with the photo as its bytes.
    static func photoAsBytes(_ product: Typed) throws -> Typed {
        guard case .dict(let pairs) = product else { return product }
        return .dict(
            try pairs.map { key, value in
                guard key == "photo", case .string(let uri) = value, let comma = uri.firstIndex(of: ",") else {
                    return (key, value)
                }
                let data = try #require(Data(base64Encoded: String(uri[uri.index(after: comma)...])))
                return (key, .bytes([UInt8](data)))
            })
    }

    // MARK: - Ferry reads plistlib's plists

    /// plistlib writes keys in the order given; Ferry keeps it, to JSON and
    /// to a plist plistlib reads back as exactly what it wrote.
    ///
    /// plistlib shares equal objects, and -0.0 == 0.0 in Python, so the
    /// sample's -0.0 is written as its 0.0: the file, as plistlib reads it,
    /// is what Ferry must keep. `negativeZeroSurvives` covers -0.0 alone.
    @Test func ferryReadsPlistlibPlist() throws {
        let folder = try ScratchFolder()
        var sample = try PlistSamples.allTypes()
        try PythonReader.writePlist(sample, to: folder.path("python.plist"), in: folder)
        if case .array(var records) = sample, case .dict(var doubles) = records[2],
            let index = doubles.firstIndex(where: { $0.0 == "negativeZero" })
        {
            doubles[index].1 = .float(0.0)
            records[2] = .dict(doubles)
            sample = .array(records)
        }
        expectSame(try PythonReader.describe("plist", folder.path("python.plist")), sample, "plistlib")

        try Ferry.convert([folder.path("python.plist"), folder.path("ferry.json"), "--kind", "generic"])
        expectSame(try PythonReader.describe("json", folder.path("ferry.json")), sample.inJSON)

        try Ferry.convert([
            folder.path("python.plist"), folder.path("ferry.plist"), "--to", "plist", "--kind", "generic",
        ])
        expectSame(try PythonReader.describe("plist", folder.path("ferry.plist")), sample)
    }

    /// plistlib writes integers from 2^63 to 2^64 - 1 in 16 bytes. Records
    /// keep them as numbers kept as text: exact in JSON, and 16 bytes again
    /// in a binary plist, which plistlib reads back as the same integer.
    @Test(arguments: ["9223372036854775808", "18446744073709551615"])
    func sixteenByteIntegerIsExact(digits: String) throws {
        let folder = try ScratchFolder()
        let value: Typed = .array([.dict([("id", .integer(1)), ("big", .int(digits))])])
        try PythonReader.writePlist(value, to: folder.path("big.plist"), in: folder)
        #expect(try PythonReader.describe("plist", folder.path("big.plist")) == value)
        try Ferry.convert([folder.path("big.plist"), folder.path("big.json"), "--kind", "generic"])
        let json = try String(contentsOfFile: folder.path("big.json"), encoding: .utf8)
        #expect(json.contains("\"big\": \(digits)"), "\(json)")
        try Ferry.convert([folder.path("big.json"), folder.path("back.plist"), "--to", "plist", "--kind", "generic"])
        #expect(try PythonReader.describe("plist", folder.path("back.plist")) == value)
    }

    /// test_plistlib's binary dates of NaN and infinity fail the conversion
    /// with a code and leave no output, where they used to come out as the
    /// text `invalid-date` with exit status 0.
    @Test(arguments: ["invalid-datetime-nan", "invalid-datetime-infinity"])
    func impossibleDatesFailTheConversion(name: String) throws {
        let folder = try ScratchFolder()
        let input = TestPaths.corpus("cpython-plistlib/invalid-binary/\(name).bplist").path
        let result = try Ferry.run(["convert", "--quiet", input, folder.path("dates.json")])
        #expect(!result.signaled && result.status != 0)
        #expect(result.diagnosticCodes == ["plist.invalidDate"], "\(result.err)")
        #expect(result.diagnostics.first?.file == input)
        #expect(!FileManager.default.fileExists(atPath: folder.path("dates.json")), "a failed conversion left its output")
    }

    @Test func negativeZeroSurvives() throws {
        let folder = try ScratchFolder()
        let value: Typed = .array([
            .dict([("negativeZero", .float(-0.0)), ("tiny", .float(-Double.leastNonzeroMagnitude))])
        ])
        try PythonReader.writePlist(value, to: folder.path("zero.plist"), in: folder)
        #expect(try PythonReader.describe("plist", folder.path("zero.plist")) == value)
        try Ferry.convert([folder.path("zero.plist"), folder.path("zero.json")])
        expectSame(try PythonReader.describe("json", folder.path("zero.json")), value)
        try Ferry.convert([folder.path("zero.plist"), folder.path("ferry.plist"), "--to", "plist"])
        expectSame(try PythonReader.describe("plist", folder.path("ferry.plist")), value)
    }

    /// The most negative and most positive integers Ferry holds are written by
    /// plistlib in 8 bytes and come through.
    @Test func int64EndsAreInRange() throws {
        let folder = try ScratchFolder()
        let value: Typed = .array([.dict([("min", .integer(Int64.min)), ("max", .integer(Int64.max))])])
        try PythonReader.writePlist(value, to: folder.path("ends.plist"), in: folder)
        try Ferry.convert([folder.path("ends.plist"), folder.path("ends.json")])
        expectSame(try PythonReader.describe("json", folder.path("ends.json")), value)
    }
}
