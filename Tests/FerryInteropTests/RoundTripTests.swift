import Foundation
import Testing

/// JSON → archive → JSON and JSON → plist → JSON keep every value, type and
/// key order, as Python's `json` reads both ends.
@Suite struct RoundTripTests {
    /// Converts `input` to `format` and back to JSON; returns both ends as
    /// Python reads them.
    /// - Parameter named: whether the way back names the format with
    ///   `--from` instead of leaving it to sniffing (`ArchiveSniffingTests`).
    static func roundTrip(
        _ input: String, through format: String, _ options: [String] = [], named: Bool = false
    ) throws -> (Typed, Typed) {
        let folder = try ScratchFolder()
        try Ferry.convert([input, folder.path("middle.\(format)")] + options)
        try Ferry.convert(
            [folder.path("middle.\(format)"), folder.path("back.json")] + (named ? ["--from", format] : []))
        return (
            try PythonReader.describe("json", input), try PythonReader.describe("json", folder.path("back.json"))
        )
    }

    /// Products with inline photos come back byte for byte, photos included.
    @Test(arguments: ["archive", "plist"])
    func inlineProductsRoundTrip(format: String) throws {
        let (original, back) = try Self.roundTrip(TestPaths.example("products-inline.json"), through: format)
        expectSame(original, Typed.array(try ExampleData.products().map(\.productInJSON)), "products-inline.json")
        expectSame(back, original)
    }

    /// Photos referenced by path stay references through a plist, which can
    /// hold one; an archive cannot (a product's photo is a UIImage), so the
    /// files are read from Examples/photos and come back inline, holding
    /// their bytes (plists embedded them too, before one rule held for all).
    @Test(arguments: ["archive", "plist"])
    func productsWithPhotoFilesRoundTrip(format: String) throws {
        let (original, back) = try Self.roundTrip(TestPaths.example("products.json"), through: format)
        if format == "plist" {
            expectSame(back, original)
        } else {
            expectSame(back, Typed.array(try ExampleData.products().map(\.productInJSON)))
        }
        let (_, embedded) = try Self.roundTrip(TestPaths.example("products.json"), through: format, ["--embed-photos"])
        expectSame(embedded, Typed.array(try ExampleData.products().map(\.productInJSON)))
    }

    @Test(arguments: ["archive", "plist"])
    func booksRoundTrip(format: String) throws {
        let (original, back) = try Self.roundTrip(TestPaths.example("books.json"), through: format)
        expectSame(original, Typed.array(ExampleData.books), "books.json")
        expectSame(back, original)
    }

    /// Random records: strings in every script with controls and NULs,
    /// integers at the width boundaries and both ends of Int64, doubles from
    /// subnormal to 1e300 and -0.0, nested arrays and objects. These files
    /// are larger than Ferry sniffs, so the way back names its format.
    @Test(arguments: [
        ("generic", "archive"), ("generic", "plist"), ("book", "archive"), ("book", "plist"),
        ("product", "archive"), ("product", "plist"),
    ])
    func randomRecordsRoundTrip(kind: String, format: String) throws {
        let folder = try ScratchFolder()
        let input = folder.path("random.json")
        try PythonReader.randomDocument(
            kind: kind, seed: 0xF3_77 + kind.count * 31 + format.count, count: 500, to: input)
        let (original, back) = try Self.roundTrip(input, through: format, ["--kind", kind], named: true)
        #expect(original.elements.count == 500)
        expectSame(back, original)
    }
}
