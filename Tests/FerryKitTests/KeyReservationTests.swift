import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// A run that knows its size reserves its key tables once, from the rate
/// of its first records (`FileCheck.expectedBytes`): a file whose first
/// records belie the rest cannot make it reserve more than the bound.
@Suite struct KeyReservationTests {
    /// Checks `rows` products (sku unique) that claim to start a file of
    /// `scale` times their bytes (or of `bytes`), and returns the sku
    /// table's slots.
    func slots(rows: Int, scale: Int = 1, bytes: Int? = nil) throws -> Int {
        var text = "name,price,sku\n"
        for index in 0..<rows { text += "P,1,\(index)\n" }
        let sink = DiagnosticCollector(maxErrors: nil)
        var run = FileCheck(path: "p.csv", sink: sink, file: ValidationReport.File(path: "p.csv"))
        run.expectedBytes = bytes ?? text.utf8.count * scale
        let context = ReadContext(kind: .product)
        let reader = try CSVCodec.csv.makeReader(MemoryInput(Array(text.utf8), name: "p.csv"), context: context)
        let photos = PhotoStore(inputDirectory: ".", outputDirectory: ".", photosDirectory: nil, overwrite: false)
        try run.check(reader, context: context, kind: .product, schema: nil, photos: photos)
        #expect(sink.diagnostics.isEmpty, "\(sink.diagnostics)")
        return try #require(run.uniqueKeys.first).capacity
    }

    @Test func theTableIsReservedForTheKeysTheFileForesees() throws {
        // Without a size, 5,000 keys fit the first table (64 Ki slots).
        #expect(try slots(rows: 5_000, bytes: 0) == 1 << 16)
        // A file 20 times as large foresees about 100,000 keys: room for
        // them at most half full, at once.
        #expect(try slots(rows: 5_000, scale: 20) == 1 << 18)
    }

    @Test func aFileThatClaimsTooMuchReservesNoMoreThanTheBound() throws {
        // Tiny first rows of a "10 GB" file would foresee a billion keys.
        let capacity = try slots(rows: 5_000, bytes: 10 << 30)
        #expect(capacity == 2 * FileCheck.largestReservation)
    }
}

/// A key table the system has no memory to grow: `UniqueKeys` keeps what
/// fits, refuses the rest without hanging, and validation reports
/// `io.outOfMemory` instead of ending the process.
@Suite struct KeyTableOutOfMemoryTests {
    @Test func aFullTableRefusesNewKeysAndStillFindsOldOnes() {
        let table = UniqueKeys(slotLimit: 1 << 16)
        for key in 0..<70_000 { _ = table.insert(UniqueKeys.digest(key: key), record: key) }
        #expect(table.outOfMemory)
        // One slot stays empty, so that every lookup ends.
        #expect(table.count == (1 << 16) - 1)
        #expect(table.insert(UniqueKeys.digest(key: 10), record: 90_000) == 10)
        #expect(table.insert(UniqueKeys.digest(key: 80_000), record: 90_001) == nil)
        #expect(table.count == (1 << 16) - 1)
    }

    @Test func aTableThatCannotGrowIsUnderItsLimitUntilThen() {
        let table = UniqueKeys(slotLimit: 1 << 17)
        for key in 0..<40_000 { _ = table.insert(UniqueKeys.digest(key: key), record: key) }
        #expect(!table.outOfMemory && table.capacity == 1 << 17)
    }

    @Test func validationReportsItOnce() throws {
        var text = "name,price,sku\n"
        for index in 0..<40_000 { text += "P,1,\(index)\n" }
        let sink = DiagnosticCollector(maxErrors: nil)
        var run = FileCheck(path: "p.csv", sink: sink, file: ValidationReport.File(path: "p.csv"))
        run.keySlotLimit = 1 << 16
        let context = ReadContext(kind: .product)
        let reader = try CSVCodec.csv.makeReader(MemoryInput(Array(text.utf8), name: "p.csv"), context: context)
        let photos = PhotoStore(inputDirectory: ".", outputDirectory: ".", photosDirectory: nil, overwrite: false)
        try run.check(reader, context: context, kind: .product, schema: nil, photos: photos)
        #expect(sink.diagnostics.map(\.code) == [.ioOutOfMemory])
        #expect(sink.diagnostics.first?.severity == .error && run.file.records == 40_000)
        let message = Messages.catalog(locale: "de").message(.ioOutOfMemory)
        #expect(message.contains("Arbeitsspeicher"))
    }
}

/// `clear()` starts a new round rather than writing every slot: the keys
/// of a round are gone after it, and a table cleared many times, grown
/// between clears, finds exactly the keys of its round.
@Suite struct KeyTableRoundTests {
    @Test func aClearedTableHoldsOnlyTheNewRoundsKeys() {
        let table = UniqueKeys()
        for round in 0..<5 {
            // A different set each round, overlapping the last one by half;
            // the later rounds outgrow the first table.
            let keys = (round * 20_000)..<(round * 20_000 + 40_000 * (round + 1))
            for key in keys { #expect(table.insert(UniqueKeys.digest(key: key), record: key - keys.lowerBound) == nil) }
            #expect(table.count == keys.count)
            #expect(table.record(of: UniqueKeys.digest(key: keys.lowerBound + 7)) == 7)
            #expect(table.insert(UniqueKeys.digest(key: keys.lowerBound + 9), record: 1) == 9)
            // A key of the round before only: not there.
            if round > 0 { #expect(table.record(of: UniqueKeys.digest(key: keys.lowerBound - 1)) == nil) }
            var found = 0
            table.forEach { _, _ in found += 1 }
            #expect(found == keys.count)
            table.clear()
            #expect(table.count == 0)
            #expect(table.record(of: UniqueKeys.digest(key: keys.lowerBound + 7)) == nil)
        }
    }
}

extension UniqueKeys {
    /// The digest of key `key`'s decimal text.
    static func digest(key: Int) -> KeyDigest { KeyDigest(String(key)) }
}
