import Foundation
import FerryTestSupport
import Testing

@testable import FerryKit

/// `FerryDecoder.decode` of a `Sendable` type reads a large file in parts
/// at once, one per job: the same values as one pass, and the same first
/// error, for any number of parts.
@Suite struct DecodingPartsTests {
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

    @Test(arguments: ["csv", "jsonl"], [2, 3, 4, 8])
    func partsDecodeWhatOnePassDecodes(format: String, jobs: Int) throws {
        let folder = try ScratchFolder()
        let path = try folder.write("products.\(format)", Self.products(format))
        var decoder = FerryDecoder()
        decoder.partsThreshold = 1 << 16
        decoder.jobs = jobs
        #expect(DecodingParts(decoder, path: path)?.plan.ranges.count == jobs, "the file is cut in \(jobs) parts")
        let url = URL(fileURLWithPath: path)
        let inParts = try decoder.decode([Product].self, from: url)
        let onePass = try decoder.decodeInOnePass([Product].self, from: url)
        #expect(inParts.count == 20_000)
        #expect(inParts == onePass)
        #expect(inParts[19_999].name.hasPrefix("Product 20000 "))
        #expect(inParts[6].price == nil)
        #expect(inParts[8].price == Decimal(string: "9.9"))
    }

    /// One job decodes in one pass: no plan is made.
    @Test func oneJobIsOnePass() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("products.csv", Self.products("csv"))
        var decoder = FerryDecoder()
        decoder.partsThreshold = 1 << 16
        decoder.jobs = 1
        #expect(DecodingParts(decoder, path: path) == nil)
        #expect(try decoder.decode([Product].self, from: URL(fileURLWithPath: path)).count == 20_000)
    }

    /// CSV names with line breaks inside quotes, many on each line near
    /// every cut: whatever part a cut lands in, the values are one pass's.
    @Test(arguments: [2, 3, 5])
    func quotedLineBreaksAcrossCutsDecodeAsOnePass(jobs: Int) throws {
        var text = "name,price,photo\n"
        for index in 1...20_000 {
            text += "\"Line one of \(index)\nline \"\"two\"\"\nline three\",\(index % 300).5,\n"
        }
        let folder = try ScratchFolder()
        let path = try folder.write("multiline.csv", text)
        var decoder = FerryDecoder()
        decoder.partsThreshold = 1 << 16
        decoder.jobs = jobs
        let url = URL(fileURLWithPath: path)
        let inParts = try decoder.decode([Product].self, from: url)
        #expect(inParts == (try decoder.decodeInOnePass([Product].self, from: url)))
        #expect(inParts.count == 20_000)
        #expect(inParts[41].name == "Line one of 42\nline \"two\"\nline three")
    }

    /// A bad record in a later part drops the parts: the error is the one
    /// pass's, at its line and cell.
    @Test(arguments: ["csv", "jsonl"], [2, 3])
    func anErrorInALaterPartIsTheOnePassError(format: String, jobs: Int) throws {
        let folder = try ScratchFolder()
        let path = try folder.write("products.\(format)", Self.products(format, bad: 15_000))
        var decoder = FerryDecoder()
        decoder.partsThreshold = 1 << 16
        decoder.jobs = jobs
        #expect(DecodingParts(decoder, path: path) != nil, "the file is cut in parts")
        let error = #expect(throws: FerryError.self) {
            try decoder.decode([Product].self, from: URL(fileURLWithPath: path))
        }
        #expect(error?.location.line == (format == "csv" ? 15_001 : 15_000), "\(String(describing: error))")
        #expect(error?.location.field == "price")
    }
}
