import Foundation

// MARK: - Classes NSKeyedUnarchiver decodes Ferry's archives into

/// The GameStore app's `UIImage`, as far as an archive holds it: the image
/// bytes under `UIImageData`.
///
/// When archived, it names `UIImage` as a class hint (`$classhints`), the
/// class a reader should use when it lacks this one; on Linux the class name
/// itself cannot be changed (`setClassName` is ignored).
final class ImageFixture: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let data: Data

    init(data: Data) { self.data = data }

    init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: "UIImageData") else { return nil }
        self.data = data as Data
    }

    func encode(with coder: NSCoder) { coder.encode(data as NSData, forKey: "UIImageData") }

    override class func classFallbacksForKeyedArchiver() -> [String] { ["UIImage"] }
}

/// The GameStore app's `Product`, decoded the way the app decodes it.
final class ProductFixture: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let name: String
    let price: Double
    let photo: ImageFixture?

    init(name: String, price: Double, photo: ImageFixture?) {
        self.name = name
        self.price = price
        self.photo = photo
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
        self.name = name as String
        price = coder.decodeDouble(forKey: "price")
        photo = coder.decodeObject(of: ImageFixture.self, forKey: "photo")
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(price, forKey: "price")
        coder.encode(photo, forKey: "photo")
    }
}

/// The BookStore app's `Book`.
final class BookFixture: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let title: String
    let author: String
    /// Archived under `description`, which NSObject already uses as a name.
    let summary: String
    let pages: Int
    let readThisBook: Bool
    let price: Double
    let isbn: String

    init(title: String, author: String, summary: String, pages: Int, readThisBook: Bool, price: Double, isbn: String) {
        self.title = title
        self.author = author
        self.summary = summary
        self.pages = pages
        self.readThisBook = readThisBook
        self.price = price
        self.isbn = isbn
    }

    init?(coder: NSCoder) {
        guard let title = coder.decodeObject(of: NSString.self, forKey: "title"),
            let author = coder.decodeObject(of: NSString.self, forKey: "author"),
            let summary = coder.decodeObject(of: NSString.self, forKey: "description"),
            let isbn = coder.decodeObject(of: NSString.self, forKey: "isbn")
        else { return nil }
        self.title = title as String
        self.author = author as String
        self.summary = summary as String
        self.isbn = isbn as String
        pages = coder.decodeInteger(forKey: "pages")
        readThisBook = coder.decodeBool(forKey: "readThisBook")
        price = coder.decodeDouble(forKey: "price")
    }

    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
        coder.encode(author as NSString, forKey: "author")
        coder.encode(summary as NSString, forKey: "description")
        coder.encode(pages, forKey: "pages")
        coder.encode(readThisBook, forKey: "readThisBook")
        coder.encode(price, forKey: "price")
        coder.encode(isbn as NSString, forKey: "isbn")
    }
}

// MARK: - A Swift class named UIImage

/// An app's own `UIImage`: archived on Linux as `FerryInteropTests.UIImage`,
/// the module-qualified name Swift's NSKeyedArchiver gives a Swift class,
/// with no `$classhints`.
final class UIImage: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let data: Data

    init(data: Data) { self.data = data }

    init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: "UIImageData") else { return nil }
        self.data = data as Data
    }

    func encode(with coder: NSCoder) { coder.encode(data as NSData, forKey: "UIImageData") }
}

/// A product whose photo is that `UIImage`.
final class SwiftImageProduct: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let name: String
    let price: Double
    let photo: UIImage

    init(name: String, price: Double, photo: UIImage) {
        self.name = name
        self.price = price
        self.photo = photo
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name"),
            let photo = coder.decodeObject(of: UIImage.self, forKey: "photo")
        else { return nil }
        self.name = name as String
        self.photo = photo
        price = coder.decodeDouble(forKey: "price")
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(price, forKey: "price")
        coder.encode(photo, forKey: "photo")
    }

    /// The example products, archived by Foundation.
    static func exampleArchive() throws -> Data {
        let photos = try ExampleData.photos()
        let products = ExampleData.productNames.indices.map { index in
            SwiftImageProduct(
                name: ExampleData.productNames[index], price: ExampleData.productPrices[index],
                photo: UIImage(data: Data(photos[index])))
        }
        return FoundationArchive.archive(products as NSArray)
    }
}

// MARK: - A class of no kind

/// An app's `MyApp.Widget`, of no kind Ferry knows; it archived a note
/// under `$note`, a key NSKeyedArchiver escapes as `$$note`.
final class WidgetFixture: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let name: String
    let price: Double
    let note: String

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name"),
            let note = coder.decodeObject(of: NSString.self, forKey: "$note")
        else { return nil }
        self.name = name as String
        self.note = note as String
        price = coder.decodeDouble(forKey: "price")
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(price, forKey: "price")
        coder.encode(note as NSString, forKey: "$note")
    }
}

// MARK: - A class whose own name makes its records products

/// A class literally named `Product`: archived on Linux as
/// `FerryInteropTests.Product`, which Ferry takes for a product without a
/// class map. Its photo is plain data, not an image object.
final class Product: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let name: String
    let price: Double
    let photo: Data

    init(name: String, price: Double, photo: Data) {
        self.name = name
        self.price = price
        self.photo = photo
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name"),
            let photo = coder.decodeObject(of: NSData.self, forKey: "photo")
        else { return nil }
        self.name = name as String
        self.photo = photo as Data
        price = coder.decodeDouble(forKey: "price")
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(price, forKey: "price")
        coder.encode(photo as NSData, forKey: "photo")
    }
}

// MARK: - Archiving with Foundation

enum FoundationArchive {
    /// `root` archived by NSKeyedArchiver with secure coding, as the app's
    /// `archiveRootObject` would.
    static func archive(_ root: Any) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        return archiver.encodedData
    }
}
