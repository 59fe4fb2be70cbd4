import FerryKit
import FerryPlist
import Foundation
import Testing

/// Hostile and malformed documents: each ends in a coded error with its
/// arguments and location, the same whether read whole, in tiny chunks, or
/// parsed as one document; and a failed reader stays failed.
@Suite struct XMLPlistErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let code: String
        let line: Int
        let column: Int
        var arguments: [MessageArgument]? = nil
        /// The record index the reader reports; nil when not checked.
        var record: Int? = nil
        var field: String? = nil
        /// The code `XMLPlistParser` gives, when it differs; "" when it parses.
        var parserCode: String? = nil

        init(
            _ text: String, _ code: String, _ line: Int, _ column: Int, arguments: [MessageArgument]? = nil,
            record: Int? = nil, field: String? = nil, parserCode: String? = nil
        ) {
            self.init(
                bytes: Array(text.utf8), code, line, column, arguments: arguments, record: record, field: field,
                parserCode: parserCode)
        }

        init(
            bytes: [UInt8], _ code: String, _ line: Int, _ column: Int, arguments: [MessageArgument]? = nil,
            record: Int? = nil, field: String? = nil, parserCode: String? = nil
        ) {
            self.bytes = bytes
            self.code = code
            self.line = line
            self.column = column
            self.arguments = arguments
            self.record = record
            self.field = field
            self.parserCode = parserCode
        }

        var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }
    }

    static let cases: [Case] = [
        // Truncated documents: the error is at the end, naming what is open.
        Case(
            "<plist version=\"1.0\">\n<array>\n\t<dict>\n\t\t<key>a</key>\n\t\t<string>x", "xmlplist.unterminated", 5,
            12,
            arguments: ["<string>"], record: 0),
        Case("<array><dict><key>a</key><integ", "xmlplist.unterminated", 1, 32, arguments: ["<"], record: 0),
        Case("<array><dict/>", "xmlplist.unterminated", 1, 15, arguments: ["<array>"], record: 1),
        Case("<array><!-- x", "xmlplist.unterminated", 1, 14, arguments: ["<!--"], record: 0),
        Case("<dict><key>a</key><string><![CDATA[x", "xmlplist.unterminated", 1, 37, arguments: ["<![CDATA["]),
        Case("<plist><dict/>", "xmlplist.unterminated", 1, 15, arguments: ["<plist>"]),
        // Mismatched and misplaced tags.
        Case(
            "<array><dict><key>a</key><string>x</integer></dict></array>", "xmlplist.mismatchedTag", 1, 35,
            arguments: ["</integer>", "</string>"], record: 0),
        Case("<array><dict></array>", "xmlplist.mismatchedTag", 1, 14, arguments: ["</array>", "</dict>"], record: 0),
        Case("<array><key>a</key></array>", "xmlplist.unexpectedTag", 1, 8, arguments: ["<key>"], record: 0),
        Case(
            "<dict><key>s</key><string>a<dict/></string></dict>", "xmlplist.unexpectedTag", 1, 28,
            arguments: ["<dict/>"]),
        Case("<array/><array/>", "xmlplist.unexpectedTag", 1, 9, arguments: ["<array/>"]),
        Case(
            "<array><dict><key>a</key><foo/></dict></array>", "xmlplist.unknownTag", 1, 26, arguments: ["<foo>"],
            record: 0),
        Case(
            "<array>x</array>", "xmlplist.unexpectedCharacter", 1, 8, arguments: [.byte(UInt8(ascii: "x"))], record: 0),
        Case("<dict><string>x</string></dict>", "xmlplist.missingKey", 1, 7, arguments: ["<string>"], record: 0),
        Case("<dict><key>a</key></dict>", "xmlplist.missingValue", 1, 19, arguments: ["a"], record: 0),
        // Entities: declarations are refused, only predefined references read.
        Case(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY a \"aaaa\">\n<!ENTITY b \"&a;&a;&a;&a;\">\n]>\n<plist><string>&b;</string></plist>",
            "xmlplist.entityDeclaration", 3, 1, arguments: []),
        Case("<!DOCTYPE plist [<!ENTITY % p SYSTEM \"http://x\">]><plist/>", "xmlplist.entityDeclaration", 1, 18),
        Case(
            "<array><dict><key>a</key><string>x&foo;</string></dict></array>", "xmlplist.invalidEntity", 1, 35,
            arguments: ["&foo;"], record: 0, field: "a"),
        Case("<dict><key>a</key><string>&#0;</string></dict>", "xmlplist.invalidEntity", 1, 27, arguments: ["&#0;"]),
        Case("<dict><key>a</key><string>&#xD800;</string></dict>", "xmlplist.invalidEntity", 1, 27),
        Case("<dict><key>a</key><string>&#x110000;</string></dict>", "xmlplist.invalidEntity", 1, 27),
        Case("<dict><key>a</key><string>a & b</string></dict>", "xmlplist.invalidEntity", 1, 29),
        // Scalars that do not read.
        Case(
            "<array><dict><key>n</key><integer>12a</integer></dict></array>", "xmlplist.invalidInteger", 1, 35,
            arguments: ["12a"], record: 0, field: "n"),
        Case(
            "<array>\r\n<dict>\r\n<key>a</key>\r\n<integer>z</integer>\r\n</dict>\r\n</array>",
            "xmlplist.invalidInteger", 4,
            10, arguments: ["z"], record: 0, field: "a"),
        Case("<dict><key>n</key><integer/></dict>", "xmlplist.invalidInteger", 1, 19, arguments: [""]),
        Case("<dict><key>r</key><real>1.2.3</real></dict>", "xmlplist.invalidReal", 1, 25, arguments: ["1.2.3"]),
        Case("<dict><key>r</key><real>0x1p3</real></dict>", "xmlplist.invalidReal", 1, 25),
        Case(
            "<dict><key>d</key><date>2017-13-07T12:30:00Z</date></dict>", "xmlplist.invalidDate", 1, 25,
            arguments: ["2017-13-07T12:30:00Z"]),
        Case("<dict><key>d</key><date>2017-10-07 12:30:00</date></dict>", "xmlplist.invalidDate", 1, 25),
        Case("<dict><key>b</key><data>AB$D</data></dict>", "xmlplist.invalidBase64", 1, 25, arguments: []),
        Case("<dict><key>t</key><true>yes</true></dict>", "xmlplist.unexpectedCharacter", 1, 25),
        // Bytes that are not UTF-8.
        Case(
            bytes: Array("<array><dict><key>a</key><string>ab".utf8) + [0xFF] + Array("</string></dict></array>".utf8),
            "xmlplist.invalidUTF8", 1, 36, arguments: [], record: 0, field: "a"),
        Case(
            bytes: Array("<dict><key>".utf8) + [0xC3, 0x28] + Array("</key><true/></dict>".utf8),
            "xmlplist.invalidUTF8",
            1, 12),
        Case(
            bytes: Array("<!-- ".utf8) + [0xED, 0xA0, 0x80] + Array(" --><dict/>".utf8), "xmlplist.invalidUTF8", 1, 6),
        // No value at all.
        Case("", "xmlplist.empty", 1, 1),
        Case("  <?xml version=\"1.0\"?>\n<plist/>", "xmlplist.empty", 2, 1),
        Case("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n</plist>", "xmlplist.empty", 3, 1),
        // Values that are not records, which only the reader refuses.
        Case(
            "<plist><string>x</string></plist>", "format.notRecords", 1, 8, arguments: [.message(.typeString)],
            record: 0, parserCode: ""),
        Case(
            "<array><dict/><integer>1</integer></array>", "format.notRecords", 1, 15,
            arguments: [.message(.typeInteger)], record: 1, parserCode: ""),
        Case(
            "<array><array/></array>", "format.notRecords", 1, 8, arguments: [.message(.typeArray)], record: 0,
            parserCode: ""),
    ]

    func check(_ error: FerryError?, _ expected: Case, code: String, checksRecord: Bool) {
        guard let error else {
            Issue.record("no error, expected \(code)")
            return
        }
        #expect(error.code.rawValue == code)
        #expect(error.place == [expected.line, expected.column])
        #expect(error.location.file == "-")
        #expect(error.location.byteOffset != nil)
        if let arguments = expected.arguments { #expect(error.arguments == arguments) }
        if checksRecord, let record = expected.record { #expect(error.location.record == record) }
        if checksRecord, let field = expected.field { #expect(error.location.field == field) }
    }

    @Test(arguments: cases)
    func readerReportsTheProblem(_ expected: Case) {
        check(XMLPlistTest.readError(expected.bytes), expected, code: expected.code, checksRecord: true)
    }

    @Test(arguments: cases)
    func readerInChunksReportsTheSame(_ expected: Case) {
        let whole = XMLPlistTest.readError(expected.bytes)
        for seed: UInt64 in [1, 7, 99] {
            #expect(XMLPlistTest.readError(expected.bytes, seed: seed) == whole)
        }
    }

    @Test(arguments: cases)
    func parserReportsTheProblem(_ expected: Case) {
        let error = XMLPlistTest.parseError(expected.bytes)
        switch expected.parserCode {
        case "": #expect(error == nil)
        case let code?: check(error, expected, code: code, checksRecord: false)
        case nil: check(error, expected, code: expected.code, checksRecord: false)
        }
    }

    @Test func aFailedReaderStaysFailed() throws {
        let text =
            "<array><dict><key>a</key><integer>1</integer></dict><dict><key>a</key><integer>x</integer></dict></array>"
        let reader = try XMLPlistReader(MemoryInput(text))
        #expect(try reader.next() != nil)
        var first: FerryError?
        do throws(FerryError) {
            _ = try reader.next()
        } catch {
            first = error
        }
        let error = try #require(first)
        #expect(error.code == .xmlPlistInvalidInteger)
        #expect(error.location.record == 1)
        for _ in 0..<3 { #expect(throws: error) { try reader.next() } }
    }

    // MARK: - Limits

    @Test func deepNestingStopsAtTheLimit() throws {
        let depth = 100_000
        let bytes = Array(
            (String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)).utf8)
        let error = try #require(XMLPlistTest.parseError(bytes))
        #expect(error.code == .nestingTooDeep)
        #expect(error.arguments == [.integer(512)])
        #expect(error.location.byteOffset == 512 * 7)
        #expect(error.place == [1, 512 * 7 + 1])
        // Unclosed nesting too.
        #expect(
            XMLPlistTest.parseError(Array(String(repeating: "<dict><key>a</key>", count: depth).utf8))?.code
                == .nestingTooDeep)
    }

    @Test func deepNestingInARecordStopsAtTheLimit() throws {
        let prefix = "<array><dict/><dict><key>a</key>"
        let depth = 100_000
        let bytes = Array((prefix + String(repeating: "<array>", count: depth)).utf8)
        for seed: UInt64? in [nil, 5] {
            let error = try #require(XMLPlistTest.readError(bytes, seed: seed))
            #expect(error.code == .nestingTooDeep)
            // The root array is depth 1 and the record 2, so the 511th nested array is too deep.
            #expect(error.location.byteOffset == prefix.utf8.count + 510 * 7)
            #expect(error.location.record == 1)
            #expect(error.location.field == "a")
        }
        let limited = XMLPlistTest.readError(
            Array("<array><dict><key>a</key><array/></dict></array>".utf8), limits: XMLPlistTest.limits(maxDepth: 2))
        #expect(limited?.code == .nestingTooDeep)
        #expect(
            XMLPlistTest.readError(
                Array("<array><dict><key>a</key><true/></dict></array>".utf8), limits: XMLPlistTest.limits(maxDepth: 2))
                == nil)
    }

    @Test func inputAndRecordSizeLimits() throws {
        var limits = ReadLimits()
        limits.maxInputBytes = 100
        let big = Array(("<array>" + String(repeating: "<dict/>", count: 50) + "</array>").utf8)
        #expect(XMLPlistTest.parseError(big, limits: limits)?.code == .inputTooLarge)
        limits.maxRecordBytes = 64
        let long = Array(
            ("<array><dict><key>a</key><string>" + String(repeating: "x", count: 5_000) + "</string></dict></array>")
                .utf8)
        #expect(XMLPlistTest.readError(long, limits: limits, seed: 3)?.code == .recordTooLarge)
    }

    @Test func manyKeysInOneRecordStayLinear() throws {
        var text = "<array><dict>"
        for index in 0..<20_000 { text += "<key>k\(index % 15_000)</key><integer>\(index)</integer>" }
        let records = try XMLPlistTest.records(text + "</dict></array>")
        #expect(records.count == 1)
        #expect(records[0].fields.count == 15_000)
        #expect(records[0]["k0"] == .integer(15_000))
        #expect(records[0]["k14999"] == .integer(14_999))
    }
}
