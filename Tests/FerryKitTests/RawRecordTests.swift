import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// Raw records are a shortcut, and records a reader lays out as JSON itself
/// (the CSV to JSON accelerator) another: every conversion must give the same bytes,
/// summary and errors all three ways. These tests convert each input each
/// way and compare.
@Suite struct RawRecordTests {
    /// What one conversion gave.
    enum Outcome: Equatable, CustomStringConvertible {
        case converted(output: [UInt8], records: Int, kind: RecordKind, warnings: [FerryWarning])
        case failed(FerryError)

        var description: String {
            switch self {
            case .converted(let output, let records, let kind, let warnings):
                "\(records) \(kind) records, warnings \(warnings.map(\.code)): \(String(decoding: output, as: UTF8.self))"
            case .failed(let error):
                "error \(error.code) \(error.arguments) at \(error.location)"
            }
        }
    }

    /// How a conversion goes.
    enum Path: String, CaseIterable {
        /// Raw records, and plain ones laid out by the reader where it can.
        case laidOut
        /// Raw records only.
        case raw
        /// `Record`s.
        case records
    }

    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    func convert(
        _ input: String, to format: String, kind: RecordKind?, codecOptions: [String: String], path: Path,
        from: String? = nil, limits: ReadLimits = ReadLimits(), schema: Schema? = nil
    ) -> Outcome {
        var options = ConversionOptions()
        options.schema = schema
        options.from = from
        options.limits = limits
        options.to = format
        options.kind = kind
        options.overwrite = true
        options.rawRecords = path != .records
        options.laidOutRecords = path == .laidOut
        options.codecOptions = OptionValues(codecOptions)
        let output = scratch.path("\(path).out")
        do throws(FerryError) {
            let summary = try Converter().convert(input, to: output, options: options)
            let bytes = (try? scratch.read("\(path).out")) ?? []
            return .converted(output: bytes, records: summary.records, kind: summary.kind, warnings: summary.warnings)
        } catch {
            return .failed(error)
        }
    }

