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

    /// A read matches its own log of keys after 64 records: a field
    /// found repeating there logs no more, and one that does not repeat
    /// goes on. Its repeat after the check is found at the end.
    @Test func aFieldThatRepeatsEarlyLogsNoMore() {
        let context = ReadContext(kind: .generic, options: OptionValues(), limits: ReadLimits())
        let fields = FieldList(["id", "shelf", "late"])
        var profiles = FieldProfiles()
        let records = 5_000
        for index in 0..<records {
            let late = index == records - 1 ? 0 : index
            let record = Record(
                fields: fields, values: [.integer(Int64(index)), .string("S-\(index % 10)"), .integer(Int64(late))])
            RawRecord.with(record) { profiles.observe($0, context: context) }
        }
        profiles.finish()
        // id and late: every record; shelf: the first 64.
        #expect(profiles.keyLog.count == 2 * records + 64)
        guard case .object(let document) = profiles.schema(), case .object(let properties)? = document["properties"]
        else {
            Issue.record("no properties")
            return
        }
        func unique(_ name: String) -> Value? {
            guard case .object(let field)? = properties[name] else { return nil }
            return field["x-ferry-unique"]
        }
        #expect(unique("id") == .bool(true))
        #expect(unique("shelf") == nil && unique("late") == nil)
    }
}
