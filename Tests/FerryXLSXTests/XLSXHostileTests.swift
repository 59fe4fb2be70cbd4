import FerryCore
import FerryKit
import FerryTestSupport
import Foundation
import Testing

@testable import FerryXLSX

/// Hostile packages (`Scripts/make-workbooks.py hostile`), each a coded error, read
/// in little memory with nothing written to disk.
@Suite struct XLSXHostileTests {
    nonisolated(unsafe) static let made = Result { () throws -> ScratchFolder in
        let folder = try ScratchFolder()
        let result = try Subprocess.run(try PythonEnvironment.python(), [Workbooks.script, "hostile", folder.url.path])
        guard result.status == 0 else { throw ScriptFailure(description: result.err) }
        return folder
    }

    private func error(reading name: String, limits: ReadLimits = ReadLimits()) throws -> FerryError? {
        let folder = try Self.made.get()
        let bytes = try folder.read(name)
        // From a file (read in place) and from a pipe (read into memory).
        let fromFile = ferryError {
            let context = ReadContext(limits: limits)
            let reader = try XLSXCodec().makeReader(try FileInput(path: folder.path(name)), context: context)
            while try reader.next() != nil {}
        }
        let fromPipe = ferryError { _ = try FerryReading(bytes: bytes, name: folder.path(name), limits: limits) }
        #expect(fromFile?.code == fromPipe?.code)
        // A large sheet is inflated on a thread of its own: its errors are
        // the same, and arrive after the rows before them.
        let readAhead = ferryError {
            let context = ReadContext(limits: limits)
            let reader = try XLSXReader(try FileInput(path: folder.path(name)), context: context, readAheadSize: 0)
            while try reader.next() != nil {}
        }
        #expect(readAhead?.code == fromFile?.code)
        #expect(readAhead?.location == fromFile?.location)
        return fromFile
    }

    @Test func aGoodPackageReadsAsStoredAndDeflated() throws {
        let folder = try Self.made.get()
        for name in ["good.xlsx", "stored.xlsx"] {
            let reading = try FerryReading(bytes: try folder.read(name))
            #expect(reading.header == ["name"])
            #expect(reading.rows == [[.string("Wii")]])
        }
    }

    @Test func aBombIsRefusedBeforeItInflates() throws {
        let error = try error(reading: "bomb.xlsx")
        #expect(error?.code == .xlsxRatioTooHigh)
        #expect(error?.arguments == [.integer(250), .path("xl/worksheets/sheet1.xml")])
    }

    @Test func aBombThatUnderstatesItsSizeStopsAtThatSize() throws {
        #expect(try error(reading: "lyingbomb.xlsx")?.code == .xlsxSizeMismatch)
    }

    @Test func aLocalHeaderThatDisagreesIsAnError() throws {
        let error = try error(reading: "mismatch.xlsx")
        #expect(error?.code == .xlsxHeaderMismatch)
        #expect(error?.arguments == [.path("xl/worksheets/sheet1.xml")])
    }

    @Test func aTruncatedPackageIsAnError() throws {
        #expect(try error(reading: "truncated.xlsx")?.code == .xlsxTruncated)
    }

    @Test func aMissingSheetPartIsAnError() throws {
        let error = try error(reading: "nosheet.xlsx")
        #expect(error?.code == .xlsxMissingPart)
        #expect(error?.arguments == [.path("xl/worksheets/sheet1.xml")])
        #expect(error?.location.sheet == "Sheet1")
    }

    @Test func entityDeclarationsAreRefused() throws {
        let error = try error(reading: "entity.xlsx")
        #expect(error?.code == .xlsxDTDRefused)
        #expect(error?.location.line == 1)
        #expect(error?.location.column == 22)
    }

    @Test func aDamagedPartFailsItsCRC() throws {
        #expect(try error(reading: "crc.xlsx")?.code == .xlsxCRCMismatch)
    }

    @Test func malformedXMLIsLocatedInItsPart() throws {
        let error = try error(reading: "malformed.xlsx")
        #expect(error?.code == .xlsxMalformedXML)
        #expect(error?.location.line == 2)
        #expect(error?.location.column == 2)
    }

    @Test func tooManyEntriesAreRefused() throws {
        var limits = ReadLimits()
        limits.maxEntries = 3
        #expect(try error(reading: "good.xlsx", limits: limits)?.code == .xlsxTooManyEntries)
    }

    @Test func aPartPastThePartLimitIsRefused() throws {
        var limits = ReadLimits()
        limits.maxEntryBytes = 100
        #expect(try error(reading: "good.xlsx", limits: limits)?.code == .xlsxPartTooLarge)
    }

    @Test func notAZipIsAnError() {
        let error = ferryError { _ = try FerryReading(bytes: Array(repeating: 0x41, count: 100)) }
        #expect(error?.code == .xlsxNotZip)
    }
}

extension XLSXHostileTests {
    @Test func zip64HeadersAreRead() throws {
        let folder = try Self.made.get()
        let reading = try FerryReading(bytes: try folder.read("zip64.xlsx"))
        #expect(reading.rows == [[.string("Wii")]])
    }
}