    /// Converts `input` to every raw-capable format, each way, and expects
    /// the same outcome.
    func expectSameBothWays(
        _ input: String, kinds: [RecordKind?] = [nil], codecOptions: [[String: String]] = [[:]], schema: Schema? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        for kind in kinds {
            for format in ["json", "jsonl", "csv", "tsv"] {
                for extra in codecOptions + (format == "json" ? [["compact": ""]] : []) {
                    let records = convert(
                        input, to: format, kind: kind, codecOptions: extra, path: .records, schema: schema)
                    for path in [Path.raw, .laidOut] {
                        let outcome = convert(
                            input, to: format, kind: kind, codecOptions: extra, path: path, schema: schema)
                        #expect(
                            outcome == records,
                            "\(path): \(input) → \(format), kind \(kind.map(\.rawValue) ?? "inferred"), \(extra)",
                            sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }

    // MARK: - Inputs

    static let jsonLines: [String] = [
        #"{"name":"Xbox 360","price":299.0,"photo":null}"# + "\n" + #"{"name":"Wii","price":269}"# + "\n",
        // Key order, escapes, Unicode, nesting and duplicates change from record to record.
        #"{"name":"a","price":1}"# + "\n" + #"{"price":2,"name":"b"}"# + "\n" + #"{"name":"c\"q\\u00e9\n","price":3e2}"# + "\n"
            + #"{"name":"ünï 🎮","price":0.1,"tags":["x",{"y":null}]}"# + "\n" + #"{"name":"d","name":"e","price":1}"#,
        // Kinds: a missing name, an empty name, a negative price, a price of the wrong type.
        #"{"name":"ok","price":1}"# + "\n" + #"{"price":1}"# + "\n",
        #"{"name":"ok","price":1}"# + "\n" + #"{"name":"","price":1}"# + "\n",
        #"{"name":"ok","price":1}"# + "\n" + #"{"name":"x","price":-1}"# + "\n",
        #"{"name":"ok","price":1}"# + "\n" + #"{"name":"x","price":"1"}"# + "\n",
        #"{"title":"T","author":"A","pages":12,"readThisBook":true,"price":1.5,"isbn":"978"}"# + "\n"
            + #"{"title":"U","pages":1.5}"# + "\n",
        // Blank lines, CRLF, a byte order mark, numbers at the edges.
        "\u{FEFF}" + #"{"a":1}"# + "\r\n\r\n" + #"{"a":-0}"# + "\n" + #"{"a":18446744073709551616}"# + "\n"
            + #"{"a":1e400}"# + "\n" + #"{"a":-9223372036854775808}"# + "\n" + #"{"a":true,"b":false}"# + "\n",
        // Not records, and broken ones.
        #"{"a":1}"# + "\n" + "[1,2]\n",
        #"{"a":1}"# + "\n" + #"{"a":1} {"a":2}"# + "\n",
        #"{"a":1}"# + "\n" + #"{"a":"\ud800"}"# + "\n",
        #"{"a":1}"# + "\n" + #"{"a":"x"# + "\n",
        #"{"a":1}"# + "\n" + "{\"a\":\"\u{1}\"}\n",
        "",
        "\n\n",
    ]

    static let jsonDocuments: [String] = [
        #"[{"name":"Xbox 360","price":299.0},{"name":"Wii","price":269.0,"photo":"w.png"}]"#,
        #"[ {"a":1} , {"a":2,"b":[1,{"c":"d"}]} , {"b":3} ]"#,
        #"{"name":"single","price":1}"#,
        "[]",
        #"[{"a":1},]"#,
        #"[{"a":1},2]"#,
        #"[{"a":1}] x"#,
        #"[{"a":1}"#,
        #"[{"name":"x","price":1},{"name":"y","price":-2}]"#,
    ]

    static let csvFiles: [String] = [
        // Delimiters guessed from the first rows (no --delimiter).
        "name;price\nA;1\n\"B;x\";2.5\n",
        "name|price|photo\nA|1|\nB|2|b.png\n",
        "name\tprice\nA\t1\n\"B\tC\"\t2\n",
        "name,price,photo\nXbox 360,299.00,\nWii,269,wii.png\n\"Wireless, \"\"Pro\"\"\",19.99,\n",
        "name,price\r\nA,1\r\n\r\nB,2\r\n",
        "name,price\nA,1,extra\nB\n",
        "name,price\nA,abc\n",
        "name,price\nA,-1\n",
        "name,price\n,1\n",
        "name,price\n\"\",1\n",
        "title,author,pages,readThisBook,isbn\nT,A,12,yes,978\nU,B,x,no,1\n",
        "title,author,pages,readThisBook\nT,A,12,maybe\n",
        "a,a,,b\n1,2,3,4\n\"multi\nline\",\"q\"\"q\",\"\",\n",
        "a,b\n1,\"unclosed\n",
        // Bytes after a closing quote, in the last field and before it.
        "name,sku\nA,\"ab\"m\nB,c\n",
        "name,sku\nA,\"ab\"m,\"c\"\n",
        "a,b\n\u{00E9},\u{1F3AE}\n",
        "\u{FEFF}a;b\n1;2\n",
        "",
        "a\n",
    ]

    // MARK: - Tests

    @Test(arguments: jsonLines.indices) func jsonLinesConvertTheSame(_ index: Int) throws {
        let input = try scratch.write("in-\(index).jsonl", Self.jsonLines[index])
        expectSameBothWays(input, kinds: [nil, .product, .book, .generic])
    }

    @Test(arguments: jsonDocuments.indices) func jsonDocumentsConvertTheSame(_ index: Int) throws {
        let input = try scratch.write("in-\(index).json", Self.jsonDocuments[index])
        expectSameBothWays(input, kinds: [nil, .product, .generic])
    }

    /// Any single-byte delimiter takes the same three ways, the laid out
    /// one (whose classifier compares against the delimiter given) included.
    @Test(arguments: [
        ("^", "name^price^photo\nA^1^\nB^2.5^b.png\n\"C^D\"^3^\n"),
        ("\\x1f", "name\u{1F}price\nA\u{1F}1\n\"B\u{1F}x\"\u{1F}2\n"),
        (" ", "name price\nA 1\n\"B C\" 2\n"),
        ("~", "name~price\nA~1\nB~2~3\n"),
    ])
    func anyDelimiterConvertsTheSame(_ delimiter: String, text: String) throws {
        let input = try scratch.write("any.csv", text)
        expectSameBothWays(input, kinds: [nil, .product], codecOptions: [["delimiter": delimiter]])
        if case .failed(let error) = convert(
            input, to: "jsonl", kind: nil, codecOptions: ["delimiter": delimiter], path: .laidOut),
            error.code != .csvRaggedRow
        {
            Issue.record("\(error)")
        }
    }

    @Test(arguments: csvFiles.indices) func csvFilesConvertTheSame(_ index: Int) throws {
        let input = try scratch.write("in-\(index).csv", Self.csvFiles[index])
        expectSameBothWays(
            input, kinds: [nil, .product, .book, .generic],
            codecOptions: [
                [:], ["ragged": "pad"], ["ragged": "truncate"], ["no-header": ""], ["delimiter": ";"],
                ["max-field-bytes": "6"],
            ])
    }

    /// Fields of exactly the length limit and of one byte more, in rows
    /// longer and shorter than it: the plain way checks a field's length
    /// only in a row longer than the limit.
    @Test func fieldsAtTheLengthLimit() throws {
        let input = try scratch.write("limit.csv", "name,price\nabcdef,1\nabcdefg,2\nabcde,3\n")
        expectSameBothWays(
            input, kinds: [nil, .generic],
            codecOptions: [["max-field-bytes": "6"], ["max-field-bytes": "7"], ["max-field-bytes": "9"]])
    }

    /// Rows of every sort: block rows (no quote, backslash or control
    /// byte) among quoted, escaped, non-ASCII and long ones, numbers that
    /// print as written and numbers that do not, bools in each spelling,
    /// empty cells. The files are large enough for the reader's 64-byte
    /// blocks, and two (of about 1 MB and 700 KB) for its two threads: the
    /// reader's window grows to `halvesThreshold` only as it reads on.
    /// - Parameter bad: a row put in place of row `at` (from 0).
    static func mixedRows(
        header: [String], cells: [[String]], rows: Int, seed: UInt64, bad: (row: String, at: Int)? = nil,
        delimiter: String = ",", lineEnds: [String] = ["\n"]
    ) -> String {
        var generator = SeededGenerator(seed: seed)
        var text = header.joined(separator: delimiter) + lineEnds[0]
        for index in 0..<rows {
            let row = cells.map { $0.randomElement(using: &generator) ?? "" }.joined(separator: delimiter)
            let end = lineEnds.count == 1 ? lineEnds[0] : lineEnds.randomElement(using: &generator) ?? "\n"
            text += (index == bad?.at ? bad?.row ?? row : row) + end
        }
        return text
    }

    static let productCells: [[String]] = [
        [
            "Wii", "Xbox 360", "Wireless Controller", #""Pad, ""Pro""""#, "Café", "Ünï 🎮", #"a\b"#, "tab\there",
            String(repeating: "x", count: 40), String(repeating: "y", count: 70), #""quoted""#, "back\"quote",
            "\"two\nlines\"", #"a"b""#, #""Ünï, 🎮""#, "\u{1}", "\"cr\rhere\"",
        ],
        [
            "299.00", "269", "19.99", "84.9", "84.90", "007", "0", "0.0", "1e3", "", "12345678901234.5", "3",
            #""12""#,
        ],
        ["", "photos/p2.png", #""data:image/png;base64,AAAA""#, #""""#],
        ["GS-0000001", "", "00123"],
    ]

    /// Product cells without the quoted line breaks (a test inserts rows
    /// at line ends) and the lone CR.
    static let excelCells: [[String]] =
        [productCells[0].filter { !$0.contains("\n") && !$0.contains("\r") }] + productCells.dropFirst()

    static let bookCells: [[String]] = [
        ["Swift", "Dune", #""A, B""#, "Ünï"], ["Herbert", "", "Le Guin"], ["Good.", "", #""Long, ""quoted"" too""#],
        ["12", "0", "612", "", "007"], ["true", "false", "yes", "No", "1", "0", "TRUE", ""], ["49", "9.99", ""],
        ["9783981786248", ""],
    ]

    /// A file of mixed rows, its reader's options, and what the conversion
    /// gives: as many records as `records`, or an error at record `failsAt`.
    struct MixedFile: Sendable, CustomTestStringConvertible {
        let text: String
        var options: [String: String] = [:]
        var records: Int?
        var failsAt: Int?
        let testDescription: String
    }

    static let productHeader = ["name", "price", "photo", "sku"]
    static let bookHeader = ["title", "author", "description", "pages", "readThisBook", "price", "isbn"]

    /// Products (6,000) or books (5,000) with a row the kind refuses.
    static func failing(
        products: Bool, seed: UInt64, bad: String, at row: Int, _ description: String, lineEnds: [String] = ["\n"]
    ) -> MixedFile {
        let text =
            products
            ? mixedRows(
                header: productHeader, cells: productCells, rows: 6000, seed: seed, bad: (bad, row), lineEnds: lineEnds)
            : mixedRows(header: bookHeader, cells: bookCells, rows: 5000, seed: seed, bad: (bad, row), lineEnds: lineEnds)
        return MixedFile(text: text, failsAt: row, testDescription: description)
    }

    static let mixedFiles: [MixedFile] = [
        MixedFile(
            text: mixedRows(header: productHeader, cells: productCells, rows: 30_000, seed: 1), records: 30_000,
            testDescription: "products"),
        MixedFile(
            text: mixedRows(header: bookHeader, cells: bookCells, rows: 5000, seed: 2), records: 5000,
            testDescription: "books"),
        // A cell the kind refuses, deep in the file: the same error each way.
        failing(products: true, seed: 3, bad: "Wii,-1,,x", at: 2900, "a negative price"),
        failing(products: true, seed: 8, bad: ",269,,x", at: 3000, "an empty name"),
        failing(products: false, seed: 4, bad: "T,A,D,12,maybe,1,978", at: 2000, "a bool that is not"),
        failing(products: false, seed: 5, bad: "T,A,D,1.5,true,1,978", at: 1000, "pages with a point"),
        // Tab-separated, with tabs and commas in quoted fields.
        MixedFile(
            text: mixedRows(
                header: productHeader,
                cells: [productCells[0].filter { $0 != "tab\there" } + ["\"tab\tinside\"", #""comma, inside""#]]
                    + productCells.dropFirst(), rows: 20_000, seed: 6, delimiter: "\t"),
            options: ["delimiter": "tab"], records: 20_000, testDescription: "tab-separated"),
        // CRLF, as RFC 4180, Excel and Python's csv module end rows, and
        // files that mix CRLF, LF and a lone CR (old Macs' line end).
        MixedFile(
            text: mixedRows(header: productHeader, cells: productCells, rows: 30_000, seed: 11, lineEnds: ["\r\n"]),
            records: 30_000, testDescription: "products, CRLF"),
        MixedFile(
            text: mixedRows(header: bookHeader, cells: bookCells, rows: 5000, seed: 12, lineEnds: ["\r\n"]),
            records: 5000, testDescription: "books, CRLF"),
        MixedFile(
            text: mixedRows(
                header: productHeader, cells: productCells, rows: 20_000, seed: 13, lineEnds: ["\r\n", "\n", "\r"]),
            records: 20_000, testDescription: "products, CRLF, LF and CR mixed"),
        failing(products: true, seed: 14, bad: "Wii,-1,,x", at: 2900, "a negative price, CRLF", lineEnds: ["\r\n"]),
        // A byte order mark before CRLF rows, as Excel's "CSV UTF-8" writes.
        MixedFile(
            text: "\u{FEFF}"
                + mixedRows(header: productHeader, cells: productCells, rows: 30_000, seed: 15, lineEnds: ["\r\n"]),
            records: 30_000, testDescription: "products, BOM and CRLF"),
        // No header: the first line is a record too, of columns column1…N.
        MixedFile(
            text: mixedRows(header: productHeader, cells: productCells, rows: 20_000, seed: 16),
            options: ["no-header": ""], records: 20_001, testDescription: "products, no header"),
        // Excel's exports: a `sep=;` line, rows of delimiters only (skipped,
        // counted in one warning), CRLF; with a BOM, or in Windows-1252.
        MixedFile(
            text: "sep=;\r\n"
                + mixedRows(
                    header: productHeader, cells: excelCells, rows: 20_000, seed: 19, delimiter: ";",
                    lineEnds: ["\r\n", "\r\n;;;\r\n", "\r\n;;\n", "\r\n", "\r\n"]),
            records: 20_000, testDescription: "sep= line and rows of delimiters only"),
        MixedFile(
            text: "\u{FEFF}sep=,\n,,,\n"
                + mixedRows(
                    header: productHeader, cells: excelCells, rows: 20_000, seed: 20, delimiter: ",",
                    lineEnds: ["\n", "\n,,,\n", "\n"]),
            records: 20_000, testDescription: "BOM, sep=, line and rows of commas only"),
        MixedFile(
            text: "sep=;\n"
                + mixedRows(header: productHeader, cells: excelCells, rows: 20_000, seed: 21, delimiter: ";"),
            options: ["encoding": "latin1"], records: 20_000, testDescription: "sep= line, read as Windows-1252"),
        // A column name long enough for a layout piece of over 32 bytes,
        // which the block path does not take.
        MixedFile(
            text: mixedRows(
                header: ["name", "price", "a column name of more than thirty-two bytes", "sku"], cells: productCells,
                rows: 6000, seed: 7),
            records: 6000, testDescription: "a long column name"),
    ]

    @Test(arguments: mixedFiles) func mixedRowsConvertTheSame(_ file: MixedFile) throws {
        let input = try scratch.write("mixed \(file.testDescription).csv", file.text)
        let outcome = convert(input, to: "jsonl", kind: nil, codecOptions: file.options, path: .records)
        switch outcome {
        case .converted(_, let records, _, _):
            #expect(file.records == records, "\(outcome)")
        case .failed(let error):
            #expect(file.failsAt == error.location.record, "\(outcome)")
        }
        expectSameBothWays(input, kinds: [nil, .generic], codecOptions: [file.options])
    }

    /// A user's schema types the columns instead of the kind: the
    /// accelerated path follows its rules (an integer price, a name of at
    /// least one character, a bool column), and fails where the general
    /// path fails.
    @Test(arguments: [false, true]) func userSchemaConvertsTheSame(crlf: Bool) throws {
        let text = Array(
                #"""
                {"type": "object", "required": ["name"], "properties": {
                  "name": {"type": "string", "minLength": 1},
                  "price": {"type": "integer", "minimum": 0},
                  "sku": {"type": "string"},
                  "photo": {"type": ["string", "null"]},
                  "inStock": {"type": "boolean"}}}
                """#.utf8)
        let document = try #require(text.withUnsafeBufferPointer { JSONCodec.value($0, maxDepth: 16) })
        let schema = try Schema(document: document, source: "user.json")
        let lineEnds = crlf ? ["\r\n"] : ["\n"]
        let cells = Self.productCells.prefix(1) + [["299", "0", "", "7", "12345678"]] + Self.productCells.dropFirst(2)
            + [["true", "false", "", "yes"]]
        let header = Self.productHeader + ["inStock"]
        let good = Self.mixedRows(header: header, cells: Array(cells), rows: 20_000, seed: 17, lineEnds: lineEnds)
        expectSameBothWays(try scratch.write("user-\(crlf).csv", good), schema: schema)
        // A price with a point, which the schema's integer refuses.
        let bad = Self.mixedRows(
            header: header, cells: Array(cells), rows: 20_000, seed: 18, bad: ("Wii,2.5,,x,true", 12_000),
            lineEnds: lineEnds)
        let path = try scratch.write("user-bad-\(crlf).csv", bad)
        expectSameBothWays(path, schema: schema)
        guard case .failed(let error) = convert(path, to: "jsonl", kind: nil, codecOptions: [:], path: .laidOut, schema: schema)
        else {
            Issue.record("the integer rule was not applied")
            return
        }
        #expect(error.location.record == 12_000)
    }

    @Test func examplesConvertTheSame() throws {
        for name in ["products.json", "products.csv", "books.json", "books.jsonl", "books.csv", "products-inline.json"] {
            expectSameBothWays(TestPaths.example(name))
        }
    }

    @Test func conformanceCorporaConvertTheSame() throws {
        let corpora = TestPaths.corpora
        var inputs: [String] = []
        for folder in ["csv-spectrum/csvs", "csvkit-examples", "JSONTestSuite/test_parsing"] {
            let url = corpora.appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            inputs += names.filter { $0.hasSuffix(".csv") || $0.hasSuffix(".json") }.map { url.appendingPathComponent($0).path }
        }
        #expect(inputs.count > 300)
        for input in inputs {
            for format in ["json", "jsonl", "csv"] {
                let records = convert(input, to: format, kind: nil, codecOptions: [:], path: .records)
                for path in [Path.raw, .laidOut] {
                    #expect(convert(input, to: format, kind: nil, codecOptions: [:], path: path) == records, "\(path): \(input) → \(format)")
                }
            }
        }
    }

    /// Binary plists, made from the examples and from records whose keys
    /// repeat, come and go, and hold nested values.
    @Test func binaryPlistsConvertTheSame() throws {
        var inputs: [String] = []
        for name in ["products-inline.json", "books.json"] {
            let plist = scratch.path("\(name).plist")
            var options = ConversionOptions()
            options.overwrite = true
            _ = try Converter().convert(TestPaths.example(name), to: plist, options: options)
            inputs.append(plist)
        }
        let mixed = try scratch.write(
            "mixed.jsonl",
            #"{"name":"a","price":1,"tags":["x",{"y":2}]}"# + "\n" + #"{"price":2.5,"name":"b\"é"}"# + "\n"
                + #"{"name":"c"}"# + "\n" + #"{"name":"","price":-1}"# + "\n")
        var options = ConversionOptions()
        options.overwrite = true
        options.kind = .generic
        _ = try Converter().convert(mixed, to: scratch.path("mixed.plist"), options: options)
        inputs.append(scratch.path("mixed.plist"))
        for input in inputs { expectSameBothWays(input, kinds: [nil, .product, .generic]) }
    }

    /// Data objects stay in the file as borrowed bytes: a photo of data,
    /// data where a kind wants text or a number (a wrong type, "bytes"), and
    /// data in a field no kind names. Python's plistlib writes the plists.
    @Test func plistDataConvertsTheSame() throws {
        let script = """
            import plistlib, sys
            png = b"\\x89PNG\\r\\n\\x1a\\n" + bytes(range(40))
            plists = [
                [{"name": "Xbox 360", "price": 299.0, "photo": png}, {"name": "Wii", "price": 269.0, "photo": b""}],
                [{"name": "Xbox 360", "price": 299.0}, {"name": b"Wii", "price": 269.0}],
                [{"name": "Xbox 360", "price": b"\\x00"}],
                [{"name": "Xbox 360", "blob": bytes(range(256)), "photo": b"GIF89a,"}],
            ]
            for index, records in enumerate(plists):
                with open(f"{sys.argv[1]}/data-{index}.plist", "wb") as file:
                    plistlib.dump(records, file, fmt=plistlib.FMT_BINARY)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, scratch.path("")]
        try Subprocess.launch(process)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        for index in 0..<4 {
            expectSameBothWays(scratch.path("data-\(index).plist"), kinds: [nil, .product, .generic])
        }
    }

    /// Keyed archives: the legacy example, the corpora (broken ones
    /// included), archives Ferry writes, seeded mutants of the legacy
    /// archive with a few bytes changed, and limits that stop the decoding
    /// midway.
    @Test func keyedArchivesConvertTheSame() throws {
        var inputs = [TestPaths.example("Products")]
        let corpora = TestPaths.corpus("keyed-archives")
        for folder in ["bpylist2", "libplist", "rust-plist", "swift-corelibs-foundation"] {
            let url = corpora.appendingPathComponent(folder)
            inputs += try FileManager.default.contentsOfDirectory(atPath: url.path).sorted().map { url.appendingPathComponent($0).path }
        }
        // What the fuzzer found, such as a UIImage whose UIScale is a string
        // that is not ASCII: the raw path took it for a scalar unchecked.
        let regressions = TestPaths.packageRoot.appendingPathComponent("Fuzz/Regressions/Archive")
        inputs += try FileManager.default.contentsOfDirectory(atPath: regressions.path).sorted().map {
            regressions.appendingPathComponent($0).path
        }
        for name in ["products-inline.json", "books.json"] {
            var options = ConversionOptions()
            options.overwrite = true
            options.to = "archive"
            _ = try Converter().convert(TestPaths.example(name), to: scratch.path("\(name).archive"), options: options)
            inputs.append(scratch.path("\(name).archive"))
        }
        let legacy = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.example("Products"))))
        var generator = SeededGenerator(seed: 0xA4C1)
        for index in 0..<80 {
            var mutant = legacy
            for _ in 0...(generator.next() % 3) {
                mutant[Int(generator.next() % UInt64(mutant.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            inputs.append(try scratch.write("mutant-\(index).archive", mutant))
        }
        #expect(inputs.count > 120)
        var tight = ReadLimits()
        tight.maxDepth = 2
        for input in inputs {
            let runs: [(String, RecordKind?, ReadLimits)] = [("json", nil, ReadLimits()), ("csv", .generic, ReadLimits()), ("jsonl", nil, tight)]
            for (format, kind, limits) in runs {
                let raw = convert(input, to: format, kind: kind, codecOptions: [:], path: .raw, from: "archive", limits: limits)
                let records = convert(input, to: format, kind: kind, codecOptions: [:], path: .records, from: "archive", limits: limits)
                #expect(raw == records, "\(input) → \(format)")
            }
        }
    }

    /// Many records whose fields come and go, in windows of every size.
    @Test func generatedLinesConvertTheSame() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        let keys = ["name", "price", "photo", "sku", "ключ", "q\"k"]
        var text = ""
        for _ in 0..<3000 {
            var pairs: [String] = []
            for key in keys where generator.next() % 4 != 0 {
                let value: String
                switch generator.next() % 6 {
                case 0: value = "\(Int64(bitPattern: generator.next()) % 100_000)"
                case 1: value = "\(Double(generator.next() % 100_000) / 100)"
                case 2: value = #""plain text""#
                case 3: value = #""tab\tand \"quote\" é""#
                case 4: value = "null"
                default: value = "[1,{\"x\":true}]"
                }
                pairs.append("\(try JSONText.compact(.string(key))):\(value)")
            }
            text += "{" + pairs.joined(separator: ",") + "}\n"
        }
        let input = try scratch.write("generated.jsonl", text)
        expectSameBothWays(input)
    }
    /// CSV whose cells take every shape the rules for plain rows look at
    /// (numbers, booleans, empty and required cells, valid and broken UTF-8,
    /// control bytes, quotes, CR, rows too long or too short), in many
    /// small files so that a bad row comes at every place, and in one file
    /// of good rows larger than the reader's window.
    @Test func generatedCSVConvertsTheSame() throws {
        var generator = SeededGenerator(seed: 0xC5F0)
        func pick<T>(_ choices: [T]) -> T { choices[Int(generator.next() % UInt64(choices.count))] }
        let goodIntegers = ["0", "7", "007", "+5", "-0", "123456789012345678", ""]
        let goodNumbers = goodIntegers + ["84.99", "244.0", "0.5", "0.05", "10.0", "84.90", "1e3", "-0.0", "0.0",
            "1234567890123456789", "9999999999999.99", "12345678901234.5", "5.", "19.99"]
        let badNumbers = ["-1", "-0.5", "abc", " 5", ".5", "1e400", "5.0.0"]
        let goodBools = ["true", "false", "yes", "No", "1", "0", "TRUE", ""]
        let goodTexts: [[UInt8]] = ["Wii", "Xbox 360", "", "C:\\Saves", "tab\there", "ünï 🎮", "a\u{1}b", "say \"hi\"",
            "\"Wireless, Pro\"", "\"q\"\"q\"", "\"multi\nline\"", "\"\""].map { Array($0.utf8) }
        let badTexts: [[UInt8]] = [[0xC3], [0x41, 0xFF], [0x41, 0x00, 0x42], Array("\"open".utf8), Array("\"ab\"m".utf8)]
        let headers = ["name,price,photo,sku", "title,author,pages,readThisBook,price,isbn", "a,b,c", "name,photo"]
        func cell(_ column: String, bad: Bool) -> [UInt8] {
            switch column {
            case "price": Array((bad ? pick(badNumbers) : pick(goodNumbers)).utf8)
            case "pages": Array((bad ? pick(badNumbers) : pick(goodIntegers)).utf8)
            case "readThisBook": Array((bad ? "maybe" : pick(goodBools)).utf8)
            case "name", "title": bad ? pick(badTexts + [[]]) : pick(goodTexts.filter { !$0.isEmpty })
            default: bad ? pick(badTexts) : pick(goodTexts)
            }
        }
        func file(rows: Int, badness: UInt64) -> [UInt8] {
            let header = pick(headers)
            let columns = header.split(separator: ",").map(String.init)
            var bytes = Array((header + "\n").utf8)
            for _ in 0..<rows {
                var cells = columns.map { cell($0, bad: badness > 0 && generator.next() % badness == 0) }
                if badness > 0 && generator.next() % (badness * 4) == 0 { cells.removeLast() }
                if badness > 0 && generator.next() % (badness * 4) == 0 { cells.append(Array("extra".utf8)) }
                bytes += cells.joined(separator: [UInt8(ascii: ",")])
                switch generator.next() % 40 {
                case 0: bytes += [0x0D, 0x0A]
                case 1 where badness > 0: bytes += [0x0D]
                default: bytes += [0x0A]
                }
            }
            return bytes
        }
        for index in 0..<80 {
            let input = try scratch.write("generated-\(index).csv", file(rows: 25, badness: 400))
            expectSameBothWays(input, kinds: [nil, .generic])
        }
        let large = try scratch.write("generated-large.csv", file(rows: 30_000, badness: 0))
        expectSameBothWays(large)
    }
}
