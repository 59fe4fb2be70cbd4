import FerryCore
import Testing

@testable import FerryCSV

/// What Excel writes: Windows-1252 text, a `sep=` first line, rows of
/// delimiters only below a table.
@Suite struct ExcelExportTests {
    /// Reads all records of CSV `bytes`, or the error that stopped it.
    func read(
        _ bytes: [UInt8], options: [String: String] = [:], kind: RecordKind? = .generic
    ) -> (records: [Record], error: FerryError?, warnings: [FerryWarning]) {
        let context = ReadContext(kind: kind, options: OptionValues(options))
        var records: [Record] = []
        do {
            let reader = try CSVCodec.csv.makeReader(MemoryInput(bytes, name: "excel.csv"), context: context)
            while let record = try reader.next() { records.append(record) }
            return (records, nil, context.takeWarnings())
        } catch {
            return (records, error, context.takeWarnings())
        }
    }

    // MARK: - Windows-1252

    /// `€ – „ “ ”` in Windows-1252, then `é`.
    static let punctuation: [UInt8] = Array("name\n".utf8) + [0x80, 0x20, 0x96, 0x20, 0x84, 0x93, 0x94, 0xE9, 0x0A]

    /// Every WHATWG label of windows-1252 decodes it, latin1 included.
    @Test(arguments: [
        "windows-1252", "cp1252", "latin1", "iso-8859-1", "ascii", "us-ascii", "l1", "iso8859-1", "x-cp1252",
        " Latin1 ", "WINDOWS-1252",
    ])
    func windows1252LabelsDecodeExcelPunctuation(_ label: String) throws {
        let read = read(Self.punctuation, options: ["encoding": label])
        #expect(read.error == nil)
        #expect(read.records.first?["name"] == .string("€ – „“”é"))
    }

    /// WHATWG maps the five bytes Windows leaves undefined to C1 controls.
    @Test func undefinedBytesBecomeC1Controls() throws {
        let bytes = Array("name\n".utf8) + [0x81, 0x8D, 0x8F, 0x90, 0x9D, 0x0A]
        let read = read(bytes, options: ["encoding": "windows-1252"])
        #expect(read.records.first?["name"] == .string("\u{81}\u{8D}\u{8F}\u{90}\u{9D}"))
    }

    /// Without `--encoding`, text that is not UTF-8 stays an error, which
    /// suggests windows-1252 when the field's bytes fit it.
    @Test func invalidUTF8SuggestsWindows1252WhenItFits() throws {
        let error = try #require(read(Self.punctuation).error)
        #expect(error.code == .csvInvalidUTF8)
        #expect(error.arguments == [.byte(0x80), .message(.csvEncodingHintWindows1252)])
        #expect(error.location.line == 2)
        #expect(error.location.column == 1)
        // 0x81 is undefined in Windows-1252: the general hint.
        let other = try #require(read(Array("name\nab".utf8) + [0x81, 0x0A]).error)
        #expect(other.code == .csvInvalidUTF8)
        #expect(other.arguments == [.byte(0x81), .message(.csvEncodingHint)])
        #expect(other.location.line == 2)
        #expect(other.location.column == 3)
    }

    // MARK: - sep=

    @Test(arguments: [
        ("sep=;\nname;price\nWii;2\n", UInt8(ascii: ";")), ("sep=,\r\nname,price\r\nWii,2\r\n", UInt8(ascii: ",")),
        ("sep=\t\nname\tprice\nWii\t2\n", 0x09), ("sep=\\t\nname\tprice\nWii\t2\n", 0x09),
        ("sep=|\nname|price\nWii|2", UInt8(ascii: "|")), ("\u{FEFF}SEP=;\nname;price\nWii;2\n", UInt8(ascii: ";")),
    ])
    func aSepLineSetsTheDelimiterAndIsNoRecord(_ text: String, delimiter: UInt8) throws {
        for step in [nil, 1, 3] as [Int?] {
            let input = MemoryInput(Array(text.utf8), name: "excel.csv", readSizes: step.map { size in { size } })
            let context = ReadContext(kind: .generic)
            let reader = try CSVCodec.csv.makeReader(input, context: context)
            let record = try #require(try reader.next())
            #expect(record.fields.names == ["name", "price"], "\(text)")
            #expect(record["price"] == .integer(2))
            #expect(try reader.next() == nil)
            #expect((reader as? CSVReader)?.dialect.delimiter == delimiter)
        }
    }

