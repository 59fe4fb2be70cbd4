import FerryTestSupport
import Foundation
import Testing

/// `validate --verbose`: an `anyOf` or `oneOf` that no branch passes reports
/// every branch's errors; without it, only the closest branch's.
@Suite struct ValidateVerboseTests {
    static let schema = #"""
        {"properties": {"price": {"anyOf": [
            {"type": "number", "minimum": 0, "multipleOf": 0.01},
            {"type": "string", "pattern": "^[0-9]+[.][0-9]{2}$"},
            {"type": "object", "required": ["amount", "currency"]}]}}}
        """#

    @Test func everyBranchOnlyWithVerbose() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("d.jsonl", "{\"price\": -1.005}\n{\"price\": 2}\n")
        let schema = try folder.write("s.json", Self.schema)
        let closest = try Ferry.run(["validate", input, "--schema", schema, "--report-format", "json"])
        #expect(closest.status == 1, "\(closest.err)")
        #expect(try rules(closest.stdout) == ["/properties/price/anyOf/0/minimum", "/properties/price/anyOf/0/multipleOf"])
        let every = try Ferry.run(["validate", input, "--schema", schema, "--report-format", "json", "--verbose"])
        #expect(every.status == 1, "\(every.err)")
        #expect(
            try rules(every.stdout) == [
                "/properties/price/anyOf/0/minimum", "/properties/price/anyOf/0/multipleOf",
                "/properties/price/anyOf/1/type", "/properties/price/anyOf/2/type",
            ])
    }

    @Test func verboseNeedsASchema() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("d.jsonl", "{\"name\": \"Wii\"}\n")
        let result = try Ferry.run(["validate", input, "--verbose"])
        #expect(result.status == 2)
        #expect(result.err.contains("--schema"), "\(result.err)")
    }

    private func rules(_ report: [UInt8]) throws -> [String] {
        let object = try #require(JSONSerialization.jsonObject(with: Data(report)) as? [String: Any])
        let errors = try #require(object["errors"] as? [[String: Any]])
        return errors.compactMap { $0["rule"] as? String }
    }
}
