import FerryCore
import Testing

@testable import FerryKit

/// `FieldProfile` counts a field filled only when it holds a value: a null
/// handed over as a record's value (every cell `.other`, as for readers
/// without raw records) is no more filled than a null cell, so a field
/// null in some records is not drafted as `required`.
@Suite struct FieldProfileTests {
    @Test func aNullValueIsNotFilled() {
        var profile = FieldProfile(name: "a")
        for (ordinal, value) in [Value.null, .integer(1), .null].enumerated() {
            RawRecord.with(Record([("a", value)])) { profile.observe($0, at: 0, ordinal: ordinal) }
        }
        #expect(profile.filled == 1)
    }
}
