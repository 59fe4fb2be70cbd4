import FerryCore
import Testing

@testable import FerryCSV

/// Types of the columns no kind or schema types (Formats/csv.md, "Types
/// without a schema").
@Suite struct CSVInferenceTests {
    /// The values of column `name` in every record of `text`.
    func column(
        _ name: String, of text: String, options: [String: String] = [:], kind: RecordKind? = .generic, step: Int? = nil
    ) -> [Value?] {
        readCSV(text, kind: kind, options: options, step: step).records.map { $0[name] }
    }

    // MARK: - Cells

    /// JSON's spelling of numbers: what JSON can hold, and so what writers
    /// give back as written.
    @Test(arguments: [
        ("0", true, true), ("-12", true, true), ("123456789012345678901234567890", true, true),
        ("1.5", false, true), ("-0.25", false, true), ("1e5", false, true), ("2.5E-3", false, true),
        ("00123", false, false), ("+1", false, false), (".5", false, false), ("5.", false, false),
        ("NaN", false, false), ("inf", false, false), ("-", false, false), ("1,5", false, false),
        ("0x10", false, false), (" 1", false, false), ("1e", false, false), ("--1", false, false),
    ])
    func numbersAreSpeltAsJSONSpellsThem(_ text: String, integer: Bool, number: Bool) {
        var bytes = Array(text.utf8)
        let shapes = bytes.withUnsafeMutableBufferPointer { CSVTypeInference.shapes(of: UnsafeBufferPointer($0)) }
        #expect(shapes.contains(.integer) == integer, "\(text)")
        #expect(shapes.contains(.number) == number, "\(text)")
        #expect(!shapes.contains(.boolean))
    }

    /// Booleans are `true` and `false` only: other spellings would read
    /// back as something else than they were written.
    @Test(arguments: [("true", true), ("false", true), ("TRUE", false), ("True", false), ("yes", false), ("t", false)])
    func booleansAreTrueAndFalseOnly(_ text: String, boolean: Bool) {
        var bytes = Array(text.utf8)
        let shapes = bytes.withUnsafeMutableBufferPointer { CSVTypeInference.shapes(of: UnsafeBufferPointer($0)) }
        #expect(shapes == (boolean ? .boolean : []))
    }

    // MARK: - Columns

    @Test func aZipCodeColumnStaysText() {
        let text = "zip,n\n00123,1\n10115,2\n"
        #expect(column("zip", of: text) == [.string("00123"), .string("10115")])
        #expect(column("n", of: text) == [.integer(1), .integer(2)])
    }

    /// One cell that is not a number keeps the whole column text, cells
    /// before and after it too.
    @Test func aMixedColumnStaysText() {
        let text = "a,b,c\n1,1,true\n2.5,x,1\n3,2,false\n"
        #expect(column("a", of: text) == [.integer(1), .double(2.5), .integer(3)])
        #expect(column("b", of: text) == [.string("1"), .string("x"), .string("2")])
        #expect(column("c", of: text) == [.string("true"), .string("1"), .string("false")])
    }

    @Test func booleanColumns() {
        #expect(column("a", of: "a\ntrue\nfalse\n") == [.bool(true), .bool(false)])
        #expect(column("a", of: "a\nyes\nno\n") == [.string("yes"), .string("no")])
        #expect(column("a", of: "a\n1\n0\n") == [.integer(1), .integer(0)])
    }

    /// An empty cell of a typed column is null; one of a text column, and
    /// a column of empty cells only, stay empty strings.
    @Test func emptyCells() {
        // (A row of delimiters only would be skipped: the middle cell is quoted.)
        let text = "n,t,e\n1,x,\n,\"\",\n\"\",y,\n"
        #expect(column("n", of: text) == [.integer(1), .null, .null])
        #expect(column("t", of: text) == [.string("x"), .string(""), .string("y")])
        #expect(column("e", of: text) == [.string(""), .string(""), .string("")])
    }

    /// The `--null` text is an empty cell to inference, and null.
    @Test func theNullTextIsNoValue() {
        let text = "n,t\n1,NULL\nNULL,x\n"
        #expect(column("n", of: text, options: ["null": "NULL"]) == [.integer(1), .null])
        #expect(column("t", of: text, options: ["null": "NULL"]) == [.null, .string("x")])
        // Without --null, NULL is text, and so is its column.
        #expect(column("n", of: text) == [.string("1"), .string("NULL")])
    }

    @Test func noInferKeepsText() {
        #expect(column("n", of: "n\n1\n2\n", options: ["no-infer": ""]) == [.string("1"), .string("2")])
    }

    /// Columns a kind types keep its types; the others are inferred.
    @Test func onlyFreeColumnsAreInferred() {
        let text = "name,price,stock\nWii,269,3\nXbox,199.5,\n"
        let records = readCSV(text, kind: .product).records
        #expect(records.map { $0["price"] } == [.integer(269), .double(199.5)])
        #expect(records.map { $0["name"] } == [.string("Wii"), .string("Xbox")])
        #expect(records.map { $0["stock"] } == [.integer(3), .null])
    }

    /// Under `--decimal-comma`, `1.500` is fifteen hundred: such numbers
    /// need a schema, and nothing is inferred.
    @Test func aDecimalCommaTurnsInferenceOff() {
        #expect(column("n", of: "n\n1\n2\n", options: ["decimal-comma": ""]) == [.string("1"), .string("2")])
    }

    // MARK: - Whole input or sample

    /// Rows past the first two megabytes, of which one does not fit.
    static let longText = "n\n" + String(repeating: "1234567890\n", count: 200_000) + "x\n2\n"

    /// An input that can be read again is looked over to its end: the
    /// last rows count, and no warning is needed.
    @Test func aFileIsLookedOverWhole() {
        let result = readCSV(Self.longText)
        #expect(result.error == nil)
        #expect(result.records.count == 200_002)
        #expect(result.records.first?["n"] == .string("1234567890"))
        #expect(result.records.last?["n"] == .string("2"))
        #expect(result.warnings.isEmpty)
    }

    /// A pipe is typed from its first megabyte; a later cell that does not
    /// fit is kept as text, and one warning counts such cells.
    @Test func aPipeIsTypedFromASample() throws {
        let text = Self.longText + "00123\n+1\n3\n"
        let result = readCSV(text, step: 1 << 16)
        #expect(result.error == nil)
        let values = result.records.map { $0["n"] }
        #expect(values.first == .integer(1_234_567_890))
        #expect(Array(values.suffix(5)) == [.string("x"), .integer(2), .string("00123"), .string("+1"), .integer(3)])
        let warning = try #require(result.warnings.first)
        #expect(result.warnings.count == 1)
        #expect(warning.code == .csvCellsKeptAsText)
        #expect(warning.arguments.first == .count(3))
        guard case .count(let rows)? = warning.arguments.last else {
            Issue.record("the sample's rows: \(warning.arguments)")
            return
        }
        #expect(rows > 50_000 && rows < 200_000)
    }

    /// A small input through a pipe fits in the sample: it is whole.
    @Test func aShortPipeIsWhole() {
        let result = readCSV("n\n1\nx\n", step: 1)
        #expect(result.records.map { $0["n"] } == [.string("1"), .string("x")])
        #expect(result.warnings.isEmpty)
    }
}
