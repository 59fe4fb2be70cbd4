import FerryJSON
import FerryKit
import Testing

/// Strings: escapes on the way out, escapes and UTF-8 checks on the way in.
@Suite struct StringTests {
    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote \" and backslash \\", #""quote \" and backslash \\""#),
        ("slash / stays", #""slash / stays""#),
        ("\u{8}\u{C}\n\r\t", #""\b\f\n\r\t""#),
        ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
        ("del \u{7F} stays raw", "\"del \u{7F} stays raw\""),
        ("café 日本 😀 👨‍👩‍👧", "\"café 日本 😀 👨‍👩‍👧\""),
        ("line\u{2028}para\u{2029}", "\"line\u{2028}para\u{2029}\""),
        ("", #""""#),
    ])
    func roundTrip(_ text: String, quoted: String) throws {
        let records = [Record([("s", .string(text))])]
        try JSONTest.roundTrip(records, style: .lines, golden: "{\"s\":\(quoted)}\n")
    }

    @Test func keysAreEscapedToo() throws {
        let records = [Record([("a\"b", .integer(1)), ("tab\there", .integer(2)), ("ключ", .integer(3))])]
        try JSONTest.roundTrip(records, style: .lines, golden: "{\"a\\\"b\":1,\"tab\\there\":2,\"ключ\":3}\n")
    }

    @Test(arguments: [
        (#""\u00e9\u00E9""#, "éé"),
        (#""\ud83d\ude00""#, "😀"),
        (#""\uD83D\uDE00x""#, "😀x"),
        (#""\/\"\\""#, "/\"\\"),
        (#""\u0000""#, "\u{0}"),
        (#""\u2028""#, "\u{2028}"),
        (#""a\nb""#, "a\nb"),
        (#""\u0041\u0042""#, "AB"),
    ])
    func readsEscapes(_ quoted: String, as expected: String) throws {
        let records = try JSONTest.records("{\"s\":\(quoted)}")
        #expect(records.first?["s"] == .string(expected))
    }

    @Test func escapedKeyMatchesItsPlainSpelling() throws {
        let records = try JSONTest.records(#"[{"name":"a","price":1},{"na\u006De":"b","price":2}]"#)
        #expect(records.map(\.fields.names) == [["name", "price"], ["name", "price"]])
        #expect(records[1]["name"] == .string("b"))
    }

    /// Malformed strings; the column is that of the offending byte.
    @Test(arguments: [
        (Array(#"{"s":"\x"}"#.utf8), "json.invalidEscape", 8),
        (Array(#"{"s":"\u12G4"}"#.utf8), "json.invalidEscape", 11),
        (Array(#"{"s":"\uD800"}"#.utf8), "json.invalidSurrogate", 7),
        (Array(#"{"s":"\uDC00"}"#.utf8), "json.invalidSurrogate", 7),
        (Array(#"{"s":"\uD800\u0041"}"#.utf8), "json.invalidSurrogate", 7),
        (Array(#"{"s":"a"#.utf8) + [0x09] + Array(#"b"}"#.utf8), "json.controlCharacter", 8),
        (Array(#"{"s":"a"#.utf8) + [0xFF] + Array(#""}"#.utf8), "json.invalidUTF8", 8),
        (Array(#"{"s":"é"#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), "json.invalidUTF8", 8),
        (Array(#"{"s":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8), "json.invalidUTF8", 7),
        (Array(#"{"s":"ab"#.utf8) + [0xE6, 0x97] + Array(#""}"#.utf8), "json.invalidUTF8", 9),
        (Array(#"{"s":"abc"#.utf8), "json.unexpectedEnd", 10),
        (Array(#"{"s":"abc\"#.utf8), "json.unexpectedEnd", 11),
    ])
    func malformed(_ bytes: [UInt8], code: String, column: Int) throws {
        let error = try #require(JSONTest.readError(bytes))
        #expect(error.code.rawValue == code)
        #expect(error.place == [1, column])
    }

    @Test func invalidUTF8InAKey() throws {
        let bytes = Array("[{\"a\":1},\n{\"".utf8) + [0xF8] + Array("\":1}]".utf8)
        let error = try #require(JSONTest.readError(bytes))
        #expect(error.code == .jsonInvalidUTF8)
        #expect(error.place == [2, 3])
        #expect(error.location.record == 1)
        #expect(error.location.byteOffset == 12)
    }

    @Test func columnsCountScalarsNotBytes() throws {
        let error = try #require(JSONTest.readError("{\"日本語😀\":x}"))
        #expect(error.code == .jsonUnexpectedCharacter)
        #expect(error.place == [1, 9])
    }
}
