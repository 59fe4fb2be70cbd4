import Foundation
import FerryTestSupport
import Testing

import FerryKit

/// `FerryDecoder` and `FerryEncoder`, as an app's developer uses them: the
/// seeds' own `Product` and `Book` through every format, from files and bytes.
@Suite struct FerryCoderTests {
    typealias Product = SeedProduct
    typealias Book = SeedBook

    static let products = [
        Product(name: "Xbox 360", price: Decimal(string: "299.00"), photo: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2])),
        Product(name: "Wii", price: Decimal(269), photo: nil),
        Product(name: "Wireless Controller", price: Decimal(string: "19.99"), photo: nil),
    ]

    static let books = [
        Book(
            title: "Swift in Depth", author: "Tjeerd in 't Veen", description: "Generics, \"protocols\", errors.",
            pages: 325, readThisBook: false, price: Decimal(string: "49.99"), isbn: "9781617295188"),
        Book(
            title: "Thinking in SwiftUI", author: "Chris Eidhof & Florian Kugler", description: "View trees —\nstate.",
            pages: 176, readThisBook: true, price: nil, isbn: nil),
    ]

    static let formats: [FerryFormat] = [.json, .jsonl, .csv, .tsv, .plist, .plistXML, .archive, .bundle]

    @Test(arguments: formats)
    func productsRoundTripThroughBytes(format: FerryFormat) throws {
        let data = try FerryEncoder(format: format).encode(Self.products)
        let back = try FerryDecoder(format: format).decode([Product].self, from: data)
        #expect(back == Self.products)
    }

    @Test(arguments: formats)
    func booksRoundTripThroughFiles(format: FerryFormat) throws {
        let folder = try ScratchFolder()
        let url = URL(fileURLWithPath: folder.path("books.\(format.rawValue)"))
        try FerryEncoder(format: format).encode(Self.books, to: url)
        // Sniffed, not named.
        #expect(try FerryDecoder().decode([Book].self, from: url) == Self.books)
    }

    @Test func gzipByTheFileName() throws {
        let folder = try ScratchFolder()
        let url = URL(fileURLWithPath: folder.path("products.jsonl.gz"))
        try FerryEncoder(format: .jsonl).encode(Self.products, to: url)
        #expect(try folder.read("products.jsonl.gz").prefix(2) == [0x1F, 0x8B])
        #expect(try FerryDecoder().decode([Product].self, from: url) == Self.products)
    }

    @Test func legacyArchiveWithItsPhotos() throws {
        let products = try FerryDecoder().decode([Product].self, from: URL(fileURLWithPath: LegacyArchive.path))
        #expect(products.map(\.name) == ["Xbox 360", "Wii", "Wireless Controller"])
        #expect(products.map(\.price) == [Decimal(299), Decimal(269), Decimal(string: "19.99")])
        #expect(products.allSatisfy { ($0.photo?.count ?? 0) > 0 })
    }

    @Test func photoNamesResolveBesideTheFile() throws {
        let products = try FerryDecoder().decode(
            [Product].self, from: URL(fileURLWithPath: TestPaths.example("products.csv")))
        #expect(products.count == 3)
        #expect(products[1].photo == Data(try TestPaths.examplePhoto("wii.png")))
    }

    @Test func aBadPriceIsLocatedAtItsCell() throws {
        var csv = "name,price\n"
        for row in 1...20 { csv += row == 12 ? "Item \(row),abc\n" : "Item \(row),\(row).50\n" }
        let folder = try ScratchFolder()
        let path = try folder.write("prices.csv", csv)
        let results = Array(try FerryDecoder().records(of: Product.self, from: URL(fileURLWithPath: path)))
        // The others decode; the bad one is a failure in its place.
        #expect(results.count == 20)
        let failures = results.enumerated().compactMap { index, result -> (Int, FerryError)? in
            if case .failure(let error) = result { return (index, error) }
            return nil
        }
        #expect(failures.count == 1)
        let (index, error) = try #require(failures.first)
        #expect(index == 11)
        #expect(error.location.file == path)
        #expect(error.location.line == 13)
        #expect(error.location.column == 9)
        #expect(error.location.field == "price")
        #expect(error.location.record == 11)  // 0-based, shown as record 12
        // The product kind types the column, so the reader finds it.
        #expect(error.code == .csvInvalidNumber)
        // Swift shows it as the command line does, and in the reader's language.
        #expect(error.localizedDescription == error.description)
        #expect(
            error.description
                == "\(path):13:9: error: field 'price' must be a number, not 'abc' (record 12, field 'price') [csv.invalidNumber]")
        let german = error.description(language: "de_DE")
        #expect(german.contains("Feld 'price' muss"))
        #expect(german == error.description(language: "de"))
    }

    /// Reading runs a batch ahead on another thread; a decode error, found
    /// on the caller's, still gets its cell, and everything after it is
    /// read once: the records, the reader's own errors and its warnings.
    @Test func decodeErrorsFarIntoAFileAreLocatedAndReadingGoesOn() throws {
        struct Counted: Decodable {
            var title: String
            var pages: Int
        }
        var lines: [String] = []
        for line in 1...2_000 {
            switch line {
            case 700: lines.append(#"{"title": "B700", "pages": "many"}"#)
            case 1_000: lines.append(#"{"title": "B1000", "pages": 3"#)
            case 1_500: lines.append(#"{"title": "B1500",  "pages": 2.5}"#)
            default: lines.append(#"{"title": "B\#(line)", "pages": \#(line)}"#)
            }
        }
        let folder = try ScratchFolder()
        let path = try folder.write("books.jsonl", lines.joined(separator: "\n") + "\n")
        var decoder = FerryDecoder()
        decoder.validates = false
        let results = Array(try decoder.records(of: Counted.self, from: URL(fileURLWithPath: path)))
        #expect(results.count == 2_000)
        let failures = results.enumerated().compactMap { index, result -> (Int, FerryError)? in
            if case .failure(let error) = result { return (index, error) }
            return nil
        }
        #expect(failures.map(\.0) == [699, 999, 1_499])
        #expect(failures.map { $0.1.location.line } == [700, 1_000, 1_500])
        #expect(failures[0].1.location.column == 28, "\(failures[0].1)")
        #expect(failures[0].1.location.field == "pages")
        #expect(failures[2].1.location.column == 30, "\(failures[2].1)")
        #expect(failures[1].1.code.rawValue.hasPrefix("json."), "\(failures[1].1)")
        let pages = results.compactMap { try? $0.get().pages }
        #expect(pages.count == 1_997)
        #expect(pages.last == 2_000)
    }

    /// A record's cells are borrowed from the tape the reading thread
    /// filled, only while its `init(from:)` runs: a type that keeps its
    /// decoder finds no field through it later, never another record's
    /// bytes from a tape used again.
    @Test func aDecoderKeptPastItsRecordReadsNothing() throws {
        final class Keeper: Decodable {
            let title: String
            let decoder: any Decoder
            init(from decoder: any Decoder) throws {
                self.decoder = decoder
                title = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .title)
            }
            enum Keys: String, CodingKey { case title }
        }
        let lines = (1...5_000).map { #"{"title": "Book \#($0) \#(String(repeating: "x", count: 60))"}"# }
        let folder = try ScratchFolder()
        let path = try folder.write("books.jsonl", lines.joined(separator: "\n") + "\n")
        var decoder = FerryDecoder()
        decoder.validates = false
        let kept = try decoder.decode([Keeper].self, from: URL(fileURLWithPath: path))
        #expect(kept.count == 5_000)
        #expect(kept[0].title.hasPrefix("Book 1 "))
        let later = try? kept[0].decoder.container(keyedBy: Keeper.Keys.self).decode(String.self, forKey: .title)
        #expect(later == nil)
        #expect(try kept[0].decoder.container(keyedBy: Keeper.Keys.self).allKeys.isEmpty)
    }

    /// A decode error hands reading over to a reader on the caller's
    /// thread, which reads on from the record; a warning the reading thread
    /// had already given past that record (here CSV's, at the end, for a
    /// row of delimiters) is counted once, as without the error.
    @Test func warningsPastADecodeErrorAreCountedOnce() throws {
        struct Loose: Decodable {
            var title: String
            var pages: Int?
        }
        struct Strict: Decodable {
            var title: String
            var pages: Int
        }
        let data = Data("title,pages\nA,1\nB,\nC,3\n,\n".utf8)
        var decoder = FerryDecoder(format: .csv)
        decoder.validates = false
        let loose = try decoder.records(of: Loose.self, from: data)
        #expect(Array(loose).allSatisfy { (try? $0.get()) != nil })
        #expect(loose.warnings.map(\.code) == [.csvDelimiterRowsSkipped])
        let strict = try decoder.records(of: Strict.self, from: data)
        let results = Array(strict)
        #expect(results.map { (try? $0.get())?.title } == ["A", nil, "C"])
        #expect(strict.warnings.map(\.code) == loose.warnings.map(\.code))
        #expect(strict.warningCount == 1)
    }

    /// When the file changed before a decode error, the reader that would
    /// read on after it cannot find its record again: the sequence says
    /// so instead of ending as if the file had.
    @Test func aFileChangedBeforeADecodeErrorIsAnErrorNotAnEnd() throws {
        struct Strict: Decodable {
            var title: String
            var pages: Int
        }
        let folder = try ScratchFolder()
        let path = try folder.write("books.csv", "title,pages\nA,1\nB,\nC,3\n")
        var decoder = FerryDecoder(format: .csv)
        decoder.validates = false
        var iterator = try decoder.records(of: Strict.self, from: URL(fileURLWithPath: path)).makeIterator()
        // The first batch, all three records, has been read.
        #expect((try? iterator.next()?.get())?.title == "A")
        _ = try folder.write("books.csv", "title,pages\n")
        var codes: [FerryError.Code] = []
        while let result = iterator.next() {
            guard case .failure(let error) = result else { continue }
            codes.append(error.code)
        }
        #expect(codes.count == 2)
        #expect(codes.last == .ioInputChanged)
    }

    /// A CSV codec made with a dialect writes by its delimiter.
    @Test func aCSVCodecWithADialectWritesByItsDelimiter() throws {
        var dialect = CSVDialect(delimiter: UInt8(ascii: ";"))
        dialect.decimalComma = true
        var encoder = FerryEncoder(format: .csv)
        encoder.registry = CodecRegistry.standard.registering(CSVCodec(dialect: dialect))
        let products = [Product(name: "Wii", price: Decimal(string: "269.5"), photo: nil)]
        let written = try encoder.encode(products)
        #expect(String(decoding: written, as: UTF8.self) == "name;price;photo\nWii;269,5;\n")
    }

    /// `FerryDecoder` keeps the dialect of its registry's CSV codec,
    /// setting over it only what its own properties set.
    @Test func theDecoderKeepsItsRegistrysCSVDialect() throws {
        var dialect = CSVDialect(delimiter: UInt8(ascii: ";"))
        dialect.decimalComma = true
        var decoder = FerryDecoder(format: .csv)
        decoder.registry = CodecRegistry.standard.registering(CSVCodec(dialect: dialect))
        let read = try decoder.decode([Product].self, from: Data("name;price\nWii;269,50\n".utf8))
        #expect(read.first?.price == Decimal(string: "269.5"))
    }

    @Test(arguments: [("de_DE", "de"), ("de-DE", "de"), ("de-AT.UTF-8", "de"), ("en_GB", "en-GB"), ("fr", "fr"), ("pt_BR", "en")])
    func catalogsByLocale(locale: String, language: String) {
        #expect(Messages.catalog(locale: locale).language == language)
    }

    @Test func kindRulesApplyUnlessTurnedOff() throws {
        let data = Data(#"{"name":"Wii","price":-1}"#.utf8)
        #expect(throws: FerryError.self) { try FerryDecoder().decode([Product].self, from: data) }
        do {
            _ = try FerryDecoder(format: .jsonl).decode([Product].self, from: data)
        } catch {
            #expect(error.code == .recordNegative)
        }
        var lenient = FerryDecoder(format: .jsonl)
        lenient.validates = false
        #expect(try lenient.decode([Product].self, from: data).first?.price == Decimal(-1))
    }

    @Test func readingStopsAtAnErrorItCannotPass() throws {
        let data = Data("[{\"name\":\"Wii\"},{\"name\":".utf8)
        let results = Array(try FerryDecoder().records(of: Product.self, from: data))
        #expect(results.count == 2)
        #expect((try? results[0].get())?.name == "Wii")
        guard case .failure(let error) = results[1] else {
            Issue.record("a truncated array is an error")
            return
        }
        #expect(error.code.rawValue.hasPrefix("json."))
    }

    @Test func emptyInputIsNoRecordsWithAWarning() throws {
        let records = try FerryDecoder(format: .csv).records(of: Product.self, from: Data())
        #expect(Array(records).isEmpty)
        #expect(records.warnings.map(\.code) == [.formatEmptyInput])
    }

    @Test func typedCSVOptions() throws {
        var decoder = FerryDecoder(format: .csv)
        decoder.csvDelimiter = ";"
        decoder.decimalComma = true
        let data = Data("name;price\nWii;269,50\n".utf8)
        #expect(try decoder.decode([Product].self, from: data) == [Product(name: "Wii", price: Decimal(string: "269.5"))])
    }

    @Test func commandsTakeFileURLs() throws {
        let folder = try ScratchFolder()
        let products = URL(fileURLWithPath: TestPaths.example("products.json"))
        let csv = URL(fileURLWithPath: folder.path("products.csv"))
        // The photos go in as data: URIs, since they are not beside the copy.
        var options = ConversionOptions()
        options.embedPhotos = true
        let summary = try Converter().convert(products, to: csv, options: options)
        #expect(summary.records == 3)
        let report = Validator().validate([csv, products])
        #expect(report.files.map(\.records) == [3, 3])
        #expect(report.files.map(\.errors) == [0, 0])
        let merged = URL(fileURLWithPath: folder.path("merged.jsonl"))
        _ = try Merger().merge([products, csv], into: merged)
        // The merged file keeps products.json's photo names, which do not
        // resolve beside it: a type without the photo reads it.
        struct Named: Decodable { var name: String }
        #expect(try FerryDecoder().decode([Named].self, from: merged).map(\.name) == ["Xbox 360", "Wii", "Wireless Controller"])
    }

    @Test func onlyRecordTypesEncode() {
        #expect(throws: FerryError.encodeNotARecord("Int")) { try FerryEncoder(format: .json).encode([1, 2]) }
    }

    @Test func failedEncodingLeavesTheFileAlone() throws {
        struct Bad: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(Double.nan, forKey: .value)
            }
            enum CodingKeys: CodingKey { case value }
        }
        let folder = try ScratchFolder()
        let path = try folder.write("out.json", "[]\n")
        #expect(throws: FerryError.self) { try FerryEncoder(format: .json).encode([Bad()], to: URL(fileURLWithPath: path)) }
        #expect(try folder.read("out.json") == Array("[]\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.json"])
    }
}
