import Testing

@testable import FerryCSV
@testable import FerryKit

@Suite struct CSVReaderTests {
    @Test func kindsTypeTheirFields() throws {
        let products = readCSV("name,price,photo,sku\nWii,269.00,photos/wii.png,00123\nPad,19,,\n", kind: nil)
        #expect(products.error == nil)
        #expect(products.records.map(\.values) == [
            [.string("Wii"), .double(269), .string("photos/wii.png"), .string("00123")],
            // `sku` is the product schema's (a string): empty, it is null.
            [.string("Pad"), .integer(19), .null, .null],
        ])
        let books = readCSV(
            "title,pages,readThisBook,price\nA,12,yes,1.5\nB,0,NO,\nC,7,1,2\nD,8,False,3\n", kind: .book)
        #expect(books.error == nil)
        #expect(books.records.map { $0["readThisBook"] } == [.bool(true), .bool(false), .bool(true), .bool(false)])
        #expect(books.records.map { $0["pages"] } == [.integer(12), .integer(0), .integer(7), .integer(8)])
        #expect(books.records[1]["price"] == .null)
    }

    /// true/false, yes/no and 1/0 in any case, and nothing else: not a
    /// prefix, not a longer word, not one with a NUL after it.
    @Test func boolCellsTakeTheirSpellingsOnly() {
        func bool(_ text: String) -> Bool? {
            Array(text.utf8).withUnsafeBufferPointer { BoolText.value(of: $0) }
        }
        for text in ["true", "TRUE", "True", "yes", "YeS", "1"] { #expect(bool(text) == true, "\(text)") }
        for text in ["false", "FALSE", "no", "No", "0"] { #expect(bool(text) == false, "\(text)") }
        for text in ["", "t", "tru", "truee", "1\0", "0\0", "no\0", "y", "10", "falsey", "on", "2", " 1", "nO "] {
            #expect(bool(text) == nil, "\(text.debugDescription)")
        }
    }

    /// A zip code keeps its zeros (`00123` is no JSON number) while `1e5`
    /// is a number, kept as written; `--no-infer` keeps both text.
    @Test func genericFieldsAreInferredUnlessNoInfer() {
        let result = readCSV("id,value\n00123,1e5\n", kind: .generic)
        #expect(result.records.first?.values == [.string("00123"), .number(NumberText(unchecked: "1e5"))])
        let text = readCSV("id,value\n00123,1e5\n", kind: .generic, options: ["no-infer": ""])
        #expect(text.records.first?.values == [.string("00123"), .string("1e5")])
    }

    struct BadCell: Sendable, CustomTestStringConvertible {
        let text: String
        let kind: RecordKind
        let code: FerryError.Code
        let line: Int
        let column: Int
        let record: Int
        let field: String
        var testDescription: String { "\(code): \(text)" }
    }

    @Test(arguments: [
        BadCell(text: "name,price\nA,1\nB,cheap\n", kind: .product, code: .csvInvalidNumber, line: 3, column: 3, record: 1, field: "price"),
        BadCell(text: "name,price\nA,\"1,5\"\n", kind: .product, code: .csvInvalidNumber, line: 2, column: 3, record: 0, field: "price"),
        BadCell(text: "title,pages\nA,1.5\n", kind: .book, code: .csvInvalidInteger, line: 2, column: 3, record: 0, field: "pages"),
        BadCell(text: "title,readThisBook\nA,maybe\n", kind: .book, code: .csvInvalidBool, line: 2, column: 3, record: 0, field: "readThisBook"),
    ])
    func cellsThatDoNotFitTheirTypeAreLocated(_ check: BadCell) throws {
        let error = try #require(readCSV(check.text, kind: check.kind).error)
        #expect(error.code == check.code)
        #expect(error.location.line == check.line)
        #expect(error.location.column == check.column)
        #expect(error.location.record == check.record)
        #expect(error.location.field == check.field)
    }

    @Test(arguments: [1, 2, 5, 64])
    func chunkBoundariesChangeNothing(step: Int) {
        let text = "a,b\r\n\"x\r\ny\",\"q\"\"q\"\r\n\"\",é日本\r\nlast,row"
        let whole = readCSV(text)
        let trickled = readCSV(text, step: step)
        #expect(whole.error == nil)
        #expect(trickled.records == whole.records)
        #expect(whole.records.map(\.values) == [
            [.string("x\r\ny"), .string("q\"q")], [.string(""), .string("é日本")], [.string("last"), .string("row")],
        ])
    }

    @Test func anUnclosedQuoteIsReportedWhereItOpens() throws {
        let error = try #require(readCSV("a,b\n1,2\n3,\"open\n4,5\n6,7\n").error)
        #expect(error.code == .csvUnterminatedQuote)
        #expect(error.location.line == 3)
        #expect(error.location.column == 3)
    }

    @Test func textAfterAClosingQuoteIsAnError() throws {
        let error = try #require(readCSV("a,b\n\"x\"y,2\n").error)
        #expect(error.code == .csvUnexpectedAfterQuote)
        #expect(error.location.line == 2)
        #expect(error.location.column == 4)
    }

    @Test func raggedRows() throws {
        let text = "a,b\n1\n1,2,3\n"
        let strict = try #require(readCSV(text).error)
        #expect(strict.code == .csvRaggedRow)
        // The delimiter used is named, so a wrong guess shows.
        #expect(strict.arguments == [.integer(2), .count(1), .string("','")])

        let padded = readCSV(text, options: ["ragged": "pad"])
        #expect(padded.records.map(\.pairs.count) == [2, 3])
        #expect(padded.records[1].fields.names == ["a", "b", "column3"])
        #expect(padded.warnings.first?.arguments == [.integer(2), .string("pad")])

        let truncated = readCSV(text, options: ["ragged": "truncate"])
        // Both columns hold integers only: the missing cell is null.
        #expect(truncated.records.map(\.values) == [[.integer(1), .null], [.integer(1), .integer(2)]])
    }

    @Test func headersWithoutNamesOrRepeatedNames() {
        let result = readCSV("a,,a\n1,2,3\n")
        #expect(result.records.first?.fields.names == ["a", "column2", "a_2"])
        #expect(result.warnings.map(\.code) == [.csvRenamedHeader])
        let noHeader = readCSV("1,2\n3,4\n", options: ["no-header": ""])
        #expect(noHeader.records.count == 2)
        #expect(noHeader.records.first?.fields.names == ["column1", "column2"])
    }

    /// Without a header the first row is data, even when reading it moved
    /// the window (a refill drops the BOM before it): found by fuzzing,
    /// where the rows after a BOM were lost or read past their end.
    @Test(arguments: [nil, 1, 2, 5])
    func theFirstRowIsDataAfterABOMWithoutAHeader(step: Int?) {
        let withBOM = readCSV("\u{FEFF}a;b\nc;d\n", options: ["no-header": "", "delimiter": ";"], step: step)
        #expect(withBOM.error == nil)
        #expect(withBOM.records.map(\.values) == [[.string("a"), .string("b")], [.string("c"), .string("d")]])
        let one = readCSV("\u{FEFF};x", options: ["no-header": "", "delimiter": ";"], step: step)
        #expect(one.error == nil)
        #expect(one.records.map(\.values) == [[.string(""), .string("x")]])
        // A row of delimiters only is skipped (ExcelExportTests).
        let skipped = readCSV("\u{FEFF};", options: ["no-header": "", "delimiter": ";"], step: step)
        #expect(skipped.error == nil)
        #expect(skipped.records.isEmpty)
    }

    @Test func blankLinesAreSkipped() {
        let result = readCSV("a,b\n\n1,2\n\n")
        #expect(result.records.count == 1)
    }

    @Test func limitsHold() throws {
        let field = try #require(readCSV("a\n\(String(repeating: "x", count: 100))\n", options: ["max-field-bytes": "10"]).error)
        #expect(field.code == .csvFieldTooLarge)
        let bytes = Array("a,b\n\"unclosed".utf8) + [UInt8](repeating: 0x41, count: 5000)
        let context = ReadContext(kind: .generic)
        context.limits.maxRecordBytes = 1000
        do {
            let reader = try CSVCodec.csv.makeReader(MemoryInput(bytes), context: context)
            while try reader.next() != nil {}
            Issue.record("a 5,000-byte record passed a 1,000-byte limit")
        } catch {
            #expect(error.code == .recordTooLarge)
        }
    }

    @Test func optionsAreChecked() {
        // Any one ASCII character is a delimiter now ("x" once was refused); two are not.
        #expect(readCSV("a\n", options: ["delimiter": "xy"]).error?.code == .usageInvalidValue)
        #expect(readCSV("a\n", options: ["delimiter": "x"]).error == nil)
        #expect(readCSV("a\n", options: ["ragged": "maybe"]).error?.code == .usageInvalidValue)
        #expect(readCSV("a\n", options: ["quote": "ab"]).error?.code == .usageInvalidValue)
        let semicolons = readCSV("a;b\n1;\"x;y\"\n", options: ["delimiter": ";"])
        #expect(semicolons.records.first?.values == [.integer(1), .string("x;y")])
        let tsv = readCSV("a\tb\n1\t2\n", codec: .tsv)
        #expect(tsv.records.first?.values == [.integer(1), .integer(2)])
    }

    @Test func afterAFailureTheReaderStaysFailed() throws {
        let reader = try CSVCodec.csv.makeReader(MemoryInput("a,b\n1\n"), context: ReadContext(kind: .generic))
        var first: FerryError?
        do { _ = try reader.next() } catch { first = error }
        do {
            _ = try reader.next()
            Issue.record("the reader recovered")
        } catch {
            #expect(error == first)
        }
    }
}
