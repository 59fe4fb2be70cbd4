import Foundation
import Testing

/// Python's `csv` module as an independent reader and writer of Ferry's CSV.
///
/// The comparisons follow the rules of Formats/csv.md:
///
/// - **Ferry writes** a header from the first record, then each record's
///   cells by field name. Null is an empty cell and an empty string `""`, so
///   Python's `csv` reads both as `''`. Numbers are written as JSON writes
///   them (`19.99`, `299.0`, `299`), bools as `true`/`false`, and nested
///   arrays and objects as compact JSON text. A cell is quoted when it is an
///   empty string or holds the delimiter, the quote, CR or LF, or always
///   with `--quoting all` (null stays an unquoted empty cell). Every row,
///   the last included, ends with the line ending.
/// - **Ferry reads** cells by kind: `price` a number (an integer stays an
///   integer, a decimal a double), `pages` an integer, `readThisBook`
///   true/false/yes/no/1/0 in any case (Python writes `True`). An unquoted
///   empty cell is null for every optional field the kind knows; a quoted
///   empty cell is `""` for the kind's text fields (`author`, `description`,
///   `isbn`, `photo`, `sku`) and null for its typed ones. Generic fields
///   (`tags`) stay strings: an empty cell is `""`, and nested JSON text stays
///   text. The datasets' `sku` and `isbn` are never empty (the schemas
///   refuse an empty sku and an ISBN without its check digit).
///
/// So Python-written CSV, which writes both None and `''` as an unquoted
/// empty cell, reads back as null for both in the kind's optional fields and
/// as `''` for both in generic ones; in rows Python writes with `QUOTE_ALL`
/// (see `needs_quote_all`), both are `""` and read back as `''` in text fields.
@Suite struct CSVInteropTests {
    static let count = 100_000

    /// The inputs, made once and shared by the tests that need them.
    static let products: String = {
        var generator = CSVDatasetGenerator(seed: 0xC5F0_0001)
        return generator.document(kind: "product", count: count)
    }()
    static let books: String = {
        var generator = CSVDatasetGenerator(seed: 0xC5F0_0002)
        return generator.document(kind: "book", count: count)
    }()

    static func document(_ kind: String) -> String { kind == "book" ? books : products }

    // MARK: - The Python side

    static let script = #"""
        import csv, json, re, sys

        csv.field_size_limit(1 << 30)
        KINDS = {
            "product": {"name": "required", "price": "number", "photo": "photo", "sku": "string"},
            "book": {"title": "required", "author": "string", "description": "string", "pages": "integer",
                     "readThisBook": "bool", "price": "number", "isbn": "string"},
        }
        FIELDS = {
            "product": ["name", "price", "photo", "sku"],
            "book": ["title", "author", "description", "pages", "readThisBook", "price", "isbn", "tags"],
        }
        DELIMITERS = {",": ",", ";": ";", "|": "|", "tab": "\t"}
        ENDINGS = {"lf": "\n", "crlf": "\r\n"}

        def load(path):
            with open(path, encoding="utf-8") as file:
                return json.load(file)

        def same(a, b, where):
            """Strict equality: types (bool is not int, int is not float), float bits, key order."""
            if type(a) is not type(b):
                return f"{where}: {type(a).__name__} {a!r:.80} != {type(b).__name__} {b!r:.80}"
            if isinstance(a, dict):
                if list(a) != list(b):
                    return f"{where}: keys {list(a)!r:.200} != {list(b)!r:.200}"
                for key in a:
                    problem = same(a[key], b[key], f"{where}.{key}")
                    if problem: return problem
            elif isinstance(a, list):
                if len(a) != len(b):
                    return f"{where}: {len(a)} elements != {len(b)}"
                for index, (x, y) in enumerate(zip(a, b)):
                    problem = same(x, y, f"{where}[{index}]")
                    if problem: return problem
            elif isinstance(a, float):
                if a.hex() != b.hex():
                    return f"{where}: {a!r} != {b!r}"
            elif a != b:
                return f"{where}: {a!r:.120} != {b!r:.120}"
            return None

        def render(value):
            """The text of Ferry's cell for a JSON scalar, as csv.reader returns it."""
            if value is None: return ""
            if value is True: return "true"
            if value is False: return "false"
            if isinstance(value, (int, float)): return json.dumps(value)
            return value

