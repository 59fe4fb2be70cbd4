import FerryTestSupport
import Foundation
import Testing

/// `convert --jobs N`: the CSV to JSON conversion lays rows out on a second
/// thread only with two jobs or more, and the output is the same for any N.
@Suite struct ConvertJobsTests {
    @Test func csvToJSONLinesIsTheSameForAnyJobs() throws {
        let folder = try ScratchFolder()
        var csv = "name,price,sku\r\n"
        // More than the 128 KiB the second thread needs, with quoted cells and empty ones.
        for row in 0..<20_000 {
            csv += row % 7 == 0 ? "\"Item, \(row)\",,S\(row)\r\n" : "Item \(row),\(row).99,S\(row)\r\n"
        }
        let input = try folder.write("p.csv", csv)
        var outputs: [Int: [UInt8]] = [:]
        for jobs in [1, 2, 4] {
            let result = try Ferry.run(["convert", input, "--to", "jsonl", "--jobs", String(jobs), "-"])
            #expect(result.status == 0, "--jobs \(jobs): \(result.err)")
            outputs[jobs] = result.stdout
        }
        #expect(outputs[1]?.count ?? 0 > 400_000)
        #expect(outputs[1] == outputs[2])
        #expect(outputs[1] == outputs[4])
    }
}
