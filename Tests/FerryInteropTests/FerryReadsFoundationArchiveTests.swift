import Foundation
import Testing

/// Ferry reads what Foundation's `NSKeyedArchiver` writes: instances of app
/// classes, and NSDictionary, NSArray, NSDate, NSData, NSNumber, NSNull,
/// NSUUID and NSURL values.
///
/// On Linux `setClassName` is ignored, so classes are archived under the name
/// `NSStringFromClass` gives them, such as `FerryInteropTests.ProductFixture`.
@Suite struct FerryReadsFoundationArchiveTests {
    static let productFixtureName = NSStringFromClass(ProductFixture.self)
    static let bookFixtureName = NSStringFromClass(BookFixture.self)

    /// Archives `root` with Foundation, converts it to JSON with Ferry and
    /// returns what Python's `json` reads from it.
    static func ferryJSON(_ root: Any, _ options: [String] = []) throws -> Typed {
        let folder = try ScratchFolder()
        let input = try folder.write("foundation.archive", FoundationArchive.archive(root))
        try Ferry.convert([input, folder.path("out.json")] + options)
        return try PythonReader.describe("json", folder.path("out.json"))
    }

    static func exampleBooks() -> [BookFixture] {
        ExampleData.books.map { book in
            func text(_ key: String) -> String {
                if case .string(let value)? = book[key] { return value }
                return ""
            }
            var pages = 0
            if case .int(let digits)? = book["pages"] { pages = Int(digits) ?? 0 }
            var read = false
            if case .bool(let flag)? = book["readThisBook"] { read = flag }
            var price = 0.0
            if case .float(let number)? = book["price"] { price = number }
            return BookFixture(
                title: text("title"), author: text("author"), summary: text("description"), pages: pages,
                readThisBook: read, price: price, isbn: text("isbn"))
        }
    }

    // MARK: - Classes

    /// A class named `Product` in any module is a product without a class
    /// map; its fields come out in the order Foundation archived them.
    @Test func classNamedProductIsAProduct() throws {
        #expect(NSStringFromClass(Product.self).hasSuffix(".Product"))
        let photos = try ExampleData.photos()
        let products = ExampleData.productNames.indices.map { index in
            Product(
                name: ExampleData.productNames[index], price: ExampleData.productPrices[index],
                photo: Data(photos[index]))
        }
        let json = try Self.ferryJSON(products as NSArray)
        let expected = try ExampleData.products().map(\.productInJSON)
        #expect(json.elements.count == expected.count)
        expectSame(json.normalized, Typed.array(expected).normalized)
    }

    /// `--class-map NAME=product` makes another class's instances products:
    /// they lose their `$class` field. Without it they keep it.
    @Test func classMapNamesAProductClass() throws {
        let products = zip(ExampleData.productNames, ExampleData.productPrices).map {
            ProductFixture(name: $0, price: $1, photo: nil)
        }
        let mapped = try Self.ferryJSON(
            products as NSArray, ["--class-map", "\(Self.productFixtureName)=product", "--kind", "product"])
        let expected: [Typed] = zip(ExampleData.productNames, ExampleData.productPrices).map {
            .dict([("name", .string($0)), ("photo", .null), ("price", .float($1))])
        }
        expectSame(mapped.normalized, Typed.array(expected).normalized)

        let unmapped = try Self.ferryJSON(products as NSArray, ["--kind", "generic"])
        for record in unmapped.elements {
            #expect(record["$class"] == .string(Self.productFixtureName))
        }
    }

    @Test func classMapNamesABookClass() throws {
        let json = try Self.ferryJSON(Self.exampleBooks() as NSArray, ["--class-map", "\(Self.bookFixtureName)=book"])
        expectSame(json.normalized, Typed.array(ExampleData.books).normalized)
    }

    /// A product's photo archived as an image object of the app's own class,
    /// with `UIImage` as its class hint (`$classhints`, which Foundation's
    /// unarchiver falls back on when it lacks the class), should be the
    /// image's bytes. Ferry looks at `$classname` and `$classes` only, so it
    /// reports `record.wrongType` for the photo.
    @Test func imageClassHintedAsUIImageIsAPhoto() throws {
        let photos = try ExampleData.photos()
        let products = ExampleData.productNames.indices.map { index in
            ProductFixture(
                name: ExampleData.productNames[index], price: ExampleData.productPrices[index],
                photo: ImageFixture(data: Data(photos[index])))
        }
        let folder = try ScratchFolder()
        let input = try folder.write("foundation.archive", FoundationArchive.archive(products as NSArray))
        let archive = ArchiveGraph(try PythonReader.describe("plist", input))
        let imageClass = try #require(
            archive.objects.first { $0["$classname"] == .string(NSStringFromClass(ImageFixture.self)) })
        #expect(imageClass["$classhints"] == .array([.string("UIImage")]))

