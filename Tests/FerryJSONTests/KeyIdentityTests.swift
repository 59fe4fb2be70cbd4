import FerryJSON
import FerryKit
import Testing

/// Keys are sequences of code points, as in RFC 8259, Python and JavaScript:
/// two spellings of "é" are two keys, and each keeps its bytes.
@Suite struct KeyIdentityTests {
    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"

    @Test
    func canonicallyEquivalentKeysStayDistinct() throws {
        // Record keys: the second record's NFD key must keep its own bytes.
        let twoRecords = "[{\"\(Self.composed)\":1},{\"\(Self.decomposed)\":2}]\n"
        let read = try JSONTest.records(twoRecords)
        #expect(try JSONTest.write(read, style: .compact) == Array(twoRecords.utf8))

        // One record with both spellings has two fields, as Python's json reads it.
        let oneRecord = "[{\"\(Self.composed)\":1,\"\(Self.decomposed)\":2}]\n"
        let both = try JSONTest.records(oneRecord)
        #expect(both.first?.fields.count == 2)
        #expect(try JSONTest.write(both, style: .compact) == Array(oneRecord.utf8))

        // The same inside a nested object.
        let nested = "[{\"o\":{\"\(Self.composed)\":1,\"\(Self.decomposed)\":2}}]\n"
        #expect(try JSONTest.write(try JSONTest.records(nested), style: .compact) == Array(nested.utf8))
    }

    @Test func escapedAndRawSpellingsAreTheSameKey() throws {
        let records = try JSONTest.records("[{\"\\u00e9\":1,\"\(Self.composed)\":2}]")
        #expect(records.first?.fields.names == [Self.composed])
        #expect(records.first?[Self.composed] == .integer(2))
    }

    @Test func keysThatArePrefixesOfOthers() throws {
        let text = "[{\"name\":\"a\",\"price\":1},{\"names\":\"b\",\"price\":2},{\"nam\":\"c\",\"pric\":3},{\"name\":\"d\",\"price\":4}]"
        let records = try JSONTest.records(text)
        #expect(records.map(\.fields.names) == [["name", "price"], ["names", "price"], ["nam", "pric"], ["name", "price"]])
        #expect(try JSONTest.write(records, style: .compact) == Array((text + "\n").utf8))
    }

    @Test func keysWithEscapesAfterPlainKeys() throws {
        let text = #"[{"a\"b":1,"c":2},{"a\"b":3,"c":4},{"a\\b":5,"c":6}]"#
        let records = try JSONTest.records(text)
        #expect(records.map(\.fields.names) == [["a\"b", "c"], ["a\"b", "c"], ["a\\b", "c"]])
        for seed: UInt64 in [1, 2, 3] {
            #expect(try JSONTest.records(trickleInput(Array(text.utf8), seed: seed), layout: .document) == records)
        }
    }
}
