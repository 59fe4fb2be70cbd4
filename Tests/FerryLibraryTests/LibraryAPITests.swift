import Ferry
import Foundation
import Testing

/// The API issue 33 names, through `import Ferry` alone (no `@testable`,
/// no other Ferry module): what an app's developer can write. It fails to
/// compile when a name the issue promises is missing or not public.
@Suite struct LibraryAPITests {
    struct Product: Codable, Equatable {
        var name: String
        var price: Decimal?
        var photo: Data?
    }

    struct Book: Codable, Equatable {
        var title: String
        var author: String
        var description: String
        var pages: Int
        var readThisBook: Bool
        var isbn: String?
    }

    static let products = [
        Product(name: "Wii", price: Decimal(string: "269.99"), photo: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2])),
        Product(name: "Wireless Controller", price: Decimal(string: "19.99"), photo: nil),
    ]

    /// A folder of its own under the temporary directory, removed after.
    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    @Test func formatsByCodecID() {
        let formats: [FerryFormat] = [.json, .jsonl, .csv, .tsv, .plist, .plistXML, .archive, .bundle]
        #expect(formats.map(\.rawValue) == ["json", "jsonl", "csv", "tsv", "plist", "plist-xml", "archive", "bundle"])
        #expect(FerryFormat(rawValue: "yaml").rawValue == "yaml")
    }

    @Test func codersThroughDataAndURLs() throws {
        var encoder: FerryEncoder = FerryEncoder(format: .jsonl)
        encoder.compact = true
        encoder.gzip = false
        encoder.archiveClassName = nil
        let data: Data = try encoder.encode(Self.products)
        var decoder: FerryDecoder = FerryDecoder(format: .jsonl, kind: .product)
        decoder.validates = true
        decoder.csvDelimiter = nil
        decoder.decimalComma = false
        decoder.encoding = nil
        #expect(try decoder.decode([Product].self, from: data) == Self.products)
        try Self.withFolder { folder in
            let url = folder.appendingPathComponent("products.csv.gz")
            try FerryEncoder(format: .csv).encode(Self.products, to: url)
            #expect(try FerryDecoder().decode([Product].self, from: url) == Self.products)
            let records: FerryDecoder.Records<Product> = try FerryDecoder().records(of: Product.self, from: url)
            let results: [Result<Product, FerryError>] = Array(records)
            #expect(results.count == 2)
        }
    }

    @Test func booksThroughAnArchive() throws {
        let books = [
            Book(title: "Swift", author: "A", description: "B", pages: 12, readThisBook: true, isbn: nil),
            Book(title: "SwiftUI", author: "C", description: "D", pages: 176, readThisBook: false, isbn: "9781617295188"),
        ]
        let archive = try FerryEncoder(format: .archive).encode(books)
        #expect(try FerryDecoder(format: .archive).decode([Book].self, from: archive) == books)
    }

    @Test func errorsAreLocalizedAndLocated() throws {
        let data = Data("name,price\nWii,abc\n".utf8)
        do {
            _ = try FerryDecoder(format: .csv).decode([Product].self, from: data)
            Issue.record("a price of abc decodes")
        } catch {
            // `Ferry.` since Swift Testing has a `SourceLocation` of its own.
            let located: Ferry.SourceLocation = error.location
            #expect(located.line == 2)
            #expect(located.field == "price")
            let localized: any LocalizedError = error
            #expect(localized.errorDescription == error.description)
            #expect(error.description(language: "de_DE") != error.description)
        }
        let catalog: MessageCatalog = Messages.catalog(locale: "de-DE")
        #expect(catalog.language == "de")
    }

    @Test func commandsTakeURLs() throws {
        try Self.withFolder { folder in
            let json = folder.appendingPathComponent("products.json")
            try FerryEncoder(format: .json).encode(Self.products, to: json)
            let csv = folder.appendingPathComponent("products.csv")
            let summary: ConversionSummary = try Converter().convert(json, to: csv)
            #expect(summary.records == 2)
            let report: ValidationReport = Validator().validate([json, csv])
            #expect(report.files.map(\.errors) == [0, 0])
            let merged = folder.appendingPathComponent("merged.jsonl")
            let _: MergeReport = try Merger().merge([json, csv], into: merged)
            #expect(try FerryDecoder().decode([Product].self, from: merged).map(\.name) == Self.products.map(\.name))
        }
    }

    // MARK: - Typed codec configuration

    @Test func typedCodecConfigurations() throws {
        var dialect = CSVDialect(delimiter: UInt8(ascii: ";"))
        dialect.decimalComma = true
        let registry = CodecRegistry.standard
            .registering(CSVCodec(dialect: dialect))
            .registering(JSONCodec(style: .compact))
            .registering(ArchiveCodec(className: "GameStore.Product"))
        try Self.withFolder { folder in
            let csv = folder.appendingPathComponent("products.csv")
            try Data("name;price\nWii;269,50\n".utf8).write(to: csv)
            let json = folder.appendingPathComponent("products.json")
            _ = try Converter(registry: registry).convert(csv, to: json)
            #expect(try String(contentsOf: json, encoding: .utf8) == #"[{"name":"Wii","price":269.50}]"# + "\n")
            let archive = folder.appendingPathComponent("products.archive")
            _ = try Converter(registry: registry).convert(csv, to: archive)
            #expect(try Data(contentsOf: archive).range(of: Data("GameStore.Product".utf8)) != nil)
        }
    }

    /// The command line's flags become the same typed configurations: a
    /// registry configured by option values converts with no options left
    /// in the run.
    @Test func optionValuesConfigureTheCodecsTyped() throws {
        let registry = try CodecRegistry.standard.configured(
            by: OptionValues([
                "delimiter": ";", "decimal-comma": "", "compact": "", "class-name": "GameStore.Product",
                "sheet": "Items", "records-at": "/products",
            ]))
        let csv = try #require(registry.codec(id: "csv") as? CSVCodec)
        #expect(csv.dialect?.delimiter == UInt8(ascii: ";"))
        #expect(csv.dialect?.decimalComma == true)
        let json = try #require(registry.codec(id: "json") as? JSONCodec)
        #expect(json.style == .compact)
        #expect(json.recordsPointer == "/products")
        #expect((registry.codec(id: "archive") as? ArchiveCodec)?.className == "GameStore.Product")
        #expect((registry.codec(id: "xlsx") as? XLSXCodec)?.sheet == "Items")
        // TSV keeps its id and extensions; JSON Lines has no options.
        #expect(registry.codec(id: "tsv")?.extensions == ["tsv", "tab"])
        #expect(registry.codec(forPath: "a.jsonl")?.id == "jsonl")
        try Self.withFolder { folder in
            let input = folder.appendingPathComponent("products.csv")
            try Data("name;price\nWii;269,50\n".utf8).write(to: input)
            let output = folder.appendingPathComponent("products.xlsx")
            _ = try Converter(registry: registry).convert(input, to: output)
            let back = folder.appendingPathComponent("back.json")
            _ = try Converter(registry: registry).convert(output, to: back)
            #expect(try String(contentsOf: back, encoding: .utf8) == #"[{"name":"Wii","price":269.50}]"# + "\n")
        }
        for bad in [["delimiter": "ab"], ["records-at": "products"], ["class-map": "no-equals-sign"]] {
            #expect(throws: FerryError.self) { try CodecRegistry.standard.configured(by: OptionValues(bad)) }
        }
    }

    @Test func aMisspeltOptionIsAnErrorWithASuggestion() throws {
        try Self.withFolder { folder in
            let json = folder.appendingPathComponent("products.json")
            try FerryEncoder(format: .json).encode(Self.products, to: json)
            var options = ConversionOptions()
            options.codecOptions = OptionValues(["delimter": ";"])
            #expect(throws: FerryError.unknownCodecOption("delimter", codecs: CodecRegistry.standard.codecs.map(\.id).joined(separator: ", "), suggestion: "delimiter")) {
                try Converter().convert(json, to: folder.appendingPathComponent("out.csv"), options: options)
            }
            options.codecOptions = OptionValues(["zzzzzz": ""])
            do throws(FerryError) {
                _ = try Converter().convert(json, to: folder.appendingPathComponent("out.csv"), options: options)
                Issue.record("an unknown option converts")
            } catch {
                #expect(error.code == .usageUnknownCodecOption)
            }
        }
    }

    // MARK: - Records in memory, readers as sequences, plugin catalogs

    @Test func validatesRecordsInMemoryWithUniqueKeys() {
        let records = [
            Record([("name", .string("Wii")), ("price", .integer(269)), ("sku", .string("GS-1"))]),
            Record([("name", .string("Xbox")), ("price", .integer(-1)), ("sku", .string("GS-2"))]),
            Record([("name", .string("Pad")), ("price", .integer(19)), ("sku", .string("GS-1"))]),
        ]
        let report: ValidationReport = Validator().validate(records, kind: .product)
        #expect(report.total.records == 3)
        #expect(report.total.errors == 2)
        #expect(report.diagnostics.map(\.code).contains(.recordNegative))
        #expect(report.diagnostics.map(\.location.record) == [1, 2])
        #expect(Validator().validate(records.prefix(1), kind: .product).total.errors == 0)
    }

    @Test func aReaderIsASequenceOfResults() throws {
        let lines = #"{"name":"Wii"}"# + "\n" + #"{"name":"#  + "\n" + #"{"name":"Pad"}"# + "\n"
        let context = ReadContext()
        context.resumesAfterBadRecords = true
        let reader = try JSONLinesCodec().makeReader(MemoryInput(Array(lines.utf8)), context: context)
        let results = Array(reader.records)
        #expect(results.count == 3)
        #expect((try? results[2].get())?.values == [.string("Pad")])
        guard case .failure(let error) = results[1] else {
            Issue.record("a broken line reads")
            return
        }
        #expect(error.location.line == 2)
        // A reader that stays failed ends the sequence at its error.
        let stuck = try JSONLinesCodec().makeReader(MemoryInput(Array(lines.utf8)), context: ReadContext())
        #expect(Array(stuck.records).count == 2)
    }

    /// A plugin codec with its own code, in English and German.
    struct ShoutCodec: Codec {
        static let loud = FerryError.Code("shout.tooLoud", .data)
        let id = "shout"
        let extensions = ["shout"]
        let capabilities = CodecCapabilities.write
        let messages = ["shout.tooLoud": "the record is too loud"]
        let catalogs = ["de": ["shout.tooLoud": "der Datensatz ist zu laut"]]
        func sniff(_ prefix: [UInt8]) -> SniffResult { .no }
    }

    @Test func pluginCatalogsTranslateTheirOwnCodes() {
        _ = CodecRegistry.standard.registering(ShoutCodec())
        let error = FerryError(ShoutCodec.loud)
        #expect(error.description(language: "de").contains("der Datensatz ist zu laut"))
        // French: the plugin has none, so its English.
        #expect(error.description(language: "fr").contains("the record is too loud"))
        #expect(error.description.contains("the record is too loud"))
    }
}
