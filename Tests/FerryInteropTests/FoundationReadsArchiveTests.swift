import Foundation
import Testing

/// Foundation's `NSKeyedUnarchiver` decodes the archives Ferry writes into
/// NSSecureCoding classes, the way the GameStore and BookStore apps would.
///
/// NSKeyedUnarchiver on Linux kills the process on an unknown class name or
/// bad data, so each archive's class names are first read with Python's
/// `plistlib` and checked; only an archive that passes goes to Foundation.
@Suite(.serialized) struct FoundationReadsArchiveTests {
    // MARK: - Helpers

    /// Converts `input` to an archive with `options`; returns its bytes once
    /// its class names are exactly `classNames` (checked with plistlib).
    static func ferryArchive(
        _ input: String, _ options: [String], classNames: Set<String>, in folder: ScratchFolder
    ) throws -> Data {
        let output = folder.path("out.archive")
        try Ferry.convert([input, output, "--to", "archive"] + options)
        let archive = try PythonReader.describe("plist", output)
        let found = Set(ArchiveGraph(archive).classNames)
        try #require(found == classNames, "the archive names classes \(found.sorted())")
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    /// The root object of `data`, decoded with secure coding and the given
    /// class substitutions; any error the unarchiver records fails the test.
    static func unarchive(_ data: Data, classes: [String: AnyClass], allowed: [AnyClass]) throws -> Any? {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = true
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        for entry in classes { unarchiver.setClass(entry.value, forClassName: entry.key) }
        let root = unarchiver.decodeObject(of: allowed, forKey: NSKeyedArchiveRootObjectKey)
        #expect(unarchiver.error == nil, "NSKeyedUnarchiver: \(String(describing: unarchiver.error))")
        unarchiver.finishDecoding()
        return root
    }

    static func products(_ data: Data, className: String) throws -> [ProductFixture] {
        let root = try unarchive(
            data, classes: [className: ProductFixture.self, "UIImage": ImageFixture.self],
            allowed: [NSArray.self, ProductFixture.self, ImageFixture.self, NSString.self, NSData.self])
        return try #require(root as? [ProductFixture], "the root is \(String(describing: root))")
    }

    static func books(_ data: Data, className: String) throws -> [BookFixture] {
        let root = try unarchive(
            data, classes: [className: BookFixture.self], allowed: [NSArray.self, BookFixture.self, NSString.self])
        return try #require(root as? [BookFixture], "the root is \(String(describing: root))")
    }

    static func expectExampleProducts(_ products: [ProductFixture]) throws {
        #expect(products.map(\.name) == ExampleData.productNames)
        #expect(products.map(\.price) == ExampleData.productPrices)
        let photos = try ExampleData.photos()
        #expect(products.count == photos.count)
        for (product, photo) in zip(products, photos) {
            let image = try #require(product.photo, "\(product.name) has no photo")
            #expect([UInt8](image.data) == photo, "\(product.name)'s photo differs")
        }
    }

    static func expectExampleBooks(_ books: [BookFixture]) {
        #expect(books.count == ExampleData.books.count)
        for (book, expected) in zip(books, ExampleData.books) {
            let decoded: Typed = .dict([
                ("title", .string(book.title)), ("author", .string(book.author)),
                ("description", .string(book.summary)),
                ("pages", .integer(Int64(book.pages))), ("readThisBook", .bool(book.readThisBook)),
                ("price", .float(book.price)), ("isbn", .string(book.isbn)),
            ])
            expectSame(decoded, expected)
        }
    }

    // MARK: - Products and books

    /// Photos given as paths (products.json) or inline (products-inline.json)
    /// both arrive as UIImage objects whose `UIImageData` is the PNG file.
    @Test(arguments: ["products.json", "products-inline.json"])
    func productsDecodeAsTheAppDecodesThem(example: String) throws {
        let folder = try ScratchFolder()
        let data = try Self.ferryArchive(
            TestPaths.example(example), [], classNames: ["NSArray", "GameStoreiOS.Product", "UIImage"], in: folder)
        try Self.expectExampleProducts(try Self.products(data, className: "GameStoreiOS.Product"))
    }

    @Test func booksDecodeAsTheAppDecodesThem() throws {
        let folder = try ScratchFolder()
        let data = try Self.ferryArchive(
            TestPaths.example("books.json"), [], classNames: ["NSArray", "BookStore.Book"], in: folder)
        Self.expectExampleBooks(try Self.books(data, className: "BookStore.Book"))
    }

    @Test func classNameOptionNamesTheProductClass() throws {
        let folder = try ScratchFolder()
        let data = try Self.ferryArchive(
            TestPaths.example("products.json"), ["--kind", "product", "--class-name", "MyApp.Item"],
            classNames: ["NSArray", "MyApp.Item", "UIImage"], in: folder)
        try Self.expectExampleProducts(try Self.products(data, className: "MyApp.Item"))
    }

    @Test func classNameOptionNamesTheBookClass() throws {
        let folder = try ScratchFolder()
        let data = try Self.ferryArchive(
            TestPaths.example("books.json"), ["--kind", "book", "--class-name", "MyApp.Item"],
            classNames: ["NSArray", "MyApp.Item"], in: folder)
        Self.expectExampleBooks(try Self.books(data, className: "MyApp.Item"))
    }

    // MARK: - Classes of no kind

    /// A record that names its class (`$class`, `$classes`) is archived as
    /// an instance of it, with its `$note` field escaped as `$$note`:
    /// NSKeyedUnarchiver decodes it, the note under `$note`.
    @Test func aRecordsOwnClassDecodes() throws {
        let folder = try ScratchFolder()
        let input = try folder.write(
            "widgets.json",
            #"[{"$class": "MyApp.Widget", "$classes": ["MyApp.Widget", "MyApp.Base", "NSObject"], "#
                + #""name": "Gizmo", "price": 9.5, "$note": "kept"}]"#)
        let data = try Self.ferryArchive(input, [], classNames: ["NSArray", "MyApp.Widget"], in: folder)
        let root = try Self.unarchive(
            data, classes: ["MyApp.Widget": WidgetFixture.self], allowed: [NSArray.self, WidgetFixture.self, NSString.self])
        let widgets = try #require(root as? [WidgetFixture], "the root is \(String(describing: root))")
        #expect(widgets.map(\.name) == ["Gizmo"])
        #expect(widgets.map(\.price) == [9.5])
        #expect(widgets.map(\.note) == ["kept"])
    }

    /// Products whose photos Foundation archived as a Swift class named
    /// UIImage (`FerryInteropTests.UIImage`) come out of Ferry as
    /// `GameStoreiOS.Product`s with UIImage photos the app decodes.
    @Test func moduleQualifiedImagesBecomePhotosTheAppDecodes() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("foundation.archive", try SwiftImageProduct.exampleArchive())
        let data = try Self.ferryArchive(
            input, ["--class-map", "\(NSStringFromClass(SwiftImageProduct.self))=product"],
            classNames: ["NSArray", "GameStoreiOS.Product", "UIImage"], in: folder)
        try Self.expectExampleProducts(try Self.products(data, className: "GameStoreiOS.Product"))
    }

    // MARK: - Foundation values

    /// Records of every plist type, written by PropertyListSerialization and
    /// archived by Ferry, come back from NSKeyedUnarchiver as the same
    /// NSDictionary, NSArray, NSString, NSNumber, NSDate and NSData values.
    @Test func genericRecordsDecodeAsFoundationValues() throws {
        let folder = try ScratchFolder()
        let sample = try PlistSamples.allTypes()
        let plist = try PropertyListSerialization.data(
            fromPropertyList: try sample.foundation, format: .binary, options: 0)
        let input = try folder.write("in.plist", plist)
        let data = try Self.ferryArchive(
            input, ["--kind", "generic"], classNames: ["NSArray", "NSDictionary", "NSDate"], in: folder)
        let root = try Self.unarchive(
            data, classes: [:],
            allowed: [NSArray.self, NSDictionary.self, NSString.self, NSNumber.self, NSDate.self, NSData.self])
        let decoded = try Typed(foundation: try #require(root))
        expectSame(decoded, sample.normalized)
    }
}

// MARK: - Reading an archive's object graph

/// An archive as plistlib read it, with its UIDs followed by hand.
struct ArchiveGraph {
    let top: Typed
    let objects: [Typed]

    init(_ top: Typed) {
        self.top = top
        objects = top["$objects"]?.elements ?? []
    }

    /// Every `$classname` in `$objects`.
    var classNames: [String] {
        objects.compactMap { object in
            if case .string(let name)? = object["$classname"] { return name }
            return nil
        }
    }

    /// The object a UID names.
    func object(_ reference: Typed?) -> Typed? {
        guard case .uid(let index)? = reference, index < UInt64(objects.count) else { return nil }
        return objects[Int(index)]
    }

    /// The class dictionary of an instance.
    func classOf(_ instance: Typed?) -> Typed? { object(instance?["$class"]) }

    /// The root object, `$top.root`.
    var root: Typed? { object(top["$top"]?["root"]) }
}
