#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a reader made of the last few key sets of binary plist
/// dictionaries, found again by the bytes of their key references.
///
/// Writers share key objects, so the dictionaries of a million records name
/// their keys with the same few reference byte strings: comparing those
/// bytes (a `memcmp` of a few bytes) replaces decoding and comparing keys.
/// The references were checked when the entry was made, so equal bytes
/// mean equal, valid keys.
struct KeySetCache<Entry> {
    private var entries: [(count: Int, entry: Entry)] = []
    /// The reference bytes of each entry, `slotBytes` apart. Made with the
    /// first entry: a reader whose initializer throws never runs the
    /// `deinit` that would free it.
    private var bytes = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var next = 0
    private static var slotCount: Int { 16 }
    /// Longer reference lists are never cached.
    private static var slotBytes: Int { 256 }
    private var slotCount: Int { Self.slotCount }
    private var slotBytes: Int { Self.slotBytes }

    /// Frees the bytes; the owner's `deinit` calls it.
    func deallocate() { bytes.deallocate() }  // nothing when never made

    /// The entry of the `count` keys whose references are `references`.
    @inline(__always)
    func find(_ references: UnsafeRawBufferPointer, count: Int) -> Entry? {
        for slot in entries.indices where entries[slot].count == count {
            guard let saved = bytes.baseAddress?.advanced(by: slot * slotBytes) else { return nil }
            guard let start = references.baseAddress else { return entries[slot].entry }
            if memcmp(saved, start, references.count) == 0 { return entries[slot].entry }
        }
        return nil
    }

    /// The entry of the `count` keys whose references are `references`,
    /// made by `make` and kept on first sight.
    @inline(__always)
    mutating func entry<Failure: Error>(
        for references: UnsafeRawBufferPointer, count: Int, make: () throws(Failure) -> Entry
    ) throws(Failure) -> Entry {
        if let known = find(references, count: count) { return known }
        let made = try make()
        insert(made, for: references, count: count)
        return made
    }

    /// Keeps `entry` for the `count` keys whose references are
    /// `references`, in place of the oldest once full.
    mutating func insert(_ entry: Entry, for references: UnsafeRawBufferPointer, count: Int) {
        guard references.count <= slotBytes else { return }
        let slot = entries.count < slotCount ? entries.count : next
        next = (slot + 1) % slotCount
        if bytes.baseAddress == nil { bytes = .allocate(byteCount: slotCount * slotBytes, alignment: 8) }
        UnsafeMutableRawBufferPointer(rebasing: bytes[(slot * slotBytes)...]).copyMemory(from: references)
        if slot == entries.count { entries.append((count, entry)) } else { entries[slot] = (count, entry) }
    }
}
