// Migrates the GameStore app's archive into the app's own `Product` type.
//
//     swift run --package-path Examples/LibraryUse library-use Examples/Products out/
//
// reads the archive the app saved with NSKeyedArchiver (photos included),
// prints each product, and writes out/products.jsonl and out/products.csv
// (the photos as data: URIs in both).
import Ferry
import Foundation

/// The product as the app declares it; no annotation is needed.
struct Product: Codable {
    var name: String
    var price: Decimal?
    var photo: Data?
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let archive = arguments.first, let folder = arguments.last else {
    FileHandle.standardError.write(Data("usage: library-use ARCHIVE OUTPUT-FOLDER\n".utf8))
    exit(2)
}

do {
    let products = try FerryDecoder().decode([Product].self, from: URL(fileURLWithPath: archive))
    for product in products {
        let price = product.price.map { "\($0)" } ?? "-"
        print("\(product.name)\t\(price)\t\(product.photo?.count ?? 0) photo bytes")
    }
    let output = URL(fileURLWithPath: folder, isDirectory: true)
    try FerryEncoder(format: .jsonl).encode(products, to: output.appendingPathComponent("products.jsonl"))
    try FerryEncoder(format: .csv).encode(products, to: output.appendingPathComponent("products.csv"))
} catch {
    // A FerryError prints as the command line prints it: file, line, column, code.
    FileHandle.standardError.write(Data("\(error.localizedDescription)\n".utf8))
    exit(1)
}
