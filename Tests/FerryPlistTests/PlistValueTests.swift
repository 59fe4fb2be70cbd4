import Testing

@testable import FerryPlist

@Suite struct PlistValueTests {
    @Test func dictionaryKeysCompareByBytes() {
        // "é" precomposed and decomposed are canonically equal but different keys.
        let dictionary = PlistDictionary([("caf\u{E9}", .integer(1)), ("cafe\u{301}", .integer(2))])
        #expect(dictionary["caf\u{E9}"] == .integer(1))
        #expect(dictionary["cafe\u{301}"] == .integer(2))
        #expect(dictionary["cafe"] == nil)
    }

    @Test func typeNamesFollowPlistTerms() {
        #expect(PlistValue.dictionary(PlistDictionary()).typeName == "dict")
        #expect(PlistValue.unsignedInteger(UInt64.max).typeName == "integer")
    }
}
