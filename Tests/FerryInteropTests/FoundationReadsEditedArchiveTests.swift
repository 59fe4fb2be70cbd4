import FerryKit
import Foundation
import Testing

/// Examples/Products edited in place by `KeyedArchiveEditor` (a price
/// edited, a product added with and without a photo, one removed), in its
/// binary and its XML form: Foundation's `NSKeyedUnarchiver` decodes each
/// result into the GameStore app's classes, mapped with `setClass`.
@Suite(.serialized) struct FoundationReadsEditedArchiveTests {
    enum Edit: String, CaseIterable, Sendable {
        case editPrice, addWithPhoto, addWithoutPhoto, remove
    }

    /// A product as the app decodes it.
    struct Product: Equatable {
        let name: String
        let price: Double
        let photo: [UInt8]?
    }

    static func example() throws -> [Product] {
        let photos = try ExampleData.photos()
        return ExampleData.productNames.indices.map {
            Product(name: ExampleData.productNames[$0], price: ExampleData.productPrices[$0], photo: photos[$0])
        }
    }

    /// Applies `edit` to `editor`, and to the products it should then hold.
    static func apply(_ edit: Edit, to editor: inout KeyedArchiveEditor, _ products: inout [Product]) throws {
        switch edit {
        case .editPrice:
            let record = try editor.record(at: 1)
            let pairs = record.pairs.map { $0.0 == "price" ? ("price", Value.double(249)) : $0 }
            try editor.replace(at: 1, with: Record(pairs))
            products[1] = Product(name: products[1].name, price: 249, photo: products[1].photo)
        case .addWithPhoto:
            let photo = try ExampleData.photo("wii.png")
            try editor.append(Record([("name", .string("PS5")), ("price", .integer(499)), ("photo", .bytes(photo))]))
            products.append(Product(name: "PS5", price: 499, photo: photo))
        case .addWithoutPhoto:
            try editor.append(Record([("name", .string("Game Pass")), ("price", .double(9.99))]))
            products.append(Product(name: "Game Pass", price: 9.99, photo: nil))
        case .remove:
            try editor.remove(at: 0)
            products.removeFirst()
        }
    }

    @Test(arguments: ["binary", "xml"], Edit.allCases)
    func foundationDecodesTheEditedArchive(form: String, edit: Edit) throws {
        let folder = try ScratchFolder()
        let input = form == "binary" ? try LegacyArchive.binary() : try LegacyArchive.xml()
        var editor = try KeyedArchiveEditor(bytes: input, name: "Products", context: ReadContext())
        var expected = try Self.example()
        try Self.apply(edit, to: &editor, &expected)
        let output = try editor.encoded()
        #expect(output.starts(with: Array("bplist00".utf8)) == (form == "binary"))
        #expect(output.starts(with: Array("<?xml".utf8)) == (form == "xml"))

        // Foundation aborts on a class it cannot find: plistlib looks first.
        let path = try folder.write("Products", output)
        let found = Set(ArchiveGraph(try PythonReader.describe("plist", path)).classNames)
        try #require(found == ["NSArray", "GameStoreiOS.Product", "UIImage"], "the archive names \(found.sorted())")

        let decoded = try FoundationReadsArchiveTests.products(Data(output), className: "GameStoreiOS.Product")
        let products = decoded.map { Product(name: $0.name, price: $0.price, photo: $0.photo.map { [UInt8]($0.data) }) }
        #expect(products == expected)
    }

    /// An archive Foundation wrote, of Swift classes (`FerryInteropTests.SwiftImageProduct`,
    /// `FerryInteropTests.UIImage`, with Foundation's own key set), edited by
    /// Ferry and read back by Foundation: the added product's photo is an
    /// instance of the archive's own image class. (The app's product class
    /// requires a photo, so a product added without one is left to the
    /// test above.)
    @Test(arguments: [Edit.editPrice, .addWithPhoto, .remove])
    func foundationDecodesItsOwnArchiveEdited(edit: Edit) throws {
        let productClass = NSStringFromClass(SwiftImageProduct.self)
        let imageClass = NSStringFromClass(UIImage.self)
        var editor = try KeyedArchiveEditor(
            bytes: [UInt8](try SwiftImageProduct.exampleArchive()), name: "foundation.archive",
            context: ReadContext(options: OptionValues(["class-map": "\(productClass)=product"])))
        var expected = try Self.example()
        try Self.apply(edit, to: &editor, &expected)
        let output = try editor.encoded()
        let root = try FoundationReadsArchiveTests.unarchive(
            Data(output), classes: [productClass: SwiftImageProduct.self, imageClass: UIImage.self],
            allowed: [NSArray.self, SwiftImageProduct.self, UIImage.self, NSString.self, NSData.self])
        let decoded = try #require(root as? [SwiftImageProduct], "the root is \(String(describing: root))")
        let products = decoded.map { Product(name: $0.name, price: $0.price, photo: [UInt8]($0.photo.data)) }
        #expect(products == expected)
    }
}