    /// The line says the format when no name does: TSV for a tab.
    @Test func aSepLineSaysTheFormat() {
        #expect(CSVCodec.csv.sniff(Array("sep=;\nname;price\n".utf8)) == .likely)
        #expect(CSVCodec.tsv.sniff(Array("sep=;\nname;price\n".utf8)) == .no)
        #expect(CSVCodec.tsv.sniff(Array("\u{FEFF}sep=\t\r\nname\tprice\r\n".utf8)) == .likely)
        #expect(CSVCodec.csv.sniff(Array("sep=\t\r\nname\tprice\r\n".utf8)) == .no)
    }

    /// An explicit `--delimiter` wins over the line, which is skipped all
    /// the same; places count the line.
    @Test func anExplicitDelimiterWinsAndTheLineIsStillSkipped() throws {
        let read = read(Array("sep=;\nname,price\nWii,2\nPS,3,4\n".utf8), options: ["delimiter": ","])
        #expect(read.records.map { $0.fields.names } == [["name", "price"]])
        let error = try #require(read.error)
        #expect(error.code == .csvRaggedRow)
        #expect(error.location.line == 4)
        #expect(error.location.record == 1)
    }

    /// `sep=` lines that are not one: a longer value, no value, a quote.
    @Test func otherFirstLinesAreTheHeader() {
        for text in ["sep=;;\na\n", "sep=\nb\n", "sep=\"\nc\n", "sepx;\nd\n"] {
            let read = read(Array(text.utf8), options: ["delimiter": "|"])
            #expect(read.records.first?.fields.names.first == String(text.prefix { $0 != "\n" }), "\(text)")
        }
    }

    // MARK: - Rows of delimiters only

    @Test func rowsOfDelimitersOnlyAreSkippedAndCountedOnce() throws {
        let text = ";;\r\nname;price;sku\r\nWii;2;A\r\n;;\r\n\r\n;;;;\nPS;3;B\n;;"
        let read = read(Array(text.utf8))
        #expect(read.error == nil)
        #expect(read.records.map { $0["name"] } == [.string("Wii"), .string("PS")])
        #expect(read.warnings.map(\.code) == [.csvDelimiterRowsSkipped])
        let warning = try #require(read.warnings.first)
        #expect(warning.arguments == [.count(4)])
        #expect(warning.location.line == 1)
        #expect(warning.location.record == nil)
        // Quoted empty cells are a record.
        let quoted = self.read(Array("a;b\n\"\";\"\"\n".utf8))
        #expect(quoted.records.count == 1)
        #expect(quoted.warnings.isEmpty)
    }

    // MARK: - Decimal comma and thousands

    @Test(arguments: [
        ("1.234,50", "1234.50"), ("1 234,5", "1234.5"), ("1\u{A0}234,5", "1234.5"), ("1\u{202F}234\u{202F}567,25", "1234567.25"),
        ("-1.234.567", "-1234567"), ("1.234", "1234"), ("12,5", "12.5"), ("999,99", "999.99"), ("+1.000,0", "+1000.0"),
    ])
    func thousandsSeparatorsKeepTheValue(_ cell: String, value: String) throws {
        let read = read(Array("name;price\nWii;\"\(cell)\"\n".utf8), options: ["decimal-comma": ""], kind: .product)
        #expect(read.error == nil, "\(cell)")
        let price = try #require(read.records.first?["price"])
        let expected = try #require(Array(value.utf8).withUnsafeBufferPointer { DecimalText.parsedValue($0) })
        #expect(price == expected, "\(cell)")
    }

    /// Groups no formatted number has are a located error, not a guess.
    @Test(arguments: ["1.23,4", "12.34.5,6", "1.5", "1234.567,8", "1.234 567,8", "1.2345,6"])
    func badGroupingsAreLocatedErrors(_ cell: String) throws {
        let read = read(Array("name;price\nWii;2\nPS;\(cell)\n".utf8), options: ["decimal-comma": ""], kind: .product)
        let error = try #require(read.error, "\(cell)")
        #expect(error.code == .csvInvalidGrouping)
        #expect(error.arguments == [.string("price"), .string(cell)])
        #expect(error.location.line == 3)
        #expect(error.location.column == 4)
        #expect(error.location.record == 1)
        #expect(error.location.field == "price")
    }

    @Test func otherTextIsStillNoNumber() throws {
        for cell in ["1,2,3", "abc", " 5", "5.", "1,5.3"] {
            let read = read(Array("name;price\nWii;\(cell)\n".utf8), options: ["decimal-comma": ""], kind: .product)
            #expect(read.error?.code == .csvInvalidNumber, "\(cell)")
        }
    }
}
