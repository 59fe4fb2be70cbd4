import FerryCore
import Testing

/// `JSONText.quotes(_:as:)` tells a reader whether the writer gives an
/// escaped string's bytes back as they were read.
@Suite struct JSONQuotesTests {
    @Test(arguments: [
        (#"Quote " in"#, #""Quote \" in""#, true),
        (#"Back \ slash"#, #""Back \\ slash""#, true),
        ("Two\nlines\ttab", #""Two\nlines\ttab""#, true),
        ("Bell \u{07}", #""Bell \u0007""#, true),
        ("Slash / escaped", #""Slash \/ escaped""#, false),
        ("Letter A", #""Letter \u0041""#, false),
        ("Bell \u{07}", #""Bell \u0007 ""#, false),
    ])
    func quotesAsWritten(text: String, written: String, expected: Bool) {
        var written = written
        let got = written.withUTF8 { JSONText.quotes(text, as: $0) }
        #expect(got == expected)
    }
}
