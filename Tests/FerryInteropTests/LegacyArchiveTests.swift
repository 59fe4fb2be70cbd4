import Foundation
import Testing

/// Examples/Products, the file the GameStore app saved (written by
/// Scripts/make-legacy-archive.py with plistlib, independently of Ferry),
/// converts to JSON and CSV with its photos intact.
@Suite struct LegacyArchiveTests {
    static let legacy = TestPaths.example("Products")

    /// The legacy archive, read by plistlib: a check that the example is what
    /// the tests below assume.
    @Test func legacyExampleIsAKeyedArchive() throws {
        let graph = ArchiveGraph(try PythonReader.describe("plist", Self.legacy))
        #expect(graph.top["$archiver"] == .string("NSKeyedArchiver"))
        #expect(Set(graph.classNames) == ["GameStoreiOS.Product", "UIImage", "NSArray"])
    }

    @Test func legacyArchiveToJSON() throws {
        let folder = try ScratchFolder()
        try Ferry.convert([Self.legacy, folder.path("products.json")])
        let json = try PythonReader.describe("json", folder.path("products.json"))
        let expected = try ExampleData.products().map(\.productInJSON)
        #expect(json.elements.count == 3)
        expectSame(json.normalized, Typed.array(expected).normalized)
    }

    /// The photos go to files beside the CSV, whose `photo` column holds
    /// their paths relative to the CSV's folder.
    @Test func legacyArchiveToCSVWithPhotoFiles() throws {
        let folder = try ScratchFolder()
        try Ferry.convert([Self.legacy, folder.path("products.csv"), "--photos-dir", folder.path("photos")])
        let rows = try PythonReader.describe("csv", folder.path("products.csv")).elements
        #expect(rows.count == 3)
        let photos = try ExampleData.photos()
        for (index, row) in rows.enumerated() {
            #expect(row.keys.sorted() == ["name", "photo", "price"])
            #expect(row["name"] == .string(ExampleData.productNames[index]))
            guard case .string(let price)? = row["price"], case .string(let path)? = row["photo"] else {
                Issue.record("row \(index) lacks a price or a photo: \(row)")
                continue
            }
            #expect(Double(price) == ExampleData.productPrices[index])
            #expect(!path.hasPrefix("/"), "the photo path \(path) is not relative")
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(path))
            #expect([UInt8](bytes) == photos[index], "\(path) differs from \(ExampleData.photoFiles[index])")
        }
    }
}
