import Foundation
import Testing

@testable import FerryKit
@testable import FerryPlist

/// Inputs the fuzzers found crashing, kept in Fuzz/Regressions, each with the
/// coded error it must now give.
@Suite struct FuzzRegressionTests {
    @Test(arguments: [
        // The offset table's position plus its size overflowed 64 bits.
        ("Plist/offset-table-overflow", "plist", "bplist.invalidTrailer"),
        // A plain array in $objects holding a UID to itself recursed until the stack ran out.
        ("Archive/uid-array-cycle", "archive", "archive.cycle"),
        // An entry of $objects that is itself a UID, chained: no depth was counted.
        ("Archive/uid-chain", "archive", "archive.cycle"),
    ])
    func regressionGivesItsCode(path: String, format: String, code: String) throws {
        let url = PlistFixtures.packageRoot.appendingPathComponent("Fuzz/Regressions/\(path)")
        let bytes = try PlistFixtures.bytes(url)
        let codec: any Codec = format == "plist" ? PlistCodec() : ArchiveCodec()
        do throws(FerryError) {
            try codec.lint(MemoryInput(bytes), context: ReadContext())
            Issue.record("\(path) passed lint")
        } catch {
            #expect(error.code.rawValue == code)
            #expect(error.location.byteOffset != nil)
        }
    }
}