        def cells(text, delimiter):
            """The raw layout of CSV text: rows of (quoted, text) cells and each row's line ending."""
            d = re.escape(delimiter)
            cell = re.compile(r'(?:"((?:[^"]|"")*)"|([^"\r\n' + d + r']*))(' + d + r'|\r\n|\n|\r|\Z)')
            rows, row, at = [], [], 0
            while at < len(text):
                match = cell.match(text, at)
                if not match or match.end() == at:
                    raise ValueError(f"malformed CSV at offset {at}: {text[at:at + 40]!r}")
                quoted = match.group(1) is not None
                row.append((quoted, match.group(1).replace('""', '"') if quoted else match.group(2)))
                at = match.end()
                if match.group(3) != delimiter:
                    rows.append((row, match.group(3)))
                    row = []
            return rows

        def check_ferry_csv(source, path, delimiter, quoting, ending):
            """Ferry's CSV of the records in `source`, read by Python's csv and laid out as documented."""
            records = load(source)
            header = list(records[0])
            with open(path, encoding="utf-8", newline="") as file:
                rows = list(csv.reader(file, delimiter=delimiter, strict=True))
            with open(path, encoding="utf-8", newline="") as file:
                text = file.read()
            if rows[0] != header:
                return f"header {rows[0]!r} != {header!r}"
            if len(rows) - 1 != len(records):
                return f"{len(rows) - 1} rows != {len(records)} records"
            layout = cells(text, delimiter)
            if len(layout) != len(rows):
                return f"the layout has {len(layout)} rows, csv.reader {len(rows)}"
            for number, (record, row, (raw, end)) in enumerate(zip([None] + records, rows, layout)):
                where = f"row {number + 1}"
                if end != ending:
                    return f"{where}: line ending {end!r}, expected {ending!r}"
                if [text for _, text in raw] != row:
                    return f"{where}: the layout's cells differ from csv.reader's: {raw!r:.200} {row!r:.200}"
                if record is None:
                    continue
                if len(row) != len(header):
                    return f"{where}: {len(row)} cells"
                for name, cell, (quoted, _) in zip(header, row, raw):
                    value = record.get(name)
                    if isinstance(value, (list, dict)):
                        problem = same(value, json.loads(cell), f"{where}.{name} (JSON text {cell!r:.80})")
                        if problem: return problem
                    elif isinstance(value, (int, float)) and not isinstance(value, bool):
                        # Numbers keep the source's text: the same number, by type and bits.
                        problem = same(value, json.loads(cell), f"{where}.{name} (number {cell!r:.40})")
                        if problem: return problem
                    elif cell != render(value):
                        return f"{where}.{name}: {cell!r:.120} != {render(value)!r:.120} (from {value!r:.120})"
                    if value is None:
                        must_quote = False
                    elif quoting == "all":
                        must_quote = True
                    else:
                        must_quote = cell == "" or any(c in cell for c in (delimiter, '"', "\r", "\n"))
                    if quoted != must_quote:
                        return f"{where}.{name}: quoted is {quoted} for {cell!r:.80}"
            return f"OK {len(records)}"

        def needs_quote_all(row, ending):
            # Python 3.11's writer quotes a field for the delimiter, the quote
            # and the characters of lineterminator only: with '\n', a field
            # with a lone CR is left bare, and no CSV reader (Python's
            # included) reads that back. Such rows are written QUOTE_ALL.
            return ending == "\n" and any(isinstance(c, str) and "\r" in c for c in row)

        def python_row(record, fields):
            row = []
            for name in fields:
                value = record.get(name)
                if isinstance(value, (list, dict)):
                    value = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
                row.append(value)
            return row

        def write_python_csv(source, path, kind, ending):
            records = load(source)
            fields = FIELDS[kind]
            quoted_rows = 0
            with open(path, "w", encoding="utf-8", newline="") as file:
                minimal = csv.writer(file, lineterminator=ending)
                everything = csv.writer(file, lineterminator=ending, quoting=csv.QUOTE_ALL)
                minimal.writerow(fields)
                for record in records:
                    row = python_row(record, fields)
                    if needs_quote_all(row, ending):
                        everything.writerow(row)
                        quoted_rows += 1
                    else:
                        minimal.writerow(row)
            return f"OK {len(records)} ({quoted_rows} rows QUOTE_ALL)"

        def check_python_csv_back(source, path, kind, ending):
            """What Ferry made of Python's CSV, field by field, by the rules above."""
            records, back = load(source), load(path)
            fields, types = FIELDS[kind], KINDS[kind]
            if len(back) != len(records):
                return f"{len(back)} records != {len(records)}"
            for number, (record, got) in enumerate(zip(records, back)):
                row = python_row(record, fields)
                quoted = needs_quote_all(row, ending)
                expected = {}
                for name, cell in zip(fields, row):
                    value = record.get(name)
                    empty = cell is None or cell == ""
                    kind_type = types.get(name)
                    if kind_type is None:
                        expected[name] = "" if cell is None else cell
                    elif kind_type in ("string", "photo") and empty:
                        expected[name] = "" if quoted else None
                    else:
                        expected[name] = value
                problem = same(expected, got, f"record {number + 1}")
                if problem: return problem
            return f"OK {len(records)}"

