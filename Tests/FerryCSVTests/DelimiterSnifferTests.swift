import Testing

@testable import FerryCSV
@testable import FerryKit

/// Without `--delimiter`, the delimiter is the one the first rows agree on.
@Suite struct DelimiterSnifferTests {
    func sniff(_ text: String, preferred: UInt8 = UInt8(ascii: ","), isWhole: Bool = true) -> String {
        let byte = CSVDelimiterSniffer.sniff(
            Array(text.utf8), isWhole: isWhole, quote: UInt8(ascii: "\""), preferred: preferred)
        return String(UnicodeScalar(byte))
    }

    @Test(arguments: [
        ("name,price\nA,1\n", ","),
        ("name;price;note\nCrème;4,50;\"a;b\"\nTea;2,10;\n", ";"),
        ("name\tprice\nA\t1,5\n", "\t"),
        ("name|price\nA|1\nB|2\n", "|"),
        // Quoted delimiters are text: the commas here are inside quotes.
        ("\"a,b\";\"c,d\"\n\"1,2\";\"3,4\"\n", ";"),
        // A quoted field may hold a line break; the row goes on after it.
        ("a;b\n\"x\ny,z\";2\n", ";"),
        // Consistent counts win over more fields: commas split the rows unevenly.
        ("a;b\n1,5;2,5,3\n4;5\n", ";"),
        // A tie goes to the codec's delimiter.
        ("a,b;c\n1,2;3\n", ","),
        // One column: nothing splits the header, the codec's delimiter stays.
        ("name\nA\nB\n", ","),
        ("", ","),
        // A byte order mark and CRLF line ends.
        ("\u{FEFF}a;b\r\n1;2\r\n", ";"),
        // A quote inside an unquoted field is text, as the reader has it.
        ("size;name\n5\" ;screen, big\n", ";"),
    ])
    func guesses(_ text: String, expected: String) {
        #expect(sniff(text) == expected)
    }

    @Test func tsvPrefersTabs() {
        #expect(sniff("a\tb,c\n1\t2,3\n", preferred: 0x09) == "\t")
        #expect(sniff("a,b\n1,2\n", preferred: 0x09) == ",")
    }

    /// A sample cut inside a row counts only its whole rows.
    @Test func aCutRowIsLeftOut() {
        #expect(CSVDelimiterSniffer.fieldCounts(Array("a;b\n1;2\n3".utf8), isWhole: false, delimiter: 0x3B, quote: 0x22) == [2, 2])
        #expect(CSVDelimiterSniffer.fieldCounts(Array("a;b\n1;2\n3".utf8), isWhole: true, delimiter: 0x3B, quote: 0x22) == [2, 2, 1])
    }

    /// Read through the codec: the sniffed delimiter splits the rows, a
    /// given one wins, and the ragged-row error names the one used.
    @Test func theCodecSniffsUnlessTold() throws {
        let semicolons = readCSV("name;price\nA;1\nB;2\n", kind: nil)
        #expect(semicolons.error == nil)
        #expect(semicolons.records.map { $0["price"] } == [.integer(1), .integer(2)])
        let told = readCSV("name;price\nA;1\n", kind: .generic, options: ["delimiter": ","])
        #expect(told.records.first?.fields.names == ["name;price"])
        let ragged = try #require(readCSV("a;b\n1;2\n3;4;5\n").error)
        #expect(ragged.code == .csvRaggedRow)
        #expect(ragged.arguments == [.integer(2), .count(3), .string("';'")])
        let tabs = try #require(readCSV("a\tb\n1\t2\n3\n", codec: .tsv).error)
        #expect(tabs.arguments == [.integer(2), .count(1), .message(.csvDelimiterTab)])
    }

    @Test(arguments: [
        (",", 0x2C), (";", 0x3B), ("tab", 0x09), ("TAB", 0x09), ("\\t", 0x09), ("\t", 0x09), ("|", 0x7C),
        ("^", 0x5E), (" ", 0x20), ("\\x1f", 0x1F), ("\\x1F", 0x1F),
    ])
    func anySingleByteIsADelimiter(_ text: String, byte: Int) throws {
        #expect(CSVDialect.delimiter(named: text) == UInt8(byte))
        let dialect = try CSVDialect(delimiter: 0x2C, options: OptionValues(["delimiter": text]))
        #expect(dialect.delimiter == UInt8(byte))
        #expect(dialect.delimiterGiven)
    }

    @Test(arguments: ["", "ab", "é", "\n", "\r", "\\x00", "\\x0a", "\\x80", "\\xzz", "\""])
    func otherDelimitersAreRefused(_ text: String) {
        #expect(throws: FerryError.usageInvalidValue(option: "delimiter", value: text, expected: .message(.expectedDelimiter))) {
            _ = try CSVDialect(delimiter: 0x2C, options: OptionValues(["delimiter": text]))
        }
    }
}
