import Foundation
import FerryTestSupport
import Testing

@testable import FerryKit

/// `FerryDecoder.decode` of a `Sendable` type reads a large file in two
/// halves at once: the same values as one pass, and the same first error.
@Suite struct DecodingHalvesTests {
    typealias Product = SeedProduct

    /// Products, CSV or JSON Lines, with `bad` (a line number, 1-based
    /// after any header) priced "abc".
    static func products(_ format: String, count: Int = 20_000, bad: Int? = nil) -> String {
        var text = format == "csv" ? "name,price,photo\n" : ""
        text.reserveCapacity(count * 90)
        for index in 1...count {
            let name = "Product \(index) with a long enough name, \"quoted\" in CSV"
            let price = index == bad ? "abc" : index % 7 == 0 ? "" : "\(index % 500).\(index % 100)"
            if format == "csv" {
                text += "\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\",\(price),\n"
            } else {
                let priceJSON = price.isEmpty ? "null" : index == bad ? "\"abc\"" : price
                text += #"{"name": "\#(name.replacingOccurrences(of: "\"", with: "\\\""))", "price": \#(priceJSON), "photo": null}"# + "\n"
            }
        }
        return text
    }

    @Test(arguments: ["csv", "jsonl"])
    func halvesDecodeWhatOnePassDecodes(format: String) throws {
        let folder = try ScratchFolder()
        let path = try folder.write("products.\(format)", Self.products(format))
        var decoder = FerryDecoder()
        decoder.halvesThreshold = 1 << 16
        #expect(DecodingHalves(decoder, path: path) != nil, "the file is cut in halves")
        let url = URL(fileURLWithPath: path)
        let inHalves = try decoder.decode([Product].self, from: url)
        let onePass = try decoder.decodeInOnePass([Product].self, from: url)
        #expect(inHalves.count == 20_000)
        #expect(inHalves == onePass)
        #expect(inHalves[19_999].name.hasPrefix("Product 20000 "))
        #expect(inHalves[6].price == nil)
        #expect(inHalves[8].price == Decimal(string: "9.9"))
    }

    /// A bad record in the second half drops the halves: the error is the
    /// one pass's, at its line and cell.
    @Test(arguments: ["csv", "jsonl"])
    func anErrorInTheSecondHalfIsTheOnePassError(format: String) throws {
        let folder = try ScratchFolder()
        let path = try folder.write("products.\(format)", Self.products(format, bad: 15_000))
        var decoder = FerryDecoder()
        decoder.halvesThreshold = 1 << 16
        #expect(DecodingHalves(decoder, path: path) != nil, "the file is cut in halves")
        let error = #expect(throws: FerryError.self) {
            try decoder.decode([Product].self, from: URL(fileURLWithPath: path))
        }
        #expect(error?.location.line == (format == "csv" ? 15_001 : 15_000), "\(String(describing: error))")
        #expect(error?.location.field == "price")
    }
}
