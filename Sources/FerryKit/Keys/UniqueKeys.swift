/// The values of a unique field seen so far, each with the record that had
/// it first, held as 128-bit digests of their text: a slot of 24 bytes a key
/// whatever its length, in a table between a quarter and half full, so a
/// million keys take 48 to 96 MiB.
///
/// The digest is `KeyDigest`'s, over the key's text as `KeyText` gives it,
/// which is also what merge matches records by.
import CFerrySystem

final class UniqueKeys {
    /// One key: its digest, the record that had it first, and the table's
    /// `round` when it was put there: a slot of another round is empty. 24
    /// bytes, so most probes touch one line.
    private struct Slot {
        var low: UInt64
        var high: UInt64
        var record: UInt32
        var round: UInt32
    }

    /// The slots' memory: zero pages from the kernel, which are empty
    /// slots (`LargeBuffer`); none
    /// when even the first table could not be mapped (`slots` is then one
    /// slot of its own).
    private var memory: LargeBuffer
    private var slots: UnsafeMutablePointer<Slot>
    private var mask: Int
    private(set) var count = 0
    /// Set when the table needed to grow and the system had no memory for
    /// it. The table then takes keys until it is full, and no more: keys
    /// after that are not kept, so the caller must stop trusting what it
    /// finds and report `io.outOfMemory`.
    private(set) var outOfMemory = false
    /// The slots of this round hold keys; the others are empty. The
    /// kernel's zero pages are of round 0, so the first round is 1, and
    /// `clear()` starts the next round rather than writing every slot (a
    /// merge clears its table 64 times, a few megabytes each).
    private var round: UInt32 = 1
    /// The most slots a table may have; more is taken for no memory (tests
    /// lower it to reach that case).
    private let slotLimit: Int

    /// - Parameter initialSlots: the first table's size, a power of two.
    init(slotLimit: Int = .max, initialSlots: Int = 1 << 16) {
        self.slotLimit = slotLimit
        mask = max(initialSlots, 2) - 1
        if let (memory, slots) = Self.table(mask + 1, limit: slotLimit) {
            (self.memory, self.slots) = (memory, slots)
        } else {
            // One slot that stays empty: lookups end at once, inserts are refused.
            (memory, mask, outOfMemory) = (LargeBuffer(), 0, true)
            slots = .allocate(capacity: 1)
            slots.initialize(to: Slot(low: 0, high: 0, record: 0, round: 0))
        }
    }

    deinit {
        if memory.base == nil { slots.deallocate() } else { memory.release() }
    }

    /// Zeroed slots, every page mapped; nil when the system has no memory for them.
    private static func table(_ size: Int, limit: Int) -> (LargeBuffer, UnsafeMutablePointer<Slot>)? {
        guard size <= limit else { return nil }
        let (bytes, overflow) = size.multipliedReportingOverflow(by: MemoryLayout<Slot>.stride)
        guard !overflow else { return nil }
        let memory = LargeBuffer(bytes: bytes)
        guard let base = memory.base else { return nil }
        memory.prefault(bytes)
        return (memory, base.bindMemory(to: Slot.self, capacity: size))
    }

    /// How many slots the table has.
    var capacity: Int { mask + 1 }

    /// Forgets every key, keeping the table's size.
    func clear() {
        guard count > 0 else { return }
        count = 0
        round &+= 1
        if round == 0 {
            // Once in four billion rounds: slots of round 0 again.
            UnsafeMutableRawPointer(slots).initializeMemory(
                as: UInt8.self, repeating: 0, count: (mask + 1) * MemoryLayout<Slot>.stride)
            round = 1
        }
    }

    /// Makes room for `keys` keys in all when the table has less: one move
    /// of the keys now, rather than one per doubling on the way.
    /// A reservation the system cannot map is dropped: the table grows as
    /// keys come instead.
    func reserve(keys: Int) {
        var size = mask + 1
        while keys * 2 > size - 1 && size < 1 << 40 { size *= 2 }
        if size > mask + 1 { _ = resize(to: size) }
    }

    /// Adds the key whose digest is `digest` (`KeyDigest`), of record
    /// `record` (0-based).
    /// - Returns: the 0-based record that had the key first, or nil when it is new.
    func insert(_ digest: KeyDigest, record: Int) -> Int? {
        let slot = slot(of: digest)
        if slots[slot].round == round { return Int(slots[slot].record) }
        // Out of memory, the last empty slot stays empty, so that lookups end.
        if outOfMemory && count + 1 >= mask + 1 { return nil }
        slots[slot] = Slot(low: digest.low, high: digest.high, record: UInt32(clamping: record), round: round)
        count += 1
        if count * 2 > mask && !outOfMemory && !resize(to: (mask + 1) * 2) { outOfMemory = true }
        return nil
    }

    /// The 0-based record that had the key whose digest is `digest`, or nil
    /// when no record had it.
    func record(of digest: KeyDigest) -> Int? {
        let slot = slot(of: digest)
        return slots[slot].round != round ? nil : Int(slots[slot].record)
    }

    /// The slot that holds `digest`, or the empty one where it would go.
    @inline(__always)
    private func slot(of digest: KeyDigest) -> Int {
        var slot = Int(truncatingIfNeeded: digest.low) & mask
        while slots[slot].round == round && (slots[slot].low != digest.low || slots[slot].high != digest.high) {
            slot = (slot + 1) & mask
        }
        return slot
    }

    /// Calls `body` with every key's digest and the record that had it
    /// first, in no particular order.
    func forEach(_ body: (KeyDigest, Int) -> Void) {
        for index in 0...mask where slots[index].round == round {
            body(KeyDigest(low: slots[index].low, high: slots[index].high), Int(slots[index].record))
        }
    }

    /// Asks the processor for the slot a lookup of `digest` starts at, ahead
    /// of `insert`: a batch of keys prefetched before it is inserted waits
    /// for its cache misses together rather than one after another.
    func prefetch(_ digest: KeyDigest) {
        ferry_prefetch(slots + (Int(truncatingIfNeeded: digest.low) & mask))
    }

    /// Moves the keys to a table of `size` slots.
    /// - Returns: false, the table as it was, when the system has no memory for it.
    private func resize(to size: Int) -> Bool {
        guard memory.base != nil, let (newMemory, newSlots) = Self.table(size, limit: slotLimit) else { return false }
        let (oldMemory, old) = (memory, slots)
        let oldSize = mask + 1
        mask = size - 1
        (memory, slots) = (newMemory, newSlots)
        // The new table's slots are of round 0: the keys move as round 1.
        let moving = round
        round = 1
        for index in 0..<oldSize where old[index].round == moving {
            var slot = Int(truncatingIfNeeded: old[index].low) & mask
            while slots[slot].round == round { slot = (slot + 1) & mask }
            slots[slot] = old[index]
            slots[slot].round = round
        }
        oldMemory.release()
        return true
    }
}
