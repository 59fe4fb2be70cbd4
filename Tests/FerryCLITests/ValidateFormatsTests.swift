import FerryTestSupport
import Foundation
import Testing

/// `ferry validate --formats assert|annotate` with a user's schema.
@Suite struct ValidateFormatsTests {
    static let schemaText = #"""
        {"type": "object", "properties": {"mail": {"type": "string", "format": "email"},
                                          "host": {"type": "string", "format": "ipv4"}}}
        """#

    static let runs: [(options: [String], status: Int32, codes: [String])] = [
        ([], 1, ["schema.format", "schema.format"]),
        (["--formats", "assert"], 1, ["schema.format", "schema.format"]),
        (["--formats", "annotate"], 0, []),
    ]

    @Test(arguments: runs)
    func formatsAssertByDefaultAndAnnotateOnRequest(options: [String], status: Int32, codes: [String]) throws {
        let folder = try ScratchFolder()
        let schema = try folder.write("s.json", Self.schemaText)
        let input = try folder.write("in.csv", "mail,host\njoe@example.com,10.0.0.1\nnot mail,10.0.0.256\n")
        let result = try Ferry.run(["validate", input, "--schema", schema] + options)
        #expect(result.status == status, "\(result.err)")
        #expect(result.diagnosticCodes == codes, "\(result.err)")
    }

    @Test func anUnknownFormatIsRefusedEvenWhenAnnotating() throws {
        let folder = try ScratchFolder()
        let schema = try folder.write("s.json", #"{"properties": {"p": {"format": "phone"}}}"#)
        let input = try folder.write("in.csv", "p\n1\n")
        let result = try Ferry.run(["validate", input, "--schema", schema, "--formats", "annotate"])
        #expect(result.status == 2)
        #expect(result.diagnosticCodes == ["schema.unknownFormat"], "\(result.err)")
    }

    @Test func aModeFerryDoesNotKnowIsAUsageError() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.csv", "p\n1\n")
        let result = try Ferry.run(["validate", input, "--formats", "ignore"])
        #expect(result.status == 2)
    }
}
