import Testing

@testable import FerryCore

/// A diagnostic keeps its offending value to 80 characters, not bytes: a
/// longer one is cut to 79 and `…`. A value of at most 80 bytes is kept
/// without counting its characters; one of more bytes may still be whole.
@Suite struct DiagnosticValueTests {
    static let cases: [(given: String, kept: String)] = [
        ("", ""),
        ("79.49", "79.49"),
        (String(repeating: "a", count: 80), String(repeating: "a", count: 80)),
        (String(repeating: "a", count: 81), String(repeating: "a", count: 79) + "…"),
        (String(repeating: "é", count: 80), String(repeating: "é", count: 80)),
        (String(repeating: "é", count: 81), String(repeating: "é", count: 79) + "…"),
        (String(repeating: "🎮", count: 30), String(repeating: "🎮", count: 30)),
        ("e\u{301}" + String(repeating: "b", count: 80), "e\u{301}" + String(repeating: "b", count: 78) + "…"),
    ]

    @Test(arguments: cases)
    func valuesAreCutAtEightyCharacters(_ given: String, _ kept: String) {
        #expect(Diagnostic.truncated(given) == kept)
        #expect(Diagnostic(.error, .recordNegative, value: given).value == kept)
    }
}
