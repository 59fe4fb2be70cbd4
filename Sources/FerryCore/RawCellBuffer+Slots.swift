// MARK: - Raw memory for a reader's hot loop
//
// A reader that knows how many cells a record will have (the JSON reader,
// whose records mostly repeat the previous one's keys) takes room for them
// once and writes each cell in place, then says how many it wrote. What
// this buys, measured with callgrind (`Scripts/count-instructions.sh`, a
// merge of two spaced JSON Lines files of 200,000 products, 20,000
// conflicts): `append` and `count`, called from the JSON scanner in
// another module, were not inlined there and cost 92M instructions (16
// calls a record); with this (and one test for one space in
// `skipWhitespace`) the merge went from 2,047.6M to 1,980.3M.

extension RawCellBuffer {
    /// Empties the buffer and makes room for `count` cells.
    /// - Returns: where the cells go: write cell `i` at `i` (cells hold no
    ///   references, so no initializing is needed), then `setFilled`.
    package mutating func emptySlots(_ count: Int) -> UnsafeMutablePointer<RawValue> {
        filled = 0
        while room < max(count, 1) { grow() }
        return start.unsafelyUnwrapped
    }

    /// Takes the first `count` cells written through `emptySlots` as the buffer's.
    /// - Precondition: `count` is at most what `emptySlots` made room for,
    ///   and each of those cells was written.
    package mutating func setFilled(_ count: Int) {
        assert(count <= room, "more cells than room was made for")
        filled = count
    }
}
