#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

// MARK: - Raw memory for the key log
//
// A log's entries live in 32 KiB chunks cut from one arena of mapped
// memory (`LargeBuffer`, which says why it asks for no huge pages),
// reached through raw pointers to each partition's last chunk and its
// end: appending touches no Swift array (no reference count, no
// uniqueness or exclusivity check). A partition's table
// (`PartitionTable`) is raw memory too.
// What it buys, measured on `ferry validate` of 1M products of JSON
// Lines: the log against one table probed as read, 0.169 s -> 0.150 s,
// RSS 73 -> 54 MB (56a8852); chunks from the arena against a malloc each,
// with a bitset for photos, 0.126 s -> 0.114 s, RSS 53 -> 49 MB (41762af).

/// The unique keys one part of a file saw, for the check of all its parts
/// at once, or the keys of one part of a merge's input (see the design
/// note in KeyLog.swift). One thread at a time uses a log.
final class KeyLog: @unchecked Sendable {
    static let partitionBits = 6
    static let partitionCount = 1 << partitionBits
    /// Entries a chunk of a partition holds (32 KiB).
    private static let chunkEntries = 1024

    /// Each partition's chunks, all full but the last, which `ends` says how
    /// far is filled. The last chunk of each is also in `current`, so that
    /// appending touches no Swift array (no reference counting, no checks
    /// of uniqueness).
    @exclusivity(unchecked) private var chunks: [[UnsafeMutablePointer<Entry>]]
    private let current: UnsafeMutablePointer<UnsafeMutablePointer<Entry>?>
    private let ends: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private(set) var count = 0
    /// Where the chunks are cut from, one after another: mapped memory that
    /// grows (`LargeBuffer`), zero from the kernel, rather than a `malloc`
    /// each. A chunk the system cannot map comes from the allocator.
    @exclusivity(unchecked) private var arena = LargeBuffer()
    /// The bytes of `arena` cut into chunks.
    @exclusivity(unchecked) private var arenaUsed = 0
    /// The entries past which no chunk is added, as when the system has no
    /// memory for one (tests lower it to reach that case).
    private let entryLimit: Int

    init(entryLimit: Int = .max) {
        self.entryLimit = entryLimit
        chunks = Array(repeating: [], count: Self.partitionCount)
        current = .allocate(capacity: Self.partitionCount)
        current.initialize(repeating: nil, count: Self.partitionCount)
        ends = .allocate(capacity: Self.partitionCount)
        ends.initialize(repeating: Self.chunkEntries, count: Self.partitionCount)
    }

    deinit {
        freeChunks()
        current.deallocate()
        ends.deallocate()
    }

    /// Frees every entry: the log is empty after, as a new one (a merge's,
    /// once matched, before its output is written).
    func removeAll() {
        freeChunks()
        (arena, arenaUsed, packed, count) = (LargeBuffer(), 0, nil, 0)
        chunks = Array(repeating: [], count: Self.partitionCount)
        current.update(repeating: nil, count: Self.partitionCount)
        ends.update(repeating: Self.chunkEntries, count: Self.partitionCount)
    }

    /// Gives back the memory of `partition`'s entries, which are read no
    /// more (a merge's, once that partition is matched): the peak of a
    /// merge's memory is while its keys are matched, and each partition
    /// matched frees 1/64 of the logs as the tables and the kept records
    /// grow. Threads may discard different partitions of one log at once.
    /// The log may only be emptied (`removeAll`) after.
    func discard(partition: Int) {
        guard packed == nil, let base = arena.base else { return }
        for chunk in chunks[partition] where inArena(chunk) {
            let offset = UnsafeMutableRawPointer(chunk) - base
            arena.discard(offset..<offset + Self.chunkBytes)
        }
    }

    /// Frees every chunk and the arena.
    private func freeChunks() {
        if let packed {
            packed.deallocate()
        } else {
            for partition in chunks {
                for chunk in partition where !inArena(chunk) { free(chunk) }
            }
        }
        arena.release()
    }

    // MARK: - Packing

    /// A packed log's entries, partition after partition (`pack()`); nil
    /// before.
    @exclusivity(unchecked) private var packed: UnsafeMutablePointer<Entry>?
    /// The most entries `pack()` moves: past it, the arena's pages are full.
    static let packLimit = 1 << 14

    /// Moves the entries of a small log (`packLimit`) into one allocation
    /// of their size, and frees its arena: a log keeps a page of each
    /// partition it has a key in, which `schema infer` pays for each of
    /// thousands of small files it may read (1,000 files of 10 records
    /// took 149 MB, where their own tables had taken 38 MB). The order of
    /// each partition's entries stays; no entry may be appended after.
    func pack() {
        guard packed == nil, count <= Self.packLimit else { return }
        let block = UnsafeMutablePointer<Entry>.allocate(capacity: max(count, 1))
        var packedChunks: [[UnsafeMutablePointer<Entry>]] = Array(repeating: [], count: Self.partitionCount)
        var packedEnds = [Int](repeating: Self.chunkEntries, count: Self.partitionCount)
        var filled = 0
        for partition in 0..<Self.partitionCount {
            let start = filled
            forEach(in: partition) { entry in
                (block + filled).initialize(to: entry)
                filled += 1
            }
            if filled > start { (packedChunks[partition], packedEnds[partition]) = ([block + start], filled - start) }
        }
        freeChunks()
        (arena, arenaUsed, chunks, packed) = (LargeBuffer(), 0, packedChunks, block)
        for partition in 0..<Self.partitionCount {
            current[partition] = packedChunks[partition].first
            ends[partition] = packedEnds[partition]
        }
    }

