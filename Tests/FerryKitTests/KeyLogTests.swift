import Testing

@testable import FerryKit

/// The pieces of a file's check in parts that keep its keys: `KeyLog`
/// (its chunks cut from memory that moves as it grows) and `KeyDigest`.
@Suite struct KeyLogTests {
    /// Enough keys for the log's memory to grow several times (32 bytes a
    /// key, from 4 MiB): entries logged before a move are found after it.
    @Test func duplicatesAcrossGrowth() throws {
        let first = KeyLog()
        let second = KeyLog()
        let perHalf = 400_000
        // The first half repeats every 1,000th key of its own once; the
        // second half repeats every 7th key of the first.
        for record in 0..<perHalf {
            let key = record % 1_000 == 999 ? record - 1 : record
            try first.append(digest(of: key), key: 0, record: record, byteOffset: record * 10)
        }
        for record in 0..<perHalf {
            let key = record % 7 == 0 ? record : perHalf + record
            try second.append(digest(of: key), key: 0, record: record, byteOffset: record * 10)
        }
        #expect(first.count == perHalf && second.count == perHalf)
        let found = KeyLog.duplicates(in: [first, second], records: [0, perHalf], bytes: [0, perHalf * 10], threads: 2)
        var expected: [KeyLog.Duplicate] = []
        for record in 0..<perHalf where record % 1_000 == 999 {
            expected.append(
                KeyLog.Duplicate(
                    record: record, key: 0, first: record - 1, byteOffset: record * 10, part: 0,
                    digest: KeyDigest(low: digest(of: record - 1).low, high: digest(of: record - 1).high)))
        }
        // Keys ending in 999 are not in the first half (its record 999 has key 998).
        for record in 0..<perHalf where record % 7 == 0 && record % 1_000 != 999 {
            expected.append(
                KeyLog.Duplicate(
                    record: perHalf + record, key: 0, first: record, byteOffset: perHalf * 10 + record * 10, part: 1,
                    digest: KeyDigest(low: digest(of: record).low, high: digest(of: record).high)))
        }
        #expect(found.count == expected.count)
        let mismatch = zip(found, expected).first {
            $0.0.record != $0.1.record || $0.0.first != $0.1.first || $0.0.byteOffset != $0.1.byteOffset
                || $0.0.part != $0.1.part || $0.0.digest != $0.1.digest
        }
        #expect(mismatch == nil, "\(String(describing: mismatch))")
    }