        // Ferry follows `$classhints`, as Apple's unarchiver does.
        let result = try Ferry.run([
            "convert", "--quiet", input, folder.path("out.json"), "--class-map", "\(Self.productFixtureName)=product",
        ])
        try #require(result.status == 0, "ferry failed: \(result.err)")
        let json = try PythonReader.describe("json", folder.path("out.json"))
        let expected = try ExampleData.products().map(\.productInJSON)
        expectSame(json.normalized, Typed.array(expected).normalized)
    }

    /// Swift's NSKeyedArchiver names a Swift class UIImage with its module
    /// (`FerryInteropTests.UIImage` here) and gives it no class hint: its
    /// data is still the photo.
    @Test func moduleQualifiedUIImageIsAPhoto() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("foundation.archive", try SwiftImageProduct.exampleArchive())
        let archive = ArchiveGraph(try PythonReader.describe("plist", input))
        let imageName = NSStringFromClass(UIImage.self)
        #expect(imageName.hasSuffix(".UIImage") && imageName != "UIImage")
        let imageClass = try #require(archive.objects.first { $0["$classname"] == .string(imageName) })
        #expect(imageClass["$classhints"] == nil)

        try Ferry.convert([
            input, folder.path("out.json"), "--class-map", "\(NSStringFromClass(SwiftImageProduct.self))=product",
        ])
        let json = try PythonReader.describe("json", folder.path("out.json"))
        let expected = try ExampleData.products().map(\.productInJSON)
        expectSame(json.normalized, Typed.array(expected).normalized)
    }

    // MARK: - Foundation values

    /// Every Foundation class Ferry knows, as fields of NSDictionary records.
    @Test func foundationValuesBecomeJSON() throws {
        let record = NSMutableDictionary()
        record["string"] = "héllo 😀"
        record["integer"] = NSNumber(value: Int64.min)
        record["large"] = NSNumber(value: Int64.max)
        record["double"] = NSNumber(value: 2.5)
        record["flag"] = NSNumber(value: true)
        record["date"] = NSDate(timeIntervalSinceReferenceDate: 12345.5)
        record["data"] = NSData(bytes: [0, 1, 255] as [UInt8], length: 3)
        record["null"] = NSNull()
        record["uuid"] = NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        record["url"] = NSURL(string: "https://example.com/a/b?q=1")
        record["array"] = [NSNumber(value: 7), "two", [NSNumber(value: 3.5)] as NSArray] as NSArray
        record["object"] = ["inner": ["k": "v"] as NSDictionary] as NSDictionary
        let second = NSMutableDictionary()
        second["string"] = ""
        second["emptyArray"] = NSArray()
        second["emptyObject"] = NSDictionary()

        let json = try Self.ferryJSON([record, second] as NSArray, ["--kind", "generic"])
        let expected: Typed = .array([
            .dict([
                ("string", .string("héllo 😀")),
                ("integer", .integer(Int64.min)),
                ("large", .integer(Int64.max)),
                ("double", .float(2.5)),
                ("flag", .bool(true)),
                ("date", .string("2001-01-01T03:25:45.500Z")),
                ("data", .string("data:application/octet-stream;base64,AAH/")),
                ("null", .null),
                ("uuid", .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")),
                ("url", .string("https://example.com/a/b?q=1")),
                ("array", .array([.integer(7), .string("two"), .array([.float(3.5)])])),
                ("object", .dict([("inner", .dict([("k", .string("v"))]))])),
            ]),
            .dict([("string", .string("")), ("emptyArray", .array([])), ("emptyObject", .dict([]))]),
        ])
        expectSame(json.normalized, expected.normalized)
    }

    /// A root that is one instance, not an array, is one record.
    @Test func singleRootObjectIsOneRecord() throws {
        let product = ProductFixture(name: "Wii", price: 269.0, photo: nil)
        let json = try Self.ferryJSON(product, ["--class-map", "\(Self.productFixtureName)=product"])
        expectSame(
            json.normalized,
            Typed.array([.dict([("name", .string("Wii")), ("photo", .null), ("price", .float(269.0))])]).normalized)
    }
}
