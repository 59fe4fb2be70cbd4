import Foundation
import Testing

@testable import FerryCSV
@testable import FerryKit

/// csv-spectrum: every case, read as generic records, equals its expected JSON.
@Suite struct CSVSpectrumTests {
    static let cases = [
        "comma_in_quotes", "empty", "empty_crlf", "escaped_quotes", "json", "newlines", "newlines_crlf",
        "quotes_and_newlines", "simple", "simple_crlf", "utf8",
    ]

    @Test(arguments: cases)
    func matchesExpectedJSON(_ name: String) throws {
        let folder = try corpus("csv-spectrum")
        let csv = try String(contentsOf: folder.appendingPathComponent("csvs/\(name).csv"), encoding: .utf8)
        let json = try Data(contentsOf: folder.appendingPathComponent("json/\(name).json"))
        let expected = try #require(JSONSerialization.jsonObject(with: json) as? [[String: String]])
        for step in [nil, 1, 3] as [Int?] {
            // The corpus gives every cell as text: no types inferred.
            let result = readCSV(csv, options: ["no-infer": ""], step: step)
            #expect(result.error == nil, "\(name): \(String(describing: result.error))")
            #expect(result.records.map(plain) == expected.map { $0.mapValues { Optional($0) } }, "\(name), step \(String(describing: step))")
        }
    }

    @Test func everyCaseIsCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: try corpus("csv-spectrum").appendingPathComponent("csvs").path)
        #expect(Set(files.map { String($0.dropLast(4)) }) == Set(Self.cases))
    }
}

/// csvkit's awkward files: each converts, or fails with a located, coded error.
@Suite struct CSVKitExamplesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        /// The error code, or nil when the file must convert.
        let code: String?
        var line = 0
        var column = 0
        var records = 0
        var testDescription: String { file }
    }

    static let cases = [
        Case(file: "bad.csv", code: "csv.raggedRow", line: 2, column: 1),
        // Blank lines before the header are skipped: the long row is line 5.
        Case(file: "bad_skip_lines.csv", code: "csv.raggedRow", line: 5, column: 1),
        Case(file: "blanks.csv", code: nil, records: 1),
        Case(file: "dummy_col_shuffled_ragged.csv", code: nil, records: 1),
        Case(file: "empty.csv", code: nil, records: 0),
        Case(file: "mac_newlines.csv", code: nil, records: 2),
        Case(file: "null_byte.csv", code: "csv.nullByte", line: 2, column: 1),
        Case(file: "optional_quote_characters.csv", code: nil, records: 1),
        // Rows of delimiters only are skipped, whatever their length (as
        // Excel writes them below a table; see Formats/csv.md).
        Case(file: "test_empty_columns_long_row.csv", code: nil, records: 0),
        Case(file: "test_empty_columns_short_row.csv", code: nil, records: 0),
        Case(file: "test_extra_header.csv", code: "csv.raggedRow", line: 2, column: 1),
        Case(file: "test_header_newline.csv", code: nil, records: 1),
        Case(file: "test_latin1.csv", code: "csv.invalidUTF8", line: 3, column: 5),
        Case(file: "test_utf16_big.csv", code: nil, records: 2),
        Case(file: "test_utf16_little.csv", code: nil, records: 2),
        Case(file: "test_utf8_bom.csv", code: nil, records: 2),
    ]

    @Test(arguments: cases)
    func convertsOrFailsWithALocatedCode(_ check: Case) throws {
        let path = try corpus("csvkit-examples").appendingPathComponent(check.file).path
        let input = try FileInput(path: path)
        let context = ReadContext(kind: .generic)
        var count = 0
        do {
            let reader = try CSVCodec.csv.makeReader(input, context: context)
            while try reader.next() != nil { count += 1 }
            #expect(check.code == nil, "\(check.file) converted but should fail with \(check.code ?? "")")
            #expect(count == check.records)
        } catch {
            #expect(error.code.rawValue == check.code, "\(check.file): \(error)")
            #expect(error.location.line == check.line)
            #expect(error.location.column == check.column)
        }
    }

    @Test func latin1ConvertsWithTheEncodingOption() throws {
        let path = try corpus("csvkit-examples").appendingPathComponent("test_latin1.csv").path
        let context = ReadContext(kind: .generic, options: OptionValues(["encoding": "latin1"]))
        let reader = try CSVCodec.csv.makeReader(try FileInput(path: path), context: context)
        var values: [String] = []
        while let record = try reader.next() { values += record.values.compactMap(\.stringValue) }
        #expect(values.contains("©"))
    }

    @Test func raggedFilesConvertWithPadAndTruncate() throws {
        let path = try corpus("csvkit-examples").appendingPathComponent("bad.csv").path
        for policy in ["pad", "truncate"] {
            let context = ReadContext(kind: .generic, options: OptionValues(["ragged": policy]))
            let reader = try CSVCodec.csv.makeReader(try FileInput(path: path), context: context)
            var count = 0
            while try reader.next() != nil { count += 1 }
            #expect(count > 0)
            let warnings = context.takeWarnings()
            #expect(warnings.map(\.code) == [.csvRaggedRowsFixed], "\(policy)")
        }
    }
}
