@_exported import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - The example products and books

/// What Examples/products.json and Examples/books.json hold, written out
/// here so that every reader is checked against the same facts.
enum ExampleData {
    static let productNames = ["Xbox 360", "Wii", "Wireless Controller"]
    static let productPrices = [299.0, 269.0, 19.99]
    static let photoFiles = ["xbox-360.png", "wii.png", "wireless-controller.png"]
    static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func photo(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestPaths.examples.appendingPathComponent("photos/\(file)")))
    }

    /// The three photos, in product order.
    static func photos() throws -> [[UInt8]] { try photoFiles.map { try photo($0) } }

    /// The products as typed values, photos as their bytes, in the field
    /// order of products.json.
    static func products() throws -> [Typed] {
        let photos = try photos()
        return productNames.indices.map { index in
            .dict([
                ("name", .string(productNames[index])), ("price", .float(productPrices[index])),
                ("photo", .bytes(photos[index])),
            ])
        }
    }

    /// The books as typed values, in the field order of books.json.
    static let books: [Typed] = [
        book(
            "The Swift Programming Language", "Apple Inc.",
            "The official guide and reference to the Swift language, from a first tour to the formal grammar.",
            1024, true, 0.0, "9780999580745"),
        book(
            "Swift in Depth", "Tjeerd in 't Veen",
            "Moves working Swift developers past the basics with generics, protocols and error handling in real code.",
            325, false, 49.99, "9781617295188"),
        book(
            "Thinking in SwiftUI", "Chris Eidhof & Florian Kugler",
            "Explains the mental model behind SwiftUI — view trees, state and the layout algorithm.",
            176, true, 39.0, "9783981786101"),
        book(
            "Advanced Swift", "Chris Eidhof, Ole Begemann, Airspeed Velocity",
            "Answers the \"why\" behind Swift's collections, strings, generics, and protocols, not just the \"how\".",
            612, false, 49.0, "9783981786248"),
    ]

    static func book(
        _ title: String, _ author: String, _ description: String, _ pages: Int64, _ read: Bool, _ price: Double,
        _ isbn: String
    ) -> Typed {
        .dict([
            ("title", .string(title)), ("author", .string(author)), ("description", .string(description)),
            ("pages", .integer(pages)), ("readThisBook", .bool(read)), ("price", .float(price)),
            ("isbn", .string(isbn)),
        ])
    }

    /// `bytes` as Ferry writes a photo in JSON.
    static func pngDataURI(_ bytes: [UInt8]) -> String { "data:image/png;base64," + Data(bytes).base64EncodedString() }
}

// MARK: - Running ferry and python3

extension Ferry {
    /// Runs `ferry convert --quiet` and requires it to succeed silently.
    static func convert(_ arguments: [String], in directory: URL? = nil) throws {
        let result = try run(["convert", "--quiet"] + arguments, in: directory)
        try #require(
            result.status == 0 && !result.signaled,
            "ferry convert \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.err)")
        #expect(result.stderr.isEmpty, "\(result.err)")
    }
}