        def check_ferry_back(source, path, kind):
            """A Ferry CSV or TSV read back by Ferry: the kind's fields as they were, generic
            fields as text (null as '', nested values as their JSON text)."""
            records, back = load(source), load(path)
            header = list(records[0])
            types = KINDS[kind]
            if len(back) != len(records):
                return f"{len(back)} records != {len(records)}"
            for number, (record, got) in enumerate(zip(records, back)):
                where = f"record {number + 1}"
                if list(got) != header:
                    return f"{where}: keys {list(got)!r} != {header!r}"
                for name in header:
                    value, result = record.get(name), got[name]
                    if name not in types and isinstance(value, (list, dict)):
                        if type(result) is not str:
                            return f"{where}.{name}: {result!r:.80} is not JSON text"
                        problem = same(value, json.loads(result), f"{where}.{name} (JSON text)")
                    else:
                        expected = "" if name not in types and value is None else value
                        problem = same(expected, result, f"{where}.{name}")
                    if problem: return problem
            return f"OK {len(records)}"

        command, arguments = sys.argv[1], sys.argv[2:]
        if command == "check-ferry-csv":
            source, path, delimiter, quoting, ending = arguments
            result = check_ferry_csv(source, path, DELIMITERS[delimiter], quoting, ENDINGS[ending])
        elif command == "write-csv":
            source, path, kind, ending = arguments
            result = write_python_csv(source, path, kind, ENDINGS[ending])
        elif command == "check-python-csv-back":
            source, path, kind, ending = arguments
            result = check_python_csv_back(source, path, kind, ENDINGS[ending])
        elif command == "check-ferry-back":
            result = check_ferry_back(*arguments)
        else:
            result = f"unknown command {command}"
        print(result)
        sys.exit(0 if result.startswith("OK") else 1)
        """#

    /// Runs the script; a failure is the script's one line on standard output.
    @discardableResult
    static func python(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments, timeout: 300)
        try #require(!result.timedOut, "python3 hung")
        #expect(result.status == 0, "python3 \(arguments.first ?? ""): \(result.out) \(result.err)")
        return result.out.trimmingCharacters(in: .newlines)
    }

    static func convert(_ arguments: [String]) throws {
        let result = try Ferry.run(["convert", "--quiet"] + arguments, timeout: 300)
        try #require(result.status == 0, "ferry convert \(arguments.joined(separator: " ")) failed: \(result.err)")
        // Only the warnings that nested values and untyped nulls in CSV cells
        // bring, once per field.
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == result.diagnostics.count, "\(result.err)")
        #expect(result.diagnostics.allSatisfy { ["csv.nestedAsJSON", "csv.nullAsEmpty"].contains($0.code) }, "\(result.err)")
    }

    // MARK: - Ferry writes, Python reads

    /// 100,000 records to CSV with the defaults; Python's csv reads the cells
    /// and the layout as documented, and Ferry reads its own CSV back.
    @Test(arguments: ["product", "book"])
    func ferryCSVReadsInPython(kind: String) throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", Self.document(kind))
        try Self.convert([input, folder.path("out.csv")])
        #expect(try Self.python(["check-ferry-csv", input, folder.path("out.csv"), ",", "minimal", "lf"]) == "OK \(Self.count)")

        try Self.convert([folder.path("out.csv"), folder.path("back.json"), "--kind", kind])
        #expect(try Self.python(["check-ferry-back", input, folder.path("back.json"), kind]) == "OK \(Self.count)")
    }

    /// JSON → TSV → JSON through Ferry, and the TSV read by Python's csv with a tab delimiter.
    @Test(arguments: ["product", "book"])
    func tsvRoundTrip(kind: String) throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", Self.document(kind))
        try Self.convert([input, folder.path("out.tsv")])
        try Self.convert([folder.path("out.tsv"), folder.path("back.json")])
        #expect(try Self.python(["check-ferry-back", input, folder.path("back.json"), kind]) == "OK \(Self.count)")
        #expect(try Self.python(["check-ferry-csv", input, folder.path("out.tsv"), "tab", "minimal", "lf"]) == "OK \(Self.count)")
    }

    struct Dialect: Sendable, CustomTestStringConvertible {
        let options: [String]
        var delimiter = ","
        var quoting = "minimal"
        var ending = "lf"

        var testDescription: String { options.isEmpty ? "defaults" : options.joined(separator: " ") }
    }

    static let dialects = [
        Dialect(options: ["--quoting", "all"], quoting: "all"),
        Dialect(options: ["--line-ending", "crlf"], ending: "crlf"),
        Dialect(options: ["--delimiter", ";"], delimiter: ";"),
        Dialect(options: ["--delimiter", "|"], delimiter: "|"),
        Dialect(options: ["--delimiter", "tab"], delimiter: "tab"),
        Dialect(
            options: ["--delimiter", ";", "--quoting", "all", "--line-ending", "crlf"], delimiter: ";", quoting: "all",
            ending: "crlf"),
    ]

    /// Each output option, read by Python's csv with the matching dialect;
    /// Ferry reads the file back with the same options.
    @Test(arguments: dialects, ["product", "book"])
    func dialectOptions(_ dialect: Dialect, kind: String) throws {
        let folder = try ScratchFolder()
        var generator = CSVDatasetGenerator(seed: kind == "book" ? 0xD1A1 : 0xD1A2)
        let input = try folder.write("in.json", generator.document(kind: kind, count: 3_000))
        try Self.convert([input, folder.path("out.csv")] + dialect.options)
        #expect(
            try Self.python(["check-ferry-csv", input, folder.path("out.csv"), dialect.delimiter, dialect.quoting, dialect.ending])
                == "OK 3000")

        let readOptions = dialect.options.first == "--delimiter" ? Array(dialect.options.prefix(2)) : []
        try Self.convert([folder.path("out.csv"), folder.path("back.json"), "--kind", kind] + readOptions)
        #expect(try Self.python(["check-ferry-back", input, folder.path("back.json"), kind]) == "OK 3000")
    }

    // MARK: - Python writes, Ferry reads

    /// 100,000 records written by Python's csv.writer (QUOTE_MINIMAL), with
    /// CRLF and with LF line endings, convert to the records the rules give.
    @Test(arguments: ["product", "book"], ["crlf", "lf"])
    func pythonCSVConvertsBack(kind: String, ending: String) throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", Self.document(kind))
        let written = try Self.python(["write-csv", input, folder.path("python.csv"), kind, ending])
        #expect(written.hasPrefix("OK \(Self.count) "), "\(written)")
        try Self.convert([folder.path("python.csv"), folder.path("back.json"), "--kind", kind])
        #expect(
            try Self.python(["check-python-csv-back", input, folder.path("back.json"), kind, ending]) == "OK \(Self.count)")
    }

    // MARK: - Errors

    static let original = Array("the existing output\n".utf8)

    /// Runs a conversion that must fail over an existing output, and checks
    /// that the output is untouched and no temporary file is left.
    static func failingConversion(_ csv: [UInt8], arguments: [String] = []) throws -> DiagnosticLine {
        let folder = try ScratchFolder()
        let input = try folder.write("in.csv", csv)
        try folder.write("out.json", original)
        let result = try Ferry.run(["convert", input, folder.path("out.json"), "--force"] + arguments, timeout: 60)
        #expect(result.status == 1, "\(result.err)")
        #expect(try folder.read("out.json") == original, "the existing output changed")
        #expect(try folder.contents() == ["in.csv", "out.json"], "a temporary file was left behind")
        let diagnostic = try #require(result.diagnostics.first, "no diagnostic in: \(result.err)")
        #expect(diagnostic.file == input)
        #expect(diagnostic.severity == "error")
        return diagnostic
    }

    /// The quote that opens on line 3 is never closed: the error points at it,
    /// not at the end of the file it swallowed.
    @Test func unterminatedQuoteIsReportedWhereItOpened() throws {
        let csv = "name,price\nWii,269\nXbox,\"299\nHalo,59.99\r\nZelda,49\n"
        let diagnostic = try Self.failingConversion(Array(csv.utf8))
        #expect(diagnostic.code == "csv.unterminatedQuote")
        #expect(diagnostic.line == 3)
        #expect(diagnostic.column == 6)
        #expect(diagnostic.record == 2)
    }

    /// The same, with the quote opening after several megabytes, so the
    /// reader has refilled its window many times before the end.
    @Test func unterminatedQuoteAfterManyRows() throws {
        var csv = "name,price,photo\n"
        for index in 1...100_000 { csv += "Product \(index) ÄÖÜ,\(index).5,\"photos/p\(index).png\"\n" }
        csv += "Last,1,\"photos/open.png\n"
        for index in 1...50_000 { csv += "Product \(index),\(index)\n" }
        let diagnostic = try Self.failingConversion(Array(csv.utf8))
        #expect(diagnostic.code == "csv.unterminatedQuote")
        #expect(diagnostic.line == 100_002)
        #expect(diagnostic.column == 8)
        #expect(diagnostic.record == 100_001)
    }

    struct BadCell: Sendable, CustomTestStringConvertible {
        let name: String
        let csv: String
        var arguments: [String] = []
        let code: String
        let line: Int
        let column: Int
        let record: Int
        let field: String

        var testDescription: String { name }
    }

    static let badCells = [
        BadCell(
            name: "price abc", csv: "name,price,photo\nWii,269,\nXbox,299.0,x.png\nHalo,abc,\n",
            code: "csv.invalidNumber", line: 4, column: 6, record: 3, field: "price"),
        BadCell(
            name: "quoted price abc after a quoted line break, CRLF",
            csv: "name,price\r\n\"Wii\r\nRemote\",39.99\r\n\"Halo, 3\",\"abc\"\r\n",
            arguments: ["--kind", "product"], code: "csv.invalidNumber", line: 4, column: 11, record: 2, field: "price"),
        BadCell(
            name: "price with a thousands separator", csv: "name;price\nWii;1.299,00\n", arguments: ["--delimiter", ";"],
            code: "csv.invalidNumber", line: 2, column: 5, record: 1, field: "price"),
        BadCell(
            name: "pages 12.5", csv: "title,author,pages\nDune,Herbert,412\nEmma,Austen,12.5\n",
            code: "csv.invalidInteger", line: 3, column: 13, record: 2, field: "pages"),
        BadCell(
            name: "readThisBook maybe", csv: "title,readThisBook,isbn\nDune,yes,9780306406157\nEmma,maybe,0-306-40615-2\n",
            code: "csv.invalidBool", line: 3, column: 6, record: 2, field: "readThisBook"),
    ]

    /// A cell that does not fit its kind's type is a located error, and the
    /// existing output stays as it was.
    @Test(arguments: badCells)
    func cellOfTheWrongType(_ bad: BadCell) throws {
        let diagnostic = try Self.failingConversion(Array(bad.csv.utf8), arguments: bad.arguments)
        #expect(diagnostic.code == bad.code)
        #expect(diagnostic.line == bad.line)
        #expect(diagnostic.column == bad.column)
        #expect(diagnostic.record == bad.record)
        #expect(diagnostic.field == bad.field)
    }

    /// Without an existing output, a failed conversion creates nothing.
    @Test func failedConversionCreatesNoOutput() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.csv", "name,price\nWii,abc\n")
        let result = try Ferry.run(["convert", input, folder.path("out.jsonl")])
        #expect(result.status == 1)
        #expect(result.diagnostics.first?.code == "csv.invalidNumber")
        #expect(try folder.contents() == ["in.csv"])
    }

    // MARK: - Examples

    /// Examples/products.csv and books.csv are what ferry makes of the JSON
    /// examples, and Python's csv reads the JSON's values from them.
    @Test(arguments: ["products", "books"])
    func examplesMatchTheirJSON(name: String) throws {
        let folder = try ScratchFolder()
        try Self.convert([TestPaths.example("\(name).json"), folder.path("made.csv")])
        let committed = try Data(contentsOf: TestPaths.examples.appendingPathComponent("\(name).csv"))
        #expect(try folder.read("made.csv") == [UInt8](committed), "Examples/\(name).csv is out of date")
        #expect(
            try Self.python(["check-ferry-csv", TestPaths.example("\(name).json"), TestPaths.example("\(name).csv"), ",", "minimal", "lf"])
                .hasPrefix("OK "))
    }

    // MARK: - Empty and null

    /// An empty photo is written as `""` and reads back as an empty string,
    /// as the kind's other text fields do; null is an empty cell and reads
    /// back as null. (Ferry once read `""` back as null for photos.)
    @Test
    func emptyPhotoStaysEmpty() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", #"[{"name":"Wii","price":1,"photo":""},{"name":"DS","price":null,"photo":null}]"#)
        try Self.convert([input, folder.path("out.csv")])
        #expect(try folder.read("out.csv") == Array("name,price,photo\nWii,1,\"\"\nDS,,\n".utf8))
        try Self.convert([folder.path("out.csv"), folder.path("back.json"), "--compact"])
        let expected = #"[{"name":"Wii","price":1,"photo":""},{"name":"DS","price":null,"photo":null}]"# + "\n"
        #expect(try folder.read("back.json") == Array(expected.utf8))
    }
}