    private static let chunkBytes = chunkEntries * MemoryLayout<Entry>.stride
    /// The arena's first size (128 chunks); it doubles after.
    private static let firstArenaBytes = 4 << 20

    private func inArena(_ chunk: UnsafeMutablePointer<Entry>) -> Bool {
        guard let base = arena.base else { return false }
        let at = UnsafeMutableRawPointer(chunk)
        return at >= base && at < base + arenaUsed
    }

    /// Logs key `key` of `record`, with its digest.
    /// - Throws: `io.outOfMemory` when the system has no memory for it.
    @inline(__always)
    func append(_ digest: KeyDigest, key: Int, record: Int, byteOffset: Int) throws(FerryError) {
        let partition = Int(truncatingIfNeeded: digest.high >> UInt64(64 - Self.partitionBits))
        var end = ends[partition]
        if end == Self.chunkEntries { end = try newChunk(partition) }
        current[partition].unsafelyUnwrapped.advanced(by: end).initialize(
            to: Entry(
                low: digest.low, high: digest.high,
                recordAndKey: UInt64(truncatingIfNeeded: record) & 0xFFFF_FFFF_FFFF | UInt64(truncatingIfNeeded: key) << 48,
                byteOffset: byteOffset))
        ends[partition] = end + 1
        count += 1
    }

    /// Logs a record without a key, in partition 0 (as the merge keeps it
    /// in its place: `MergeIndex` counts it, never matches it).
    func appendWithoutKey(record: Int, byteOffset: Int) throws(FerryError) {
        try append(KeyDigest(low: 0, high: 0), key: Int(Self.noKey), record: record, byteOffset: byteOffset)
    }

    /// Starts a chunk for `partition`; returns its first free entry (0).
    /// - Throws: `io.outOfMemory` when neither the arena nor the allocator has one.
    private func newChunk(_ partition: Int) throws(FerryError) -> Int {
        guard count < entryLimit,
            let chunk = arenaChunk() ?? malloc(Self.chunkBytes)?.bindMemory(to: Entry.self, capacity: Self.chunkEntries)
        else { throw .ioOutOfMemory() }
        chunks[partition].append(chunk)
        current[partition] = chunk
        return 0
    }

    /// The next chunk of the arena, grown as needed (its chunks move with
    /// it); nil when it cannot grow.
    private func arenaChunk() -> UnsafeMutablePointer<Entry>? {
        if arenaUsed + Self.chunkBytes > arena.capacity {
            let old = arena.base
            guard arena.grow(to: max(arenaUsed + Self.chunkBytes, Self.firstArenaBytes)) else { return nil }
            if let old, let base = arena.base, old != base {
                let end = old + arenaUsed
                for partition in chunks.indices {
                    for index in chunks[partition].indices {
                        let at = UnsafeMutableRawPointer(chunks[partition][index])
                        guard at >= old && at < end else { continue }
                        chunks[partition][index] = (base + (at - old)).assumingMemoryBound(to: Entry.self)
                    }
                    current[partition] = chunks[partition].last
                }
            }
        }
        guard let base = arena.base else { return nil }
        let chunk = (base + arenaUsed).bindMemory(to: Entry.self, capacity: Self.chunkEntries)
        arenaUsed += Self.chunkBytes
        return chunk
    }

    /// The entries of `partition`, in the order logged.
    @inline(__always)
    func forEach<Failure: Error>(
        in partition: Int, _ body: (Entry) throws(Failure) -> Void
    ) throws(Failure) {
        let list = chunks[partition]
        for (index, chunk) in list.enumerated() {
            let filled = index == list.count - 1 ? ends[partition] : Self.chunkEntries
            for entry in 0..<filled { try body(chunk[entry]) }
        }
    }

    /// How many entries `partition` holds.
    func count(in partition: Int) -> Int {
        chunks[partition].isEmpty ? 0 : (chunks[partition].count - 1) * Self.chunkEntries + ends[partition]
    }
}

extension KeyLog {
    /// The keys of one partition: an open-addressing table, at most half
    /// full, made once for the largest partition and cleared between them.
    struct PartitionTable {
        private struct Slot {
            var low: UInt64
            var high: UInt64
            var key: UInt64
            /// The record that had the key first, plus 1; 0 for an empty slot.
            var record: Int
        }

        private let slots: UnsafeMutablePointer<Slot>
        private let mask: Int
        /// The slots in use, to clear them alone.
        private let used: UnsafeMutablePointer<Int>
        private var usedCount = 0

        init(capacity: Int) {
            var size = 16
            while size < capacity * 2 { size *= 2 }
            slots = .allocate(capacity: size)
            slots.initialize(repeating: Slot(low: 0, high: 0, key: 0, record: 0), count: size)
            mask = size - 1
            used = .allocate(capacity: max(capacity, 1))
        }

        /// Frees the table's memory; it must not be used after.
        func release() {
            slots.deallocate()
            used.deallocate()
        }

        mutating func clear() {
            for index in 0..<usedCount { slots[used[index]].record = 0 }
            usedCount = 0
        }

        /// Adds the entry's digest as a key of field `key`, of file record `record`.
        /// - Returns: the file record that had it first, or nil when it is new.
        @inline(__always)
        mutating func insert(_ entry: Entry, key: UInt64, record: Int) -> Int? {
            // The top bits chose the partition: the index takes the low ones.
            var index = Int(truncatingIfNeeded: entry.low) & mask
            while slots[index].record != 0 {
                let slot = slots[index]
                if slot.low == entry.low && slot.high == entry.high && slot.key == key { return slot.record - 1 }
                index = (index + 1) & mask
            }
            slots[index] = Slot(low: entry.low, high: entry.high, key: key, record: record + 1)
            used[usedCount] = index
            usedCount += 1
            return nil
        }
    }
}
