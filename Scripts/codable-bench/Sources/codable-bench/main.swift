// codable-bench WAY FILE: decodes FILE's products one way and prints how
// many, and what it checked, on one line; Scripts/bench-codable.py times it.
//
//   ferry      FerryDecoder().decode([Product].self, from:), any format
//   stream     FerryDecoder().records(of:from:), one record at a time
//   foundation Foundation's JSONDecoder on a JSON array
import Ferry
import Foundation

struct Product: Codable {
    var name: String
    var price: Decimal?
    var photo: String?
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: codable-bench ferry|stream|foundation FILE\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: arguments[1])
do {
    var count = 0
    // What was decoded, cheaply: Decimal's own addition would cost as
    // much as the decoding.
    var priced = 0
    var nameBytes = 0
    func tally(_ product: Product) {
        if product.price.map({ !$0.isZero }) ?? false { priced += 1 }
        nameBytes += product.name.utf8.count
    }
    switch arguments[0] {
    case "ferry":
        let products = try FerryDecoder().decode([Product].self, from: url)
        count = products.count
        products.forEach(tally)
    case "stream":
        for result in try FerryDecoder().records(of: Product.self, from: url) {
            let product = try result.get()
            count += 1
            tally(product)
        }
    case "foundation":
        let products = try JSONDecoder().decode([Product].self, from: Data(contentsOf: url))
        count = products.count
        products.forEach(tally)
    default:
        FileHandle.standardError.write(Data("unknown way \(arguments[0])\n".utf8))
        exit(2)
    }
    print("\(count) products, \(priced) with a price, names of \(nameBytes) bytes")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