    /// Four parts' logs: a key's first record is the earliest part's, and
    /// the duplicates come in the file's records, each at its part's shift.
    @Test func duplicatesAcrossFourParts() throws {
        let logs = (0..<4).map { _ in KeyLog() }
        // Part 0 has keys 0..<10; part 2 repeats key 3, part 3 repeats key
        // 3 and part 1's key 11; part 1 repeats its own key 11.
        let keys = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 11], [20, 3], [11, 3, 30]]
        for (part, partKeys) in keys.enumerated() {
            for (record, key) in partKeys.enumerated() {
                try logs[part].append(digest(of: key), key: 0, record: record, byteOffset: record * 5)
            }
        }
        let records = [0, 10, 13, 15]
        let bytes = [0, 1_000, 2_000, 3_000]
        let found = KeyLog.duplicates(in: logs, records: records, bytes: bytes, threads: 2)
        #expect(found.map(\.record) == [12, 14, 15, 16])
        #expect(found.map(\.first) == [11, 3, 11, 3])
        #expect(found.map(\.byteOffset) == [1_010, 2_005, 3_000, 3_005])
    }

    /// The digest reads only the key's own bytes, whatever its length and
    /// whatever lies around it (the last word is loaded from the key's end).
    @Test func digestOfTheKeyAlone() throws {
        for length in 0...40 {
            let key = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            let alone = key.withUnsafeBytes { KeyDigest($0) }
            for filler: UInt8 in [0x00, 0xFF, 0x22] {
                let padded = [UInt8](repeating: filler, count: 9) + key + [UInt8](repeating: filler, count: 9)
                let inside = padded.withUnsafeBytes { KeyDigest(UnsafeRawBufferPointer(rebasing: $0[9..<(9 + length)])) }
                #expect(inside == alone, "length \(length)")
            }
            if length > 0 {
                // Every byte counts, the last ones too.
                var changed = key
                changed[length - 1] ^= 1
                #expect(changed.withUnsafeBytes { KeyDigest($0) } != alone, "length \(length)")
            }
        }
    }

    /// `schema infer` asks only which fields repeat: two logs that number
    /// the same fields differently are matched by the names the renaming
    /// gives, a field renamed `ignored` is left out, and no renaming
    /// keeps the numbers. One thread or more find the same.
    @Test func repeatedFieldsRenamed() throws {
        let first = KeyLog()
        let second = KeyLog()
        // First: field 0 is "sku", 1 is "name", 2 "code". Second: 0 is
        // "name", 1 is "sku", 2 "code". Names: sku 10, name 20, code 30.
        for record in 0..<100 {
            try first.append(digest(of: record), key: 0, record: record, byteOffset: 0)
            try first.append(digest(of: record % 50), key: 1, record: record, byteOffset: 0)
            try first.append(digest(of: record), key: 2, record: record, byteOffset: 0)
            try second.append(digest(of: 100 + record), key: 1, record: record, byteOffset: 0)
            try second.append(digest(of: 1_000 + record), key: 0, record: record, byteOffset: 0)
            try second.append(digest(of: 99), key: 2, record: record, byteOffset: 0)
        }
        // sku's keys are 0..<200 once each; under its number in the other
        // log ("name"'s 1,000...) no key of sku's comes.
        let renamed: [[UInt64]] = [[10, 20, 30], [20, 10, 30]]
        for threads in [1, 2, 3] {
            #expect(KeyLog.repeatedFields(in: [first, second], fields: renamed, threads: threads) == [20, 30])
        }
        #expect(KeyLog.repeatedFields(in: [first, second], fields: [[10, 20, KeyLog.ignored], [20, 10]], threads: 2) == [20])
        // Kept numbers: field 1 repeats in the first log, field 2 in the second
        // (and the first's 99), field 0 has first's 0..<100 and second's 1,000...
        #expect(KeyLog.repeatedFields(in: [first, second], fields: [[], []], threads: 2) == [1, 2])
        #expect(KeyLog.repeatedFields(in: [second], fields: [[]], threads: 1) == [2])
    }

    /// A packed log finds the same duplicates, in the same order, as it
    /// did before packing; a log past the limit is left as it is.
    @Test func packedLogsMatchTheSame() throws {
        let first = KeyLog()
        let second = KeyLog()
        for record in 0..<3_000 {
            try first.append(digest(of: record % 2_000), key: record % 3, record: record, byteOffset: record)
            try second.append(digest(of: record * 7 % 5_000), key: record % 3, record: record, byteOffset: record)
        }
        let before = KeyLog.duplicates(in: [first, second], records: [0, 3_000], bytes: [0, 3_000], threads: 2)
        let repeatedBefore = KeyLog.repeatedFields(in: [first, second], fields: [[5, 6, 7], [7, 6, 5]], threads: 2)
        first.pack()
        second.pack()
        let after = KeyLog.duplicates(in: [first, second], records: [0, 3_000], bytes: [0, 3_000], threads: 2)
        #expect(!before.isEmpty && first.count == 3_000)
        #expect(after.map(\.record) == before.map(\.record) && after.map(\.first) == before.map(\.first))
        #expect(after.map(\.byteOffset) == before.map(\.byteOffset) && after.map(\.key) == before.map(\.key))
        #expect(KeyLog.repeatedFields(in: [first, second], fields: [[5, 6, 7], [7, 6, 5]], threads: 2) == repeatedBefore)
        let large = KeyLog()
        for record in 0...KeyLog.packLimit { try large.append(digest(of: record), key: 0, record: record, byteOffset: 0) }
        large.pack()
        try large.append(digest(of: 0), key: 0, record: KeyLog.packLimit + 1, byteOffset: 0)
        #expect(KeyLog.duplicates(in: [large], records: [0], bytes: [0], threads: 2).map(\.first) == [0])
    }

    /// The partitions are shared among any number of threads, each taking
    /// a run of them: the duplicates, and the fields that repeat, are the
    /// same, in the same order, for every number (past the partitions' too).
    @Test func everyNumberOfThreadsFindsTheSame() throws {
        let logs = (0..<3).map { _ in KeyLog() }
        for (part, log) in logs.enumerated() {
            for record in 0..<5_000 {
                let key = (part * 5_000 + record) % 7_001
                try log.append(digest(of: key), key: key % 2, record: record, byteOffset: record * 3)
            }
        }
        let records = [0, 5_000, 10_000]
        let bytes = [0, 15_000, 30_000]
        func found(_ threads: Int) -> [[Int]] {
            KeyLog.duplicates(in: logs, records: records, bytes: bytes, threads: threads).map {
                [$0.record, $0.key, $0.first, $0.byteOffset, $0.part, Int(truncatingIfNeeded: $0.digest.low)]
            }
        }
        let once = found(1)
        // Not vacuous: keys 0..<7,001 (of fields 0 and 1) come again from record 7,001 on.
        #expect(once.count == 15_000 - 7_001 && once.first?[0] == 7_001 && once.first?[2] == 0)
        let repeated = KeyLog.repeatedFields(in: logs, fields: [[], [], []], threads: 1)
        #expect(repeated == [0, 1])
        for threads in [2, 3, 4, 8, 64, 100] {
            #expect(found(threads) == once, "\(threads) threads")
            #expect(KeyLog.repeatedFields(in: logs, fields: [[], [], []], threads: threads) == repeated)
        }
    }

    /// A merge walks one partition of every part's log at a time, each
    /// log's entries in the order logged (across its chunks), the logs in
    /// their order; a record without a key is in partition 0, with no digest.
    @Test func aPartitionOfSeveralLogsInOrder() throws {
        let logs = (0..<3).map { _ in KeyLog() }
        // The first log fills more than a chunk (1,024 entries) of each partition.
        let counts = [100_000, 3_000, 10]
        for (part, log) in logs.enumerated() {
            for record in 0..<counts[part] {
                if record % 1_000 == 999 {
                    try log.appendWithoutKey(record: record, byteOffset: record)
                } else {
                    try log.append(digest(of: record), key: 0, record: record, byteOffset: record)
                }
            }
        }
        var seen = [0, 0, 0]
        var withoutKey = 0
        var inOrder = true
        for partition in 0..<KeyLog.partitionCount {
            var last = (log: -1, record: -1)
            KeyLog.forEach(in: partition, of: logs) { log, entry in
                inOrder = inOrder && (log, entry.record) > last && entry.byteOffset == entry.record
                last = (log, entry.record)
                seen[log] += 1
                if entry.digest == nil {
                    withoutKey += 1
                    inOrder = inOrder && partition == 0 && entry.record % 1_000 == 999
                } else {
                    inOrder = inOrder && entry.digest == digest(of: entry.record)
                }
            }
        }
        #expect(inOrder)
        #expect(seen == counts && withoutKey == 100 + 3)
    }

    private func digest(of key: Int) -> KeyDigest { KeyDigest("K-\(key)") }
}

/// A log the system has no memory to grow: `append` throws `io.outOfMemory`
/// rather than ending the process, and the entries it took stay matched.
@Suite struct KeyLogOutOfMemoryTests {
    @Test func appendThrowsTheCodedError() throws {
        let log = KeyLog(entryLimit: 4_096)
        var logged = 0
        let error = #expect(throws: FerryError.self) {
            for record in 0..<100_000 {
                try log.append(KeyDigest("K-\(record % 10)"), key: 0, record: record, byteOffset: 0)
                logged += 1
            }
        }
        #expect(error?.code == .ioOutOfMemory)
        #expect(logged >= 4_096 && logged < 100_000)
        let found = KeyLog.duplicates(in: [log], records: [0], bytes: [0], threads: 1)
        #expect(found.count == logged - 10)
    }
}
